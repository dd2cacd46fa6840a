//! `uncanonicalized_platform_comparison` must stay silent in files that are
//! test code as a whole: a `#[cfg(test)] mod tests;` file and an
//! integration test under `tests/`, helpers included.

pub fn is_accelerator(dev: &Device) -> bool {
    canonicalize_platform(dev.platform()) != "cpu"
}

#[cfg(test)]
mod tests;
