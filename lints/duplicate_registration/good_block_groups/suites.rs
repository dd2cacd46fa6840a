use crate::harness::{Clash, Runner};

fn parse_json() {}
fn parse_toml() {}

pub fn suites(runner: &mut Runner) -> Result<(), Clash> {
    {
        let mut group = runner.new_group();
        group.register_case("parse", parse_json)?;
        runner.finish(group);
    }
    {
        let mut group = runner.new_group();
        group.register_case("parse", parse_toml)?;
        runner.finish(group);
    }
    Ok(())
}
