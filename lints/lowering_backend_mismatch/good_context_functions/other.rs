use crate::context::{Error, LoweringContext, get_backend};

pub fn make() -> Result<LoweringContext, Error> {
    Ok(LoweringContext::new().with_backend(get_backend("cuda")?))
}
