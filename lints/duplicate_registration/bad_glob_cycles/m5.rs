use super::*;
pub use crate::m0::*;
pub use crate::m1::*;
pub use crate::m2::*;
pub use crate::m3::*;
pub use crate::m4::*;
pub use crate::m6::*;
pub use crate::m7::*;
pub use crate::m8::*;
pub use crate::m9::*;
pub use crate::m10::*;
pub use crate::m11::*;

pub fn init_again() {
    crate::REGISTRY.register_backend(DEEP_KEY, make); //~ duplicate_registration
}
