//! What backend-lint knows about platform names: the canonical spellings,
//! the aliases, and how a literal relates to them. Every lint asks here,
//! with the [`Vocabulary`] of the crate's configuration.

use crate::config::Vocabulary;

/// How a string literal relates to the platform vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiteralKind<'v> {
    /// Exactly a canonical name.
    Canonical,
    /// An alias (in any case): never equal to a canonical value.
    Alias {
        alias: &'v str,
        targets: &'v [String],
    },
    /// A canonical name in the wrong case, e.g. `"CUDA"`.
    WrongCase { canonical: &'v str },
    /// Not a platform name we know: could be anything, so never flagged.
    Unknown,
}

pub fn classify_literal<'v>(vocab: &'v Vocabulary, s: &str) -> LiteralKind<'v> {
    if vocab.canonical.iter().any(|c| c == s) {
        return LiteralKind::Canonical;
    }
    if let Some((alias, targets)) = vocab
        .aliases
        .iter()
        .find(|(a, _)| a.eq_ignore_ascii_case(s))
    {
        return LiteralKind::Alias { alias, targets };
    }
    if let Some(canonical) = vocab.canonical.iter().find(|c| c.eq_ignore_ascii_case(s)) {
        return LiteralKind::WrongCase { canonical };
    }
    LiteralKind::Unknown
}

/// Whether `s` is a canonical name, as the vocabulary spells it, that no
/// alias stands for: canonicalization gives it only from itself (`"cpu"`
/// when `gpu` is the one alias), so a raw value equals it exactly when the
/// canonical value does, up to case.
pub fn is_unaliased_canonical(vocab: &Vocabulary, s: &str) -> bool {
    vocab.canonical.iter().any(|c| c == s)
        && !(vocab.aliases.iter()).any(|(_, targets)| targets.iter().any(|t| t == s))
}

/// Whether `s` is a canonical platform name in any case, or a name made
/// with one as a word of its own (`libtorch<cuda>`, `cuda:0`,
/// `torch-metal`; not `cpuid` nor `cuda_matmul`, which are words of their
/// own, nor prose such as `"no CUDA device"`).
pub fn holds_platform(vocab: &Vocabulary, s: &str) -> bool {
    holds_platform_bytes(&vocab.canonical, s.as_bytes())
}

/// [`holds_platform`] of a literal's bytes, `canonical` the canonical
/// names in lower case (the prefilter's lexer asks it of every literal).
pub fn holds_platform_bytes(canonical: &[String], s: &[u8]) -> bool {
    let named = |w: &[u8]| {
        canonical
            .iter()
            .any(|c| c.as_bytes().eq_ignore_ascii_case(w))
    };
    if named(s) {
        return true;
    }
    if s.len() > MAX_NAME {
        return false;
    }
    // One pass (the lexer asks this of every literal): a blank anywhere is
    // prose; a word is looked up only once a byte outside words ends it.
    let (mut word, mut found, mut split) = (0, false, false);
    for (i, &b) in s.iter().enumerate() {
        if b.is_ascii_alphanumeric() || b == b'_' {
            continue;
        }
        if b.is_ascii_whitespace() {
            return false;
        }
        found = found || named(&s[word..i]);
        (word, split) = (i + 1, true);
    }
    split && (found || named(&s[word..]))
}

/// The longest literal read as a name made with a platform's.
const MAX_NAME: usize = 40;

pub fn is_canonical(vocab: &Vocabulary, s: &str) -> bool {
    classify_literal(vocab, s) == LiteralKind::Canonical
}

/// The canonical platforms a name stands for: itself when canonical (or a
/// canonical name in another case), its targets when an alias, and the name
/// itself, lowercased, when unknown (so that two unknown names still compare).
pub fn expand(vocab: &Vocabulary, name: &str) -> Vec<String> {
    match classify_literal(vocab, name) {
        LiteralKind::Canonical => vec![name.to_string()],
        LiteralKind::WrongCase { canonical } => vec![canonical.to_string()],
        LiteralKind::Alias { targets, .. } => targets.to_vec(),
        LiteralKind::Unknown => vec![name.to_ascii_lowercase()],
    }
}

/// `true` when the platform sets named by `a` and `b` share a platform.
pub fn overlaps(vocab: &Vocabulary, a: &str, b: &str) -> bool {
    let b = expand(vocab, b);
    expand(vocab, a).iter().any(|p| b.contains(p))
}

/// `cuda`, `rocm` and `oneapi` as prose: "`cuda`, `rocm` or `oneapi`".
pub fn quoted_list<S: AsRef<str>>(names: &[S], conj: &str) -> String {
    let quoted: Vec<String> = names
        .iter()
        .map(|n| format!("`\"{}\"`", n.as_ref()))
        .collect();
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
        let v = Vocabulary::default();
        assert_eq!(classify_literal(&v, "cuda"), LiteralKind::Canonical);
        assert_eq!(
            classify_literal(&v, "CUDA"),
            LiteralKind::WrongCase { canonical: "cuda" }
        );
        assert!(matches!(
            classify_literal(&v, "GPU"),
            LiteralKind::Alias { alias: "gpu", .. }
        ));
        assert_eq!(classify_literal(&v, "cuda_matmul"), LiteralKind::Unknown);
    }

    #[test]
    fn names_made_with_a_platform_are_told_from_words_and_prose() {
        let v = Vocabulary::default();
        for made in [
            "cuda",
            "CUDA",
            "libtorch<cuda>",
            "cuda:0",
            "torch-Metal",
            "rocm/6.1",
        ] {
            assert!(holds_platform(&v, made), "{made}");
        }
        for other in [
            "cpuid",
            "cuda_matmul",
            "no CUDA device",
            "gpu",
            "",
            "vulkan",
        ] {
            assert!(!holds_platform(&v, other), "{other}");
        }
        let long = format!("{}-cuda", "x".repeat(MAX_NAME));
        assert!(!holds_platform(&v, &long));
    }

    #[test]
    fn aliases_expand_for_overlap() {
        let v = Vocabulary::default();
        assert!(overlaps(&v, "cuda", "gpu"));
        assert!(overlaps(&v, "gpu", "rocm"));
        assert!(!overlaps(&v, "cpu", "gpu"));
        assert!(!overlaps(&v, "cpu", "cuda"));
        assert!(overlaps(&v, "CPU", "cpu"));
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
