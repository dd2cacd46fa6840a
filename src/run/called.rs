//! The names a file calls, kept from its one read in the survey (issue 29):
//! what the learning rounds ask before reading a file again for a name
//! learned later (a dependency's singleton, a wrapper of one), so that a
//! package's files are not all read again and searched for each name its
//! dependencies teach.
//!
//! A name is kept where the text writes it just before `(`, or before a
//! turbofish and `(` (whitespace between allowed), in code, a comment or a string alike:
//! `set_logger(..)`, `log::set_boxed_logger(..)`, `b.build_global()`,
//! `f::<T>(..)`. That is every place a call of a learned function, switch
//! or singleton can be recorded ([`crate::config::NameUse::Callee`]); a
//! switch field is set, not called, and is searched for by reading.
//!
//! Kept as a Bloom filter of 2,048 bits (256 bytes a file): it may say a
//! file calls a name it does not (the file is then read and searched, as
//! without it), never the reverse.

/// How far back a turbofish's `<` is looked for.
const TURBOFISH_BYTES: usize = 256;

/// 64-bit words of the filter.
const WORDS: usize = 32;
const BITS: u64 = (WORDS * 64) as u64;

/// The names a text calls ([`Called::of`]).
#[derive(Clone)]
pub(super) struct Called(Box<[u64; WORDS]>);

impl Called {
    /// The names `text` writes before `(` (a turbofish between).
    pub fn of(text: &str) -> Called {
        let mut called = Called(Box::new([0; WORDS]));
        let b = text.as_bytes();
        for at in memchr::memchr_iter(b'(', b) {
            called.name_before(b, at);
        }
        called
    }

    /// The identifier that ends before `at` (a `(`), whitespace and a
    /// turbofish (`::<T>`) skipped.
    fn name_before(&mut self, b: &[u8], at: usize) {
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
                    b'<' => depth -= 1,
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
        // Hashed as it is walked back over.
        let mut start = end;
        let mut h = SEED;
        while start > 0 && is_word(b[start - 1]) {
            start -= 1;
            h = step(h, b[start]);
        }
        // A name, not a number.
        if start < end && !b[start].is_ascii_digit() {
            for bit in bits(h) {
                self.0[(bit / 64) as usize] |= 1 << (bit % 64);
            }
        }
    }

    /// Whether the text may call `name`: `false` only when it surely does
    /// not. A name that is no ASCII identifier may be written otherwise
    /// (`r#type`, a non-ASCII name): it may be called.
    pub fn may_call(&self, name: &str) -> bool {
        let b = name.as_bytes();
        if b.is_empty() || !b.iter().all(|&c| is_word(c)) {
            return true;
        }
        let h = b.iter().rev().fold(SEED, |h, &c| step(h, c));
        bits(h)
            .iter()
            .all(|&bit| self.0[(bit / 64) as usize] & (1 << (bit % 64)) != 0)
    }
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

const SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// One byte into the hash (FNV-1a's step; the bits are mixed at the end).
fn step(h: u64, c: u8) -> u64 {
    (h ^ c as u64).wrapping_mul(0x0100_0000_01b3)
}

/// Two bits of a name's hash.
fn bits(h: u64) -> [u64; 2] {
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
