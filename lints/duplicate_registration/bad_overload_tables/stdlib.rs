use crate::engine::{Engine, Taken};

fn abs(args: &[f64]) -> f64 {
    args[0].abs()
}

pub fn math(engine: &mut Engine) -> Result<(), Taken> {
    engine.register_1_arg::<i64>("abs", abs)?;
    engine.register_1_arg::<f64>("abs", abs)?; //~ duplicate_registration
    Ok(())
}

pub fn exact(engine: &mut Engine) -> Result<(), Taken> {
    engine.register_exact::<i64>("abs", abs)?;
    engine.register_exact::<f64>("abs", abs)?;
    engine.register_exact::<i64>("abs", abs)?; //~ duplicate_registration
    Ok(())
}
