//! Did-you-mean hints: the word nearest to a mistyped one.

use crate::model::lint_id::LintId;

/// The candidate nearest to `word` if it is a likely typo of it: at most one
/// edit per three characters (at least one), as `chek` for `check`, not `init`
/// for `lints`.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(word, c), c))
        .filter(|(d, _)| *d <= most)
        .min()
        .map(|(_, c)| c)
}

/// The lint whose name is nearest to `name`, if it is a likely typo.
pub fn closest_lint(name: &str) -> Option<LintId> {
    nearest(name, LintId::names()).and_then(LintId::from_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_the_lint() {
        assert_eq!(
            closest_lint("duplicate_registrations"),
            Some(LintId::DuplicateRegistration)
        );
        assert_eq!(closest_lint("something_else"), None);
        assert_eq!(nearest("chek", ["check", "lints"]), Some("check"));
        assert_eq!(nearest("init", ["check", "lints"]), None);
    }
}
