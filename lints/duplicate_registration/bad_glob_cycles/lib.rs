//! Every module glob-imports its parent and every sibling, as preludes do:
//! resolution must walk each (module, name) once, not every path through the
//! globs (exponential), and still find the constant.
mod m0;
mod m1;
mod m2;
mod m3;
mod m4;
mod m5;
mod m6;
mod m7;
mod m8;
mod m9;
mod m10;
mod m11;

pub use m0::*;

pub fn init_root() {
    crate::REGISTRY.register_backend(DEEP_KEY, make);
}
