//! The names a file calls (issue 29), recorded as the survey's lexer reads
//! the file: what the learning rounds ask before reading a file again for
//! a name learned later (a dependency's singleton, a wrapper of one), so
//! that a package's files are not all read again and searched for each
//! name its dependencies teach.
//!
//! A name is kept where code writes it just before `(`, or before a
//! turbofish and `(` (whitespace between allowed): `set_logger(..)`,
//! `log::set_boxed_logger(..)`, `b.build_global()`, `f::<T>(..)`, in a
//! macro's arguments too. That is every place a call of a learned
//! function, switch or singleton can be recorded
//! ([`crate::config::NameUse::Callee`]); a switch field is set, not
//! called, and is searched for by reading. The lexer records them at each
//! `(` of code it passes ([`Recording::before`]); a file it does not read
//! to the end is read for them alone ([`Called::of`]: every `(`, in
//! comments and strings too).
//!
//! Kept as a Bloom filter of 2,048 bits (256 bytes a file): it may say a
//! file calls a name it does not (the file is then read and searched, as
//! without it), never the reverse.

use std::cell::Cell;

/// How far back a turbofish's `<` is looked for.
const TURBOFISH_BYTES: usize = 256;

/// 64-bit words of the filter.
const WORDS: usize = 32;
const BITS: u64 = (WORDS * 64) as u64;

/// The names a text calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Called(Box<[u64; WORDS]>);

/// The names met so far, as a lexer passes them ([`Recording::done`]).
pub(super) struct Recording([Cell<u64>; WORDS]);

impl Recording {
    pub(super) fn new() -> Recording {
        Recording(std::array::from_fn(|_| Cell::new(0)))
    }

    /// The identifier that ends before `at` (a `(`), whitespace and a
    /// turbofish (`::<T>`) skipped.
    #[inline]
    pub(super) fn before(&self, b: &[u8], at: usize) {
        let skip_space = |mut end: usize| {
            while end > 0 && b[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
            end
        };
        let mut end = skip_space(at);
        if end > 0 && b[end - 1] == b'>' {
            // Back to its `<`, within a bound: a turbofish is short.
            let mut depth = 0usize;
            let mut k = end;
            let stop = end.saturating_sub(TURBOFISH_BYTES);
            while k > stop {
                k -= 1;
                match b[k] {
                    b'>' => depth += 1,
                    b'<' => depth = depth.wrapping_sub(1),
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
            if depth != 0 || b[k] != b'<' {
                return;
            }
            let before = skip_space(k);
            if before < 2 || &b[before - 2..before] != b"::" {
                return;
            }
            end = skip_space(before - 2);
        }
        let mut start = end;
        while start > 0 && is_word(b[start - 1]) {
            start -= 1;
        }
        // A name, not a number.
        if start < end && !b[start].is_ascii_digit() {
            for bit in bits(&b[start..end]) {
                let word = &self.0[(bit / 64) as usize];
                word.set(word.get() | 1 << (bit % 64));
            }
        }
    }

    pub(super) fn done(self) -> Called {
        Called(Box::new(self.0.map(Cell::into_inner)))
    }
}

impl Called {
    /// The names `text` writes before `(` (a turbofish between), wherever
    /// (code, comments, strings).
    pub fn of(text: &str) -> Called {
        let recording = Recording::new();
        let b = text.as_bytes();
        for at in memchr::memchr_iter(b'(', b) {
            recording.before(b, at);
        }
        recording.done()
    }

    /// Whether the text may call `name`: `false` only when it surely does
    /// not. A name that is no ASCII identifier may be written otherwise
    /// (`r#type`, a non-ASCII name): it may be called.
    pub fn may_call(&self, name: &str) -> bool {
        let b = name.as_bytes();
        if b.is_empty() || !b.iter().all(|&c| is_word(c)) {
            return true;
        }
        bits(b)
            .iter()
            .all(|&bit| self.0[(bit / 64) as usize] & (1 << (bit % 64)) != 0)
    }
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Two bits of a name's hash, made of its length and its first and last
/// eight bytes (two names alike in those share their bits: a name said
/// called that is not, never the reverse).
#[inline]
fn bits(name: &[u8]) -> [u64; 2] {
    let n = name.len();
    let (head, tail) = match name.first_chunk::<8>() {
        Some(&first) => {
            let last = name.last_chunk::<8>().copied().unwrap_or(first);
            (u64::from_le_bytes(first), u64::from_le_bytes(last))
        }
        // A short name, a byte at a time.
        None => {
            let word = (name.iter().rev()).fold(0u64, |w, &c| w << 8 | c as u64);
            (word, word)
        }
    };
    let h = head.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ tail.rotate_left(31).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
        ^ (n as u64).wrapping_mul(0x1656_67b1_9e37_79f9);
    let h = (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let h = h ^ (h >> 32);
    [h % BITS, (h >> 32) % BITS]
}
#[cfg(test)]
mod tests {
    use super::Called;

    #[test]
    fn a_name_written_before_a_call_is_kept() {
        let text = "use log::set_logger;\n\
                    fn main() {\n    log::set_boxed_logger (Box::new(L)).unwrap();\n    \
                    rayon::ThreadPoolBuilder::new().build_global()\n        .unwrap();\n    \
                    let v = parse::<Vec<u8>>(\"1\");\n    let w = a < b && c > (d);\n    register!(x);\n    x.field = 1;\n    \
                    // init(twice)\n    y.r#try(1);\n}\n";
        let called = Called::of(text);
        for name in [
            "set_boxed_logger",
            "new",
            "build_global",
            "parse",
            "init",
            "main",
            "try",
        ] {
            assert!(called.may_call(name), "{name}");
        }
        // Named, but not before a call: a `use`, a macro, a field, a type.
        for name in [
            "set_logger",
            "register",
            "field",
            "ThreadPoolBuilder",
            "rayon",
            "unwrap_or",
            "set",
            // `a < b && c > (d)`: no turbofish.
            "a",
            "c",
            "Vec",
        ] {
            assert!(!called.may_call(name), "{name}");
        }
        // Not an ASCII identifier: it may be written another way.
        assert!(called.may_call("r#type"));
        assert!(called.may_call(""));
    }

    /// The survey's lexer records the names called in code as it reads a
    /// file (no second pass over its text), not those in a comment or a
    /// string; of a file it does not read to the end, nothing.
    #[test]
    fn the_survey_s_lexer_records_the_names_called_in_code() {
        use crate::config::Vocabulary;
        use crate::prefilter::{Prepared, survey_calls};
        let text = "fn main() {\n    log::set_boxed_logger (Box::new(L)).unwrap();\n    \
                    let v = parse::<Vec<u8>>(\"1\");\n    // init(twice)\n    \
                    let s = \"start(\";\n    info!(\"{}\", run_it(1));\n    \
                    let w = a < b && c > (d);\n}\n";
        let prepared = Prepared::new(&Vocabulary::default());
        let (survey, called) = survey_calls(text, &prepared);
        assert!(survey.lexes);
        let called = called.expect("read to the end");
        for name in [
            "main",
            "set_boxed_logger",
            "new",
            "unwrap",
            "parse",
            "run_it",
        ] {
            assert!(called.may_call(name), "{name}");
        }
        for name in [
            "init", "twice", "start", "log", "info", "Vec", "a", "c", "s",
        ] {
            assert!(!called.may_call(name), "{name}");
        }
        let (survey, called) = survey_calls("fn f() { register_backend(\"cpu\", f); }", &prepared);
        assert!(!survey.lexes);
        assert_eq!(called, None);
    }

    /// The lexer and its SIMD skim record the same names.
    #[test]
    fn the_lexer_and_the_skim_record_alike() {
        use super::super::lexer::{self, Lexed, Watch};
        let texts = [
            "fn main() { f(1); g::<u8>(2); x.h (3); m!(k(4)); /* c(5) */ \"s(6)\"; }",
            "const A: [u8; 2] = [b'(', 1]; fn é() { ü(1) }",
            "fn f() { (a)(b); }",
        ];
        for text in texts {
            let watched = |calls| Watch {
                candidates: &[],
                is_vocabulary: &|_: &str| None,
                platforms: &[],
                normalizers: None,
                calls: Some(calls),
            };
            let by_lex = super::Recording::new();
            lexer::lex::<false>(text, &watched(&by_lex), &mut Lexed::default()).unwrap();
            let by_skim = super::Recording::new();
            if lexer::skim(text, &watched(&by_skim), 100, 100).is_some_and(|r| r.is_ok()) {
                assert_eq!(by_lex.done(), by_skim.done(), "{text}");
            }
        }
    }

    #[test]
    fn a_large_file_says_few_names_it_does_not_call() {
        let text: String = (0..2000).map(|i| format!("f{i}(x);\n")).collect();
        let called = Called::of(&text);
        assert!((0..2000).all(|i| called.may_call(&format!("f{i}"))));
        // With 2,000 names in 2,048 bits it errs often, but not always.
        let wrong = (0..1000)
            .filter(|i| called.may_call(&format!("g{i}")))
            .count();
        assert!(wrong < 900, "{wrong}");
        let small = Called::of("fn f() { g(1); h(2); }");
        let wrong = (0..1000)
            .filter(|i| small.may_call(&format!("g{i}")))
            .count();
        assert!(wrong < 5, "{wrong}");
    }
}
