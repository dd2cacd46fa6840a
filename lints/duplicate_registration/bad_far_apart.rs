//! `duplicate_registration`: the first registration far above the second, as
//! in a long table of registrations (tract's `nnef` ops). The human report
//! shows each with an excerpt of its own, not every line in between.

pub fn register(registry: &mut Registry) {
    registry.register_unit_element_wise("abs", &Abs);
    registry.register_unit_element_wise("neg", &Neg);
    registry.register_unit_element_wise("sign", &Sign);
    registry.register_unit_element_wise("recip", &Recip);

    registry.register_unit_element_wise("tan", &Tan);
    registry.register_unit_element_wise("acos", &Acos);
    registry.register_unit_element_wise("asin", &Asin);
    registry.register_unit_element_wise("atan", &Atan);

    registry.register_unit_element_wise("floor", &Floor);
    registry.register_unit_element_wise("ceil", &Ceil);
    registry.register_unit_element_wise("round", &Round);

    registry.register_unit_element_wise("neg", &Neg); //~ duplicate_registration
}
