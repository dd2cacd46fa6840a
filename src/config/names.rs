//! Name patterns (`name`, `prefix*`, `!name`) and the sets of them the
//! vocabulary is made of, with the first bytes that let a set pass over most
//! names at once.

/// One name pattern: `name`, `prefix*`, and `!` in front to exclude.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pattern {
    pub(super) text: String,
    pub(super) exclude: bool,
    /// The name, or the prefix when `prefix`.
    pub(super) stem: String,
    pub(super) prefix: bool,
}

impl Pattern {
    pub(super) fn parse(text: &str) -> Result<Pattern, String> {
        let (exclude, rest) = match text.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (prefix, stem) = match rest.strip_suffix('*') {
            Some(stem) => (true, stem),
            None => (false, rest),
        };
        if stem.is_empty() && !prefix {
            return Err("a name cannot be empty".into());
        }
        if let Some(c) = stem.chars().find(|c| !(c.is_alphanumeric() || *c == '_')) {
            return Err(format!(
                "`{text}` is not a name: `{c}` is not allowed (a name, `prefix*`, or `!` in front to exclude)"
            ));
        }
        Ok(Pattern {
            text: text.to_string(),
            exclude,
            stem: stem.to_string(),
            prefix,
        })
    }

    pub(super) fn matches(&self, name: &str) -> bool {
        // Most names the walk asks about differ at the first byte: tell them
        // apart without a call to compare the rest.
        if let Some(&first) = self.stem.as_bytes().first()
            && name.as_bytes().first() != Some(&first)
        {
            return false;
        }
        if self.prefix {
            name.starts_with(&self.stem)
        } else {
            name == self.stem
        }
    }

    /// Exact names are more specific than prefixes, longer prefixes than shorter.
    pub(super) fn specificity(&self) -> usize {
        if self.prefix {
            self.stem.len()
        } else {
            usize::MAX
        }
    }
}

/// A set of first bytes: what the names of a set can start with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FirstBytes([u64; 4]);

impl FirstBytes {
    /// The first bytes of `stems`; every byte when one is empty (an empty
    /// prefix matches every name).
    pub(super) fn of<'a>(stems: impl Iterator<Item = &'a str>) -> FirstBytes {
        let mut firsts = FirstBytes::default();
        for stem in stems {
            match stem.as_bytes().first() {
                Some(&b) => firsts.0[usize::from(b >> 6)] |= 1 << (b & 63),
                None => firsts = FirstBytes([u64::MAX; 4]),
            }
        }
        firsts
    }

    pub fn add(&mut self, other: &FirstBytes) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    /// Whether `name` may be in the set: it starts with one of the bytes.
    /// An empty name may be only through an empty prefix.
    pub fn admits(&self, name: &str) -> bool {
        let b = name.as_bytes().first().copied();
        match b {
            Some(b) => self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0,
            None => self.0 == [u64::MAX; 4],
        }
    }
}

/// A set of names: patterns included, minus patterns excluded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameSet {
    pub(super) patterns: Vec<Pattern>,
    /// The first bytes the included names and prefixes start with: a name
    /// starting with another byte is not in the set, which is most names
    /// the walk asks about.
    pub(super) firsts: FirstBytes,
}

impl NameSet {
    pub(super) fn new(patterns: Vec<Pattern>) -> NameSet {
        let firsts = FirstBytes::of(
            patterns
                .iter()
                .filter(|p| !p.exclude)
                .map(|p| p.stem.as_str()),
        );
        NameSet { patterns, firsts }
    }

    pub(super) fn builtin(names: &[&str]) -> NameSet {
        NameSet::new(
            names
                .iter()
                .map(|n| Pattern::parse(n).expect("built-in names are valid"))
                .collect(),
        )
    }

    pub fn contains(&self, name: &str) -> bool {
        if !self.firsts.admits(name) {
            return false;
        }
        self.patterns.iter().any(|p| !p.exclude && p.matches(name))
            && !self.patterns.iter().any(|p| p.exclude && p.matches(name))
    }

    /// The names as written, for `backend-lint config`.
    pub fn texts(&self) -> Vec<String> {
        self.patterns.iter().map(|p| p.text.clone()).collect()
    }

    /// The names and prefixes included (exclusions left out): every name the
    /// set contains starts with one of them. For the text prefilter.
    pub fn stems(&self) -> impl Iterator<Item = &str> {
        self.patterns
            .iter()
            .filter(|p| !p.exclude)
            .map(|p| p.stem.as_str())
    }

    /// The plain names (no prefix, no exclusion): what a text prefilter or a
    /// message may quote.
    pub fn first_name(&self) -> Option<&str> {
        self.patterns
            .iter()
            .find(|p| !p.exclude && !p.prefix)
            .map(|p| p.stem.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_names_prefixes_and_exclusions() {
        let set = NameSet::builtin(&["lower", "lower_*", "!lower_bound"]);
        assert!(set.contains("lower"));
        assert!(set.contains("lower_module"));
        assert!(!set.contains("lower_bound"));
        assert!(!set.contains("lowercase"));
        assert!(Pattern::parse("re*gister").is_err());
        assert!(Pattern::parse("").is_err());
    }

    #[test]
    fn a_set_skips_names_by_first_byte_as_its_patterns_would() {
        let sets: &[&[&str]] = &[
            &["register_*", "!register_handler", "platform"],
            &["*", "!lower*"],
            &["é*", "_x"],
            &["!platform"],
            &[],
        ];
        let names = [
            "",
            "register_",
            "register_handler",
            "register_x",
            "platform",
            "platforms",
            "lower",
            "x",
            "é",
            "éa",
            "_x",
            "_",
            "Platform",
        ];
        for patterns in sets {
            let parsed: Vec<Pattern> = patterns
                .iter()
                .map(|p| Pattern::parse(p).unwrap())
                .collect();
            let set = NameSet::new(parsed.clone());
            for name in names {
                let by_patterns = parsed.iter().any(|p| {
                    !p.exclude
                        && if p.prefix {
                            name.starts_with(&p.stem)
                        } else {
                            name == p.stem
                        }
                }) && !parsed.iter().any(|p| {
                    p.exclude && (name == p.stem || (p.prefix && name.starts_with(&p.stem)))
                });
                assert_eq!(set.contains(name), by_patterns, "{patterns:?} {name:?}");
            }
        }
    }
}
