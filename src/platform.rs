//! What backend-lint knows about platform names: the canonical spellings,
//! the aliases, and how a literal relates to them. Every lint asks here.

/// Canonical platform names, as lowering platforms and canonicalized device
/// platforms spell them. Always lower case.
pub const CANONICAL: &[&str] = &["cpu", "tpu", "cuda", "rocm", "oneapi", "metal"];

/// Aliases and the canonical platforms they stand for.
pub const ALIASES: &[(&str, &[&str])] = &[("gpu", &["cuda", "rocm", "oneapi"])];

/// How a string literal relates to the platform vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiteralKind {
    /// Exactly a canonical name.
    Canonical,
    /// An alias (in any case): never equal to a canonical value.
    Alias {
        alias: &'static str,
        targets: &'static [&'static str],
    },
    /// A canonical name in the wrong case, e.g. `"CUDA"`.
    WrongCase { canonical: &'static str },
    /// Not a platform name we know: could be anything, so never flagged.
    Unknown,
}

pub fn classify_literal(s: &str) -> LiteralKind {
    if CANONICAL.contains(&s) {
        return LiteralKind::Canonical;
    }
    if let Some(&(alias, targets)) = ALIASES.iter().find(|(a, _)| a.eq_ignore_ascii_case(s)) {
        return LiteralKind::Alias { alias, targets };
    }
    if let Some(&canonical) = CANONICAL.iter().find(|c| c.eq_ignore_ascii_case(s)) {
        return LiteralKind::WrongCase { canonical };
    }
    LiteralKind::Unknown
}

pub fn is_canonical(s: &str) -> bool {
    classify_literal(s) == LiteralKind::Canonical
}

/// The canonical platforms a name stands for: itself when canonical (or a
/// canonical name in another case), its targets when an alias, and the name
/// itself, lowercased, when unknown (so that two unknown names still compare).
pub fn expand(name: &str) -> Vec<String> {
    match classify_literal(name) {
        LiteralKind::Canonical => vec![name.to_string()],
        LiteralKind::WrongCase { canonical } => vec![canonical.to_string()],
        LiteralKind::Alias { targets, .. } => targets.iter().map(|t| t.to_string()).collect(),
        LiteralKind::Unknown => vec![name.to_ascii_lowercase()],
    }
}

/// `true` when the platform sets named by `a` and `b` share a platform.
pub fn overlaps(a: &str, b: &str) -> bool {
    let b = expand(b);
    expand(a).iter().any(|p| b.contains(p))
}

/// `cuda`, `rocm` and `oneapi` as prose: "`cuda`, `rocm` or `oneapi`".
pub fn quoted_list(names: &[&str], conj: &str) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`\"{n}\"`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {conj} {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_classified() {
        assert_eq!(classify_literal("cuda"), LiteralKind::Canonical);
        assert_eq!(
            classify_literal("CUDA"),
            LiteralKind::WrongCase { canonical: "cuda" }
        );
        assert!(matches!(
            classify_literal("GPU"),
            LiteralKind::Alias { alias: "gpu", .. }
        ));
        assert_eq!(classify_literal("cuda_matmul"), LiteralKind::Unknown);
    }

    #[test]
    fn aliases_expand_for_overlap() {
        assert!(overlaps("cuda", "gpu"));
        assert!(overlaps("gpu", "rocm"));
        assert!(!overlaps("cpu", "gpu"));
        assert!(!overlaps("cpu", "cuda"));
        assert!(overlaps("CPU", "cpu"));
    }

    #[test]
    fn lists_read_as_prose() {
        assert_eq!(quoted_list(&["cuda"], "or"), "`\"cuda\"`");
        assert_eq!(
            quoted_list(&["cuda", "rocm", "oneapi"], "or"),
            "`\"cuda\"`, `\"rocm\"` or `\"oneapi\"`"
        );
    }
}
