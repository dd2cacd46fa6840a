pub fn name(c: &crate::Client) -> String {
    c.platform_name()
}
