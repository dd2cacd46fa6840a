use crate::logger;

pub fn main() -> Result<(), logger::AlreadySet> {
    logger::init_global()?; //~ initialized_twice
    install()
}

fn install() -> Result<(), logger::AlreadySet> {
    Ok(())
}
