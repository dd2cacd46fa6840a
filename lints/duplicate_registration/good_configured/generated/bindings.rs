//! Generated code, excluded by `exclude = ["generated/**"]`: its duplicate
//! would be reported otherwise.

pub fn init(r: &mut crate::Registry) {
    r.register_op("add");
    r.register_op("add");
}
