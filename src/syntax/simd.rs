//! Byte scans 32 bytes at a time, with AVX2 where the processor has it.
//!
//! The default mode spends most of its time proving that files it will not
//! parse tokenize (`prefilter::lexes_quietly`). Nearly all bytes of code
//! (words, blanks, most punctuation) need no decision, so the prefilter's lexer
//! jumps from one byte that does to the next ([`skim`]). The bytes that
//! matter are found 32 at a time: a byte belongs to a [`ByteSet`] when two
//! 16-entry tables, looked up by its low and its high nibble, share a bit
//! (the "shufti" technique of Hyperscan and simdjson). [`nesting_bytes`]
//! counts the bytes that bound how deep a file nests (`lex::surely_within`).
//!
//! Without AVX2 (or off x86-64) [`skim`] returns `None` and its caller
//! takes the byte-at-a-time lexer, which gives the same answers;
//! [`nesting_bytes`] counts a byte at a time. This module
//! holds the crate's only `unsafe` code: calling AVX2 functions once AVX2
//! is known to be there, and unaligned loads of exactly 32 in-bounds bytes.
#![allow(unsafe_code)]

/// A set of bytes as two nibble tables: `c` is in the set when
/// `lo[c & 15] & hi[c >> 4] != 0`. Each high nibble gets the bit of its set
/// of low nibbles; at most eight distinct such sets (checked when built).
#[derive(Clone, Copy, Debug)]
pub struct ByteSet {
    lo: [u8; 16],
    hi: [u8; 16],
}

impl ByteSet {
    /// The set of the bytes for which `table` holds. Panics (at compile time
    /// in a `const`) if the set needs more than eight low-nibble sets.
    pub const fn new(table: &[bool; 256]) -> ByteSet {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        // The distinct low-nibble sets (as 16-bit masks) given a bit so far.
        let mut sets = [0u16; 8];
        let mut used = 0;
        let mut h = 0;
        while h < 16 {
            let mut set = 0u16;
            let mut l = 0;
            while l < 16 {
                if table[h * 16 + l] {
                    set |= 1 << l;
                }
                l += 1;
            }
            if set != 0 {
                let mut bit = 0;
                while bit < used && sets[bit] != set {
                    bit += 1;
                }
                if bit == used {
                    assert!(used < 8, "a byte set that needs more than 8 nibble sets");
                    sets[used] = set;
                    used += 1;
                }
                hi[h] = 1 << bit;
                let mut l = 0;
                while l < 16 {
                    if set & (1 << l) != 0 {
                        lo[l] |= 1 << bit;
                    }
                    l += 1;
                }
            }
            h += 1;
        }
        ByteSet { lo, hi }
    }

    /// The set of the bytes in `set`.
    pub const fn of(set: &[u8]) -> ByteSet {
        let mut table = [false; 256];
        let mut k = 0;
        while k < set.len() {
            table[set[k] as usize] = true;
            k += 1;
        }
        ByteSet::new(&table)
    }

    /// Whether `c` is in the set, by the same tables.
    pub const fn contains(&self, c: u8) -> bool {
        self.lo[(c & 15) as usize] & self.hi[(c >> 4) as usize] != 0
    }
}

/// The bytes [`skim`] stops at: every byte of `every`, and each byte of
/// `starting` that does not follow a byte of `word` (a digit that starts a
/// number, not one inside a name). With `links` and `resets`, what lies
/// between stops is counted too ([`Between`]). Without, the stops at bytes
/// of `single` (a subset of `every`: one-byte tokens, such as brackets) are
/// visited as [`Stop::Single`], in a tight loop of their own.
#[derive(Clone, Copy, Debug)]
pub struct Stops {
    pub every: ByteSet,
    pub starting: ByteSet,
    pub word: ByteSet,
    pub links: ByteSet,
    pub resets: ByteSet,
    pub single: ByteSet,
}

/// Where [`skim`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// At `p`, with what was passed over since the last stop.
    At(usize, Between),
    /// At `p`, a byte of [`Stops::single`]: the scan goes on right after
    /// it, whatever the visit returns (on success).
    Single(usize),
}

/// The bytes [`skim`] passed over before a stop (or the end), as runs of
/// links (bytes of `links`) that resets (bytes of `resets`) end: the links
/// before the first reset (all of them when there is none), whether there
/// is a reset, the most links between two resets, and the links after the
/// last reset. Zero unless counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Between {
    pub first: usize,
    pub reset: bool,
    pub inner: usize,
    pub after: usize,
}

impl Between {
    /// Add bytes passed over: bit `k` of `links` (`resets`) set when the
    /// `k`-th is a link (a reset), in the order they came.
    #[inline]
    pub fn add(&mut self, links: u32, mut resets: u32) {
        let mut from = 0;
        while resets != 0 {
            let r = resets.trailing_zeros();
            let run =
                self.after + (links & !(u32::MAX << r) & (u32::MAX << from)).count_ones() as usize;
            if self.reset {
                self.inner = self.inner.max(run);
            } else {
                self.first = run;
                self.reset = true;
            }
            self.after = 0;
            from = r + 1;
            resets &= resets - 1;
        }
        let rest = (u64::from(links) >> from).count_ones() as usize;
        self.after += rest;
        if !self.reset {
            self.first = self.after;
        }
    }
}

#[cfg(test)]
impl Stops {
    /// Whether [`skim`] stops at `b[p]`.
    fn at(&self, b: &[u8], p: usize) -> bool {
        self.every.contains(b[p])
            || (self.starting.contains(b[p]) && !(p > 0 && self.word.contains(b[p - 1])))
    }
}

/// Call `visit(Stop::At(p, between))` at each stop `p` of `b` ([`Stops`]),
/// in order, with what was passed over since the last (counted when
/// `LINKS`); `visit` returns where to go on from (past what it read, at
/// least `p + 1`), and bytes before that are neither visited nor counted.
/// Without `LINKS`, a stop at a byte of `stops.single` is visited as
/// `Stop::Single(p)` and the scan goes on at `p + 1`. Stops at the first
/// error; else gives what lies after the last stop. `None` when AVX2 is
/// not available: the caller reads the bytes itself.
#[inline]
pub fn skim<const LINKS: bool, E>(
    b: &[u8],
    stops: &Stops,
    visit: impl FnMut(Stop) -> Result<usize, E>,
) -> Option<Result<Between, E>> {
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the processor has the features `avx2::skim` needs.
        return Some(unsafe { avx2::skim::<LINKS, E>(b, stops, visit) });
    }
    let _ = (b, stops, visit);
    None
}

/// Whether this processor has what [`skim`] needs (else it returns `None`).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return avx2::available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// How many of the bytes that bound nesting `b` holds (see
/// `lex::surely_within`), comments and literals included: 32 bytes at a
/// time where [`available`], else one at a time.
pub fn nesting_bytes(b: &[u8]) -> NestingBytes {
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the processor has the features `avx2::nesting_bytes` needs.
        return unsafe { avx2::nesting_bytes(b) };
    }
    NestingBytes::count(b)
}

/// Counts of bytes in a text (see `lex::surely_within`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NestingBytes {
    /// `(`, `[`, `{` and `<`.
    pub open: usize,
    /// `=`.
    pub eq: usize,
    /// `|`.
    pub bar: usize,
    /// `.`.
    pub dot: usize,
    /// The prefix operators `*`, `&`, `!` and `-`.
    pub prefix: usize,
}

impl NestingBytes {
    /// The counts, a byte at a time.
    fn count(b: &[u8]) -> NestingBytes {
        let mut counts = [0usize; 256];
        for &c in b {
            counts[usize::from(c)] += 1;
        }
        let n = |c: u8| counts[usize::from(c)];
        NestingBytes {
            open: n(b'(') + n(b'[') + n(b'{') + n(b'<'),
            eq: n(b'='),
            bar: n(b'|'),
            dot: n(b'.'),
            prefix: n(b'*') + n(b'&') + n(b'!') + n(b'-'),
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Between, ByteSet, NestingBytes, Stop, Stops};

    /// AVX2, and `popcnt` to count a mask's bits (std caches the answers).
    pub(super) fn available() -> bool {
        is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt")
    }

    /// 32 bytes at `b[i..]`, padded with `pad` past the end.
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    fn load(b: &[u8], i: usize, pad: u8) -> __m256i {
        if let Some(chunk) = b.get(i..i + 32) {
            // SAFETY: `chunk` is 32 readable bytes; the load is unaligned.
            unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
        } else {
            let mut tail = [pad; 32];
            let rest = &b[i.min(b.len())..];
            tail[..rest.len()].copy_from_slice(rest);
            // SAFETY: `tail` is 32 readable bytes; the load is unaligned.
            unsafe { _mm256_loadu_si256(tail.as_ptr().cast()) }
        }
    }

    /// A nibble table, in both 128-bit lanes (the shuffle looks up by lane).
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    fn table(t: &[u8; 16]) -> __m256i {
        let t: [i8; 16] = t.map(|c| c as i8);
        let lane = _mm_setr_epi8(
            t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13],
            t[14], t[15],
        );
        _mm256_set_m128i(lane, lane)
    }

    /// Bit `k` set when byte `k` of `v` is in the set of the tables.
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    fn members(v: __m256i, lo: __m256i, hi: __m256i) -> u32 {
        let nibble = _mm256_set1_epi8(0x0f);
        let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble));
        let h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
        let none = _mm256_cmpeq_epi8(_mm256_and_si256(l, h), _mm256_setzero_si256());
        !(_mm256_movemask_epi8(none) as u32)
    }

    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn skim<const LINKS: bool, E>(
        b: &[u8],
        stops: &Stops,
        mut visit: impl FnMut(Stop) -> Result<usize, E>,
    ) -> Result<Between, E> {
        let tables = |set: &ByteSet| (table(&set.lo), table(&set.hi));
        let (every, starting, word) = (
            tables(&stops.every),
            tables(&stops.starting),
            tables(&stops.word),
        );
        let (links, resets) = (tables(&stops.links), tables(&stops.resets));
        let single = tables(&stops.single);
        let mut between = Between::default();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            let v = load(b, start, 0);
            let mut found = members(v, every.0, every.1);
            // Many chunks hold no digit: the word bytes are not needed there.
            let starting = members(v, starting.0, starting.1);
            if starting != 0 {
                let after_word = (members(v, word.0, word.1) << 1)
                    | u32::from(start > 0 && stops.word.contains(b[start - 1]));
                found |= starting & !after_word;
            }
            // Not the padding past the end (0, which is no link or reset).
            if b.len() - start < 32 {
                found &= (1u32 << (b.len() - start)) - 1;
            }
            let (linked, reset, singles) = if LINKS {
                (
                    members(v, links.0, links.1),
                    members(v, resets.0, resets.1),
                    0,
                )
            } else {
                (0, 0, members(v, single.0, single.1))
            };
            while found != 0 {
                // The single stops before the next other one (all that are
                // left when there is none), without a visit's bookkeeping.
                let others = found & !singles;
                let mut run = found & singles & (others & others.wrapping_neg()).wrapping_sub(1);
                while run != 0 {
                    visit(Stop::Single(start + run.trailing_zeros() as usize))?;
                    run &= run - 1;
                }
                if others == 0 {
                    break;
                }
                let k = others.trailing_zeros();
                let p = start + k as usize;
                if LINKS {
                    // Passed over: from `i` to the stop.
                    let passed = (u32::MAX << (i - start)) & ((1u32 << k) - 1);
                    between.add(linked & passed, reset & passed);
                }
                i = visit(Stop::At(p, std::mem::take(&mut between)))?;
                debug_assert!(i > p, "no progress at {p}");
                if i >= start + 32 {
                    break;
                }
                // Bytes before `i` were read by `visit`.
                found &= u32::MAX << (i - start);
            }
            if LINKS && i < start + 32 {
                let passed = u32::MAX << (i - start);
                between.add(linked & passed, reset & passed);
            }
            i = i.max(start + 32);
        }
        Ok(between)
    }

    /// Counts in byte lanes (one per position of a chunk), added up every
    /// 255 chunks, before a lane can overflow.
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn nesting_bytes(b: &[u8]) -> NestingBytes {
        let mut out = NestingBytes::default();
        let zero = _mm256_setzero_si256();
        // The sum of a vector's byte lanes.
        let total = |lanes: __m256i| {
            let sums = _mm256_sad_epu8(lanes, zero);
            let sum = _mm256_extract_epi64::<0>(sums)
                + _mm256_extract_epi64::<1>(sums)
                + _mm256_extract_epi64::<2>(sums)
                + _mm256_extract_epi64::<3>(sums);
            sum as usize
        };
        let bytes = b"([{<=|.*&!-".map(|c| _mm256_set1_epi8(c as i8));
        let mut i = 0;
        while i < b.len() {
            let mut lanes = [zero; 5];
            let mut chunks = 0;
            while i < b.len() && chunks < 255 {
                let v = load(b, i, b' ');
                let is = |k: usize| _mm256_cmpeq_epi8(v, bytes[k]);
                let any = |x: __m256i, y: __m256i| _mm256_or_si256(x, y);
                // A match is -1 in its lane: subtracting it counts it.
                lanes[0] = _mm256_sub_epi8(lanes[0], any(any(is(0), is(1)), any(is(2), is(3))));
                lanes[1] = _mm256_sub_epi8(lanes[1], is(4));
                lanes[2] = _mm256_sub_epi8(lanes[2], is(5));
                lanes[3] = _mm256_sub_epi8(lanes[3], is(6));
                lanes[4] = _mm256_sub_epi8(lanes[4], any(any(is(7), is(8)), any(is(9), is(10))));
                chunks += 1;
                i += 32;
            }
            out.open += total(lanes[0]);
            out.eq += total(lanes[1]);
            out.bar += total(lanes[2]);
            out.dot += total(lanes[3]);
            out.prefix += total(lanes[4]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn table_of(member: &[u8], also_high: bool) -> [bool; 256] {
        let mut t = [false; 256];
        let mut k = 0;
        while k < member.len() {
            t[member[k] as usize] = true;
            k += 1;
        }
        let mut c = 0xf0;
        while also_high && c < 256 {
            t[c] = true;
            c += 1;
        }
        t
    }

    const QUOTES: [bool; 256] = table_of(b"\"", true);
    const DIGITS: [bool; 256] = table_of(b"0123456789", false);
    const WORD: [bool; 256] = table_of(b"abc0123456789", false);
    const STOPS: Stops = Stops {
        every: ByteSet::new(&QUOTES),
        starting: ByteSet::new(&DIGITS),
        word: ByteSet::new(&WORD),
        links: ByteSet::of(b"=."),
        resets: ByteSet::of(b";"),
        single: ByteSet::of(b""),
    };

    /// The stop at `p` with what lay between, for the tests without singles.
    fn at(stop: Stop) -> (usize, Between) {
        match stop {
            Stop::At(p, between) => (p, between),
            Stop::Single(p) => panic!("no single stops here, one at {p}"),
        }
    }

    #[test]
    fn a_byte_set_holds_its_bytes_only() {
        for table in [QUOTES, DIGITS, WORD] {
            let set = ByteSet::new(&table);
            for c in 0..=255u8 {
                assert_eq!(set.contains(c), table[usize::from(c)], "{c}");
            }
        }
    }

    #[test]
    fn skimming_visits_every_stop_not_skipped() {
        // Lengths around the chunk size; quotes, digits after a word byte or
        // not, bytes outside ASCII, at every offset.
        for len in [0, 1, 2, 31, 32, 33, 63, 64, 65, 100] {
            let text: Vec<u8> = (0..len)
                .map(|i| match i % 9 {
                    0 | 4 => b'1',
                    3 => b'"',
                    5 => 0xf3,
                    6 => b' ',
                    _ => b'a',
                })
                .collect();
            let mut seen = Vec::new();
            let result = skim::<false, _>(&text, &STOPS, |stop| {
                let (p, between) = at(stop);
                seen.push(p);
                assert_eq!(between, Between::default());
                // Skip the two bytes after a quote.
                Ok::<_, ()>(if text[p] == b'"' { p + 3 } else { p + 1 })
            });
            let Some(result) = result else {
                return; // no AVX2 here: nothing to compare
            };
            assert_eq!(result, Ok(Between::default()));
            let mut expected = Vec::new();
            let mut p = 0;
            while p < text.len() {
                if STOPS.at(&text, p) {
                    expected.push(p);
                    p += if text[p] == b'"' { 3 } else { 1 };
                } else {
                    p += 1;
                }
            }
            assert_eq!(seen, expected, "length {len}");
        }
        // A digit after a word byte in the chunk before is no stop.
        let text = format!("{}a1 2", " ".repeat(31));
        let mut seen = Vec::new();
        if skim::<false, _>(text.as_bytes(), &STOPS, |stop| {
            let (p, _) = at(stop);
            seen.push(p);
            Ok::<_, ()>(p + 1)
        })
        .is_some()
        {
            assert_eq!(seen, [34]);
        }
        // An error stops the scan.
        let text = b"\"a\"b\"";
        let mut seen = 0;
        let result = skim::<false, _>(text, &STOPS, |stop| {
            let (p, _) = at(stop);
            seen += 1;
            if p == 2 { Err(p) } else { Ok(p + 1) }
        });
        if let Some(result) = result {
            assert_eq!((result, seen), (Err(2), 2));
        }
    }

    #[test]
    fn single_stops_are_visited_in_order() {
        // Quotes skip the next two bytes, brackets are single stops; runs
        // of brackets before, between and after other stops, in and across
        // chunks, and brackets a quote skips.
        const SINGLE: Stops = Stops {
            every: ByteSet::of(b"\"()"),
            single: ByteSet::of(b"()"),
            ..STOPS
        };
        let text = format!(
            "(()\"()(1 a1(){}(\")(\"a)){})",
            "()".repeat(20),
            " (".repeat(9)
        );
        let b = text.as_bytes();
        let skip = |p: usize| if b[p] == b'"' { p + 3 } else { p + 1 };
        let mut seen = Vec::new();
        let result = skim::<false, _>(b, &SINGLE, |stop| {
            seen.push(stop);
            Ok::<_, ()>(match stop {
                Stop::At(p, _) => skip(p),
                // Whatever is returned, the scan goes on after the byte.
                Stop::Single(_) => 0,
            })
        });
        let Some(result) = result else {
            return;
        };
        assert_eq!(result, Ok(Between::default()));
        let mut expected = Vec::new();
        let mut p = 0;
        while p < b.len() {
            if SINGLE.at(b, p) {
                let single = SINGLE.single.contains(b[p]);
                expected.push(if single {
                    Stop::Single(p)
                } else {
                    Stop::At(p, Between::default())
                });
                p = if single { p + 1 } else { skip(p) };
            } else {
                p += 1;
            }
        }
        assert_eq!(seen, expected);
        assert!(seen.iter().filter(|s| matches!(s, Stop::Single(_))).count() > 50);
        // An error at a single stop ends the scan.
        let mut visits = 0;
        let result = skim::<false, _>(b"(\"a)", &SINGLE, |stop| {
            visits += 1;
            match stop {
                Stop::At(p, _) => Ok(p + 1),
                Stop::Single(p) => Err(p),
            }
        });
        if let Some(result) = result {
            assert_eq!((result, visits), (Err(0), 1));
        }
    }

    #[test]
    fn links_between_stops_are_counted() {
        // Stops at quotes (the second quote's next two bytes are skipped),
        // links `=` and `.`, resets `;`, across chunk boundaries.
        let text = format!("a=b.\"x=;{}=\"=.;==\";.=.=", "=.;".repeat(15));
        let b = text.as_bytes();
        let mut got = Vec::new();
        let skip = |p: usize| if b[p] == b'"' && p > 5 { p + 3 } else { p + 1 };
        let Some(tail) = skim::<true, _>(b, &STOPS, |stop| {
            let (p, between) = at(stop);
            got.push(between);
            Ok::<_, ()>(skip(p))
        }) else {
            return;
        };
        got.push(tail.unwrap());
        // The same, a byte at a time.
        let mut expected = Vec::new();
        let mut between = Between::default();
        let mut p = 0;
        while p < b.len() {
            if STOPS.at(b, p) {
                expected.push(std::mem::take(&mut between));
                p = skip(p);
                continue;
            }
            let link = u32::from(matches!(b[p], b'=' | b'.'));
            between.add(link, u32::from(b[p] == b';'));
            p += 1;
        }
        expected.push(between);
        assert_eq!(got, expected);
        assert!(
            expected
                .iter()
                .any(|b| b.reset && b.after > 0 && b.first > 0 && b.inner > 0)
        );
    }

    #[test]
    fn nesting_bytes_count_as_one_byte_at_a_time() {
        let text = "fn f() -> Option<u8> { let a = b.c | d & !e * -f; [g] } ".repeat(7);
        for end in [0, 5, 31, 32, 33, 64, 100, text.len()] {
            let b = &text.as_bytes()[..end];
            // Without AVX2 both are the byte-at-a-time count.
            assert_eq!(nesting_bytes(b), NestingBytes::count(b), "{end}");
        }
        // Past 255 chunks the byte lanes are added up: a long text, and one
        // where every lane counts in every chunk.
        for long in [text.repeat(40), "(".repeat(32 * 600 + 7)] {
            let b = long.as_bytes();
            assert_eq!(nesting_bytes(b), NestingBytes::count(b), "{}", b.len());
        }
    }
}
