use crate::scope::{Scope, Usage};

/// `x = 1; print(x)` as the resolver sees it.
pub fn assign_then_read(scope: &mut Scope) {
    scope.register_name("x", Usage::Assigned);
    scope.register_name("x", Usage::Used);
    scope.register_name("x", Usage::Captured);
}
