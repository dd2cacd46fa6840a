use crate::harness::{Clash, Runner};

fn parse_json() {}
fn parse_toml() {}

pub fn suites(runner: &mut Runner) -> Result<(), Clash> {
    {
        let mut group = runner.new_group();
        group.register_case("parse", parse_json)?;
        group.register_case("parse", parse_toml)?; //~ duplicate_registration
        runner.finish(group);
    }
    Ok(())
}
