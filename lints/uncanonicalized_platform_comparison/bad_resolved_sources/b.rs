pub fn name(c: &crate::Client) -> String {
    crate::canonicalize_platform(&c.platform_name())
}
