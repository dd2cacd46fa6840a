//! The prefilter's lexer: the tokens of a file, fast, or a reason to give up.
//!
//! It tells code from comments and literals by the rules of [`crate::syntax::lex::scan`]
//! (the same character-literal heuristic, raw strings only after `r`/`br`/`cr`,
//! nested block comments), so that every byte `lex::nesting` counts as code is
//! code here too and [`Lexed::nesting_bound`] bounds what it would find. It
//! gives up ([`Bail`]) rather than guess: on a byte outside ASCII in code
//! that is not part of an identifier (see [`unicode_ident_end`]), a
//! bare carriage return, an unterminated literal or comment, unbalanced
//! brackets, an escape it does not read, a literal with a suffix; and as soon
//! as it meets what makes a file need the full parse (a vocabulary name in
//! code, a string literal whose value is a canonical platform name).

use super::{Bail, CONCAT};
use crate::config::NameUse;
use crate::syntax::simd::{self, ByteSet, Stops};
// `lex::scan`'s rule for character literals, so that both see the same code.
use crate::syntax::lex::char_literal_len;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// An identifier or keyword; `r#name` is one token.
    Ident,
    /// `'a`, `'static`, a label.
    Lifetime,
    /// One punctuation byte (`::` is two tokens).
    Punct,
    Open,
    Close,
    /// A string literal that syn reads as `Lit::Str`: `"..."`, `r#"..."#`.
    Str,
    /// Any other literal: numbers, characters, byte and C strings.
    Lit,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    pub start: u32,
    pub end: u32,
    pub kind: Kind,
    /// The byte of a `Punct`, `Open` or `Close`.
    pub byte: u8,
    /// For `Open` and `Close`: the index of the matching bracket.
    pub partner: u32,
}

/// What the lexer looks for while it runs.
pub(super) struct Watch<'a> {
    /// Offsets where a vocabulary stem starts a word (sorted).
    pub candidates: &'a [usize],
    /// Whether an identifier found at a candidate is a vocabulary name, and
    /// whether the walker matches it only as a callee.
    pub is_vocabulary: &'a dyn Fn(&str) -> Option<NameUse>,
    /// Canonical platform names, in lower case: a string literal with one
    /// of these values, in any case, can make a binding canonical (`let p =
    /// "cuda"; p == "gpu"`) or a value set (`"CUDA"`).
    pub platforms: &'a [String],
    /// Where the string normalizers met so far stand (`NameUse::StrMethod`):
    /// not a reason to stop by themselves; the caller asks, once the text
    /// is lexed, whether one may be compared with what it rules out
    /// (`super::normalized`). `None`: no such name is watched.
    pub normalizers: Option<&'a std::cell::RefCell<Vec<(usize, usize)>>>,
    /// Where the names written before each `(` of code are recorded
    /// (`super::called`), if anywhere.
    pub calls: Option<&'a super::called::Recording>,
}

/// The file's tokens, and upper bounds of what [`crate::syntax::lex::nesting`] finds.
#[derive(Default)]
pub(super) struct Lexed {
    pub toks: Vec<Tok>,
    /// At least `lex::nesting(text).brackets`.
    pub brackets_bound: usize,
    /// At least `lex::nesting(text).chain`.
    pub chain_bound: usize,
}

/// Lex `text` into `out` (cleared first). With `TOKENS` false, only the
/// bounds are filled in: the file is checked, and no token is kept.
pub(super) fn lex<const TOKENS: bool>(
    text: &str,
    watch: &Watch<'_>,
    out: &mut Lexed,
) -> Result<(), Bail> {
    let b = text.as_bytes();
    let n = b.len();
    lexable(b)?;
    out.toks.clear();
    out.brackets_bound = 0;
    out.chain_bound = 0;
    let toks = &mut out.toks;
    // Open brackets (token index, byte) and the chain count of each level;
    // level 0 is `base`.
    let mut open: Vec<(u32, u8, usize)> = Vec::with_capacity(64);
    let mut base_chain = 0usize;
    // `<` since the last `{`, `}` or `;` (lex::nesting counts angles that way).
    let mut angles = 0usize;
    let mut next_candidate = 0usize;
    let mut i = 0usize;
    macro_rules! push {
        ($start:expr, $end:expr, $kind:expr, $byte:expr) => {
            if TOKENS {
                toks.push(Tok {
                    start: $start as u32,
                    end: $end as u32,
                    kind: $kind,
                    byte: $byte,
                    partner: 0,
                })
            }
        };
    }
    // One more link in the chain of the current level.
    macro_rules! link {
        () => {{
            let level = match open.last_mut() {
                Some((_, _, c)) => c,
                None => &mut base_chain,
            };
            *level += 1;
            out.chain_bound = out.chain_bound.max(*level);
        }};
    }
    while i < n {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                // The first blank is known: the run goes on after it.
                i = run_end(b, i + 1, is_blank)
            }
            b'/' => match comment_end(b, i)? {
                Some(end) => i = end,
                None => {
                    push!(i, i + 1, Kind::Punct, c);
                    i += 1;
                }
            },
            b'"' => {
                let end = string(b, i, watch)?;
                push!(i, end, Kind::Str, 0);
                i = end;
            }
            b'\'' => {
                let (end, kind) = char_or_lifetime(text, i)?;
                push!(i, end, kind, 0);
                i = end;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                i = word_end(b, i);
                if b.get(i).is_some_and(|&c| c >= 0x80) {
                    // `größe`: no literal's prefix.
                    i = unicode_ident_end(text, i, false)?;
                }
                if let Some((end, kind)) = prefixed(text, start, i, watch, &mut next_candidate)? {
                    push!(start, end, kind, 0);
                    i = end;
                    continue;
                }
                if &b[start..i] == b"if" {
                    link!();
                }
                let within = open.last().map(|&(_, c, _)| c);
                candidate(watch, &mut next_candidate, start, i, text, 0, within)?;
                push!(start, i, Kind::Ident, 0);
            }
            b'0'..=b'9' => {
                let start = i;
                let minus;
                (i, minus) = number(b, i)?;
                // The exponent's `-` still counts as a link, as for lex::nesting.
                if minus {
                    link!();
                }
                push!(start, i, Kind::Lit, 0);
            }
            b'(' | b'[' | b'{' => {
                if c == b'('
                    && let Some(calls) = watch.calls
                {
                    calls.before(b, i);
                }
                open.push((toks.len() as u32, c, 0));
                if c == b'{' {
                    angles = 0;
                }
                out.brackets_bound = out.brackets_bound.max(open.len() + angles);
                push!(i, i + 1, Kind::Open, c);
                i += 1;
            }
            b')' | b']' | b'}' => {
                let popped = open.pop();
                closes(popped.map(|(_, opener, _)| opener), c)?;
                let at = popped.map_or(0, |(at, _, _)| at);
                if c == b'}' {
                    angles = 0;
                }
                if TOKENS {
                    toks[at as usize].partner = toks.len() as u32;
                    toks.push(Tok {
                        start: i as u32,
                        end: i as u32 + 1,
                        kind: Kind::Close,
                        byte: c,
                        partner: at,
                    });
                }
                i += 1;
            }
            0x80.. => {
                // An identifier that starts outside ASCII (`ẕ0`); right
                // after a token ending in a word byte (a number, a lifetime,
                // a raw identifier) it would be part of that token.
                if i > 0 && is_word(b[i - 1]) {
                    return Err(UNICODE_AFTER_TOKEN);
                }
                let start = i;
                i = unicode_ident_end(text, i, true)?;
                let within = open.last().map(|&(_, c, _)| c);
                candidate(watch, &mut next_candidate, start, i, text, 0, within)?;
                push!(start, i, Kind::Ident, 0);
            }
            _ if PUNCT.contains(c) => {
                match c {
                    b';' | b',' => {
                        match open.last_mut() {
                            Some((_, _, level)) => *level = 0,
                            None => base_chain = 0,
                        }
                        if c == b';' {
                            angles = 0;
                        }
                    }
                    b'<' => {
                        angles += 1;
                        out.brackets_bound = out.brackets_bound.max(open.len() + angles);
                    }
                    // `1.5` is no link for lex::nesting either.
                    b'.' if i > 0
                        && b[i - 1].is_ascii_digit()
                        && b.get(i + 1).is_some_and(u8::is_ascii_digit) => {}
                    b'=' | b'-' | b'|' | b'.' | b'*' | b'&' | b'!' => link!(),
                    _ => {}
                }
                push!(i, i + 1, Kind::Punct, c);
                i += 1;
            }
            _ => return Err("a character the prefilter does not lex"),
        }
    }
    if !open.is_empty() {
        return Err("an unclosed bracket");
    }
    Ok(())
}

/// The punctuation `lex` reads as one-byte tokens (`/` when no comment
/// follows).
const PUNCT: ByteSet = ByteSet::of(b"!#$%&*+,-./:;<=>?@^|~");

/// The bytes [`skim`] stops at: those that open a literal or a comment (a
/// quote, `#` after a raw prefix, `/`), brackets, digits that start a
/// number, and every byte [`lex`] does not read in code: outside ASCII,
/// controls other than blanks, `` ` `` and `\`. Letters, `_`, blanks, digits
/// inside names and the other punctuation need no decision.
const SKIM: Stops = stops(false);

/// [`SKIM`], and `<` too: for a file with so many brackets that only the
/// angles since the last brace bound how deep they nest.
const SKIM_ANGLES: Stops = stops(true);

const fn stops(angles: bool) -> Stops {
    let passed = ByteSet::of(b" \t\n\r");
    let mut every = [false; 256];
    let mut c = 0;
    while c < 256 {
        let byte = c as u8;
        let decides = matches!(byte, b'#' | b'/') || (angles && byte == b'<');
        every[c] = decides || !(WORD[c] || passed.contains(byte) || PUNCT.contains(byte));
        c += 1;
    }
    Stops {
        every: ByteSet::new(&every),
        starting: ByteSet::of(b"0123456789"),
        word: ByteSet::new(&WORD),
        links: ByteSet::of(b"=.|-*&!"),
        resets: ByteSet::of(b";,"),
        // One-byte tokens: nothing to skip after them.
        single: if angles {
            ByteSet::of(b"()[]{}<")
        } else {
            ByteSet::of(b"()[]{}")
        },
    }
}

/// Why [`skim`] gives up on a file with many brackets or links.
pub(super) const DEEP: Bail = "it may nest deeper than the parser accepts";

/// [`lex`] without tokens, faster: it jumps from one stop of [`SKIM`] to the
/// next ([`simd::skim`]) and reads only there, with the same functions as
/// `lex` (a literal's prefix is the word right before its quote or `#`).
/// Between stops the text is words, blanks and punctuation, which `lex`
/// takes one token at a time and never rejects; a vocabulary stem there is
/// checked as `lex` checks an identifier. So a file it accepts, `lex`
/// accepts (checked for every short text and on the registry's crates).
///
/// It also bounds what `lex::nesting` would find, or gives up ([`DEEP`]):
/// - from counts of bytes over the whole file ([`simd::nesting_bytes`], as
///   `lex::surely_within`), which is enough for most files;
/// - for a file with more brackets than that allows, by the deepest bracket
///   plus the `<` since the last brace ([`SKIM_ANGLES`]);
/// - for a file with more links (`= . | - * & !`), by counting them per
///   bracket level since the last `;` or `,` of that level, which bounds
///   every chain `lex::nesting` counts there (each kind of link, and runs
///   of prefix operators), as [`simd::Between`] tells what lies between
///   stops.
///
/// `None` without AVX2.
pub(super) fn skim(
    text: &str,
    watch: &Watch<'_>,
    max_brackets: usize,
    max_chain: usize,
) -> Option<Result<(), Bail>> {
    skim_comments(text, watch, max_brackets, max_chain, |_, _| {})
}

/// [`skim`], telling `comment` where each comment of code starts and ends
/// (`//` to the line's end, `/* .. */` with what it nests) as it passes
/// over it.
pub(super) fn skim_comments(
    text: &str,
    watch: &Watch<'_>,
    max_brackets: usize,
    max_chain: usize,
    comment: impl FnMut(usize, usize),
) -> Option<Result<(), Bail>> {
    if !simd::available() {
        return None;
    }
    if let Err(e) = lexable(text.as_bytes()) {
        return Some(Err(e));
    }
    let within = crate::syntax::lex::CountBounds::of(text, max_brackets, max_chain);
    if !within.elses {
        return Some(Err(DEEP));
    }
    let bounds = Bounds {
        brackets: max_brackets,
        chain: max_chain,
        angles: !within.brackets,
    };
    if !within.links {
        skim_in::<true>(text, watch, bounds, comment)
    } else {
        skim_in::<false>(text, watch, bounds, comment)
    }
}

/// The nesting bounds of [`skim`], and whether angles are counted.
#[derive(Clone, Copy)]
struct Bounds {
    brackets: usize,
    chain: usize,
    angles: bool,
}

/// [`skim`], counting the links of each level when `CHAINS`.
fn skim_in<const CHAINS: bool>(
    text: &str,
    watch: &Watch<'_>,
    bounds: Bounds,
    mut comment: impl FnMut(usize, usize),
) -> Option<Result<(), Bail>> {
    let b = text.as_bytes();
    let cands = watch.candidates;
    let mut next_candidate = 0usize;
    let mut open: Vec<u8> = Vec::with_capacity(64);
    // With `CHAINS`: the links of each level since its last `;` or `,`
    // (level 0 first, then one per open bracket).
    let mut chains: Vec<usize> = Vec::with_capacity(if CHAINS { 64 } else { 0 });
    if CHAINS {
        chains.push(0);
    }
    // Links passed over at the current level: the chain goes on, or resets
    // end it and start others.
    let pass = |chains: &mut Vec<usize>, between: simd::Between| {
        if let Some(level) = chains.last_mut() {
            let ended = (*level + between.first).max(between.inner);
            *level = if between.reset { between.after } else { ended };
            if ended.max(*level) > bounds.chain {
                return Err(DEEP);
            }
        }
        Ok(())
    };
    // `<` since the last brace, with `bounds.angles`.
    let mut angles = 0usize;
    // The end of the last token read: a prefix word starts no earlier.
    let mut last_end = 0usize;
    let stops = if bounds.angles { &SKIM_ANGLES } else { &SKIM };
    // Inlined into the scan's loop: a call per stop costs more than most stops.
    let tail = simd::skim::<CHAINS, _>(
        b,
        stops,
        #[inline(always)]
        |stop| {
            let (p, between) = match stop {
                // A bracket or `<` (without `CHAINS`): no links to count,
                // as the same bytes below.
                simd::Stop::Single(p) => {
                    // Stems before it are read in the brackets they are in
                    // (`(platform: T)` is a parameter, `{ platform: p }` a
                    // pattern's field), and before what it may fail on.
                    while next_candidate < cands.len() && cands[next_candidate] < p {
                        let at = cands[next_candidate];
                        next_candidate += 1;
                        vocabulary_at(watch, at, word_end(b, at), text, open.last().copied())?;
                    }
                    if b[p] == b'('
                        && let Some(calls) = watch.calls
                    {
                        calls.before(b, p);
                    }
                    bracket::<CHAINS>(b[p], &mut open, &mut chains, &mut angles, bounds)?;
                    return Ok(p + 1);
                }
                simd::Stop::At(p, between) => (p, between),
            };
            if CHAINS {
                pass(&mut chains, between)?;
            }
            // Stems before `p` are in code, between tokens `lex` reads as words.
            while next_candidate < cands.len() && cands[next_candidate] < p {
                let at = cands[next_candidate];
                next_candidate += 1;
                vocabulary_at(watch, at, word_end(b, at), text, open.last().copied())?;
            }
            let c = b[p];
            let end = match c {
                // Most numbers are one digit (`0`, `1`): nothing more to read.
                b'0'..=b'9' if !b.get(p + 1).is_some_and(|&c| is_word(c)) => p + 1,
                b'0'..=b'9' => {
                    let (end, minus) = number(b, p)?;
                    // The exponent's `-` is a link for lex::nesting.
                    if CHAINS && minus {
                        pass(
                            &mut chains,
                            simd::Between {
                                first: 1,
                                after: 1,
                                ..Default::default()
                            },
                        )?;
                    }
                    end
                }
                b'(' | b'[' | b'{' | b')' | b']' | b'}' | b'<' => {
                    if c == b'('
                        && let Some(calls) = watch.calls
                    {
                        calls.before(b, p);
                    }
                    bracket::<CHAINS>(c, &mut open, &mut chains, &mut angles, bounds)?;
                    p + 1
                }
                b'/' => match comment_end(b, p)? {
                    Some(end) => {
                        comment(p, end);
                        end
                    }
                    None => p + 1,
                },
                b'"' | b'\'' | b'#' => {
                    let word = b[last_end..p].iter().rev().take_while(|&&c| is_word(c));
                    let start = p - word.count();
                    // No word, no prefix (most quotes and `#`).
                    let prefixed = if start < p {
                        prefixed(text, start, p, watch, &mut next_candidate)?
                    } else {
                        None
                    };
                    match prefixed {
                        Some((end, _)) => end,
                        None if c == b'"' => string(b, p, watch)?,
                        None if c == b'\'' => char_or_lifetime(text, p)?.0,
                        None => p + 1,
                    }
                }
                0x80.. => {
                    // The identifier goes on from the word skimmed before
                    // `p` (its stems were read above), or starts at `p`.
                    let word = b[last_end..p].iter().rev().take_while(|&&c| is_word(c));
                    let starts = word.count() == 0;
                    if starts && p > 0 && is_word(b[p - 1]) {
                        return Err(UNICODE_AFTER_TOKEN);
                    }
                    let end = unicode_ident_end(text, p, starts)?;
                    if starts && cands.get(next_candidate) == Some(&p) {
                        vocabulary_at(watch, p, end, text, open.last().copied())?;
                    }
                    end
                }
                _ => return Err("a character the prefilter does not lex"),
            };
            // Stems inside what was read are no identifiers of code.
            while next_candidate < cands.len() && cands[next_candidate] < end {
                next_candidate += 1;
            }
            last_end = end;
            Ok(end)
        },
    )?;
    Some(tail.and_then(|tail| {
        pass(&mut chains, tail)?;
        for &at in &cands[next_candidate.min(cands.len())..] {
            vocabulary_at(watch, at, word_end(b, at), text, open.last().copied())?;
        }
        if open.is_empty() {
            Ok(())
        } else {
            Err("an unclosed bracket")
        }
    }))
}

/// A bracket or `<` read by [`skim_in`] (as a single stop or not): the
/// brackets open, the links of each level when `CHAINS`, and the `<` since
/// the last brace (bounded with the brackets when `bounds.angles`).
#[inline(always)]
fn bracket<const CHAINS: bool>(
    c: u8,
    open: &mut Vec<u8>,
    chains: &mut Vec<usize>,
    angles: &mut usize,
    bounds: Bounds,
) -> Result<(), Bail> {
    match c {
        b'(' | b'[' | b'{' => {
            open.push(c);
            if CHAINS {
                chains.push(0);
            }
            if c == b'{' {
                *angles = 0;
            }
            if bounds.angles && open.len() + *angles > bounds.brackets {
                return Err(DEEP);
            }
        }
        b'<' => {
            *angles += 1;
            if open.len() + *angles > bounds.brackets {
                return Err(DEEP);
            }
        }
        _ => {
            closes(open.pop(), c)?;
            if CHAINS {
                chains.pop();
            }
            if c == b'}' {
                *angles = 0;
            }
        }
    }
    Ok(())
}

/// A plain string literal at `i` (its `"`): its end.
fn string(b: &[u8], i: usize, watch: &Watch<'_>) -> Result<usize, Bail> {
    let (end, escaped) = quoted_end(b, i + 1)?;
    let body = &b[i + 1..end - 1];
    if escaped {
        check_str(body, Quoted::Str, watch)?;
    } else {
        check_raw(body, Quoted::Str, watch)?;
    }
    no_suffix(b, end)?;
    Ok(end)
}

/// A character literal or a lifetime at `i` (its `'`): its end and kind.
fn char_or_lifetime(text: &str, i: usize) -> Result<(usize, Kind), Bail> {
    let b = text.as_bytes();
    // `char_literal_len` without decoding, for a character in ASCII.
    let len = match b.get(i + 1) {
        Some(&c) if c.is_ascii() && c != b'\\' => (b.get(i + 2) == Some(&b'\'')).then_some(3),
        _ => char_literal_len(text, i),
    };
    if let Some(len) = len {
        check_char(&b[i + 1..i + len - 1], false)?;
        no_suffix(b, i + len)?;
        return Ok((i + len, Kind::Lit));
    }
    if !b
        .get(i + 1)
        .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
    {
        return Err("a quote that starts neither a character nor a lifetime");
    }
    let mut j = word_end(b, i + 1);
    // A raw lifetime, `'r#mod`, as a raw identifier: no `'r#self`.
    if j == i + 2
        && b[i + 1] == b'r'
        && b.get(j) == Some(&b'#')
        && b.get(j + 1)
            .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
    {
        let end = word_end(b, j + 1);
        if !may_be_raw(&b[j + 1..end]) {
            return Err("a raw lifetime that is none");
        }
        j = end;
    }
    if b.get(j) == Some(&b'\'') {
        return Err("a character literal the prefilter does not read");
    }
    // `'a#` and `'b"é"` do not tokenize: never in real code.
    if matches!(b.get(j), Some(b'#' | b'"')) {
        return Err("a lifetime the prefilter does not read");
    }
    Ok((j, Kind::Lifetime))
}

/// What the word `start..i` opens when it is a literal's prefix (`r"`,
/// `br#"`, `b'`, `c"`) or a raw identifier (`r#type`): the end and kind of
/// that token. `None` when the word is a word.
fn prefixed(
    text: &str,
    start: usize,
    i: usize,
    watch: &Watch<'_>,
    next_candidate: &mut usize,
) -> Result<Option<(usize, Kind)>, Bail> {
    let b = text.as_bytes();
    let word = &b[start..i];
    // Only a prefix of one or two letters can open a literal.
    if word.is_empty() || word.len() > 2 {
        return Ok(None);
    }
    let token = match (word, b.get(i)) {
        (b"r" | b"br" | b"cr", Some(b'#' | b'"')) if raw_hashes(b, i).is_some() => {
            let hashes = raw_hashes(b, i).unwrap_or(0);
            let body = i + hashes + 1;
            let end = raw_end(b, body, hashes)?;
            let quoted = match word {
                b"r" => Quoted::Str,
                b"br" => Quoted::Bytes,
                _ => Quoted::CStr,
            };
            check_raw(&b[body..end - hashes - 1], quoted, watch)?;
            no_suffix(b, end)?;
            let kind = if word == b"r" { Kind::Str } else { Kind::Lit };
            (end, kind)
        }
        (b"b" | b"c", Some(b'"')) => {
            let (end, _) = quoted_end(b, i + 1)?;
            let quoted = if word == b"b" {
                Quoted::Bytes
            } else {
                Quoted::CStr
            };
            check_str(&b[i + 1..end - 1], quoted, watch)?;
            no_suffix(b, end)?;
            (end, Kind::Lit)
        }
        (b"b", Some(b'\'')) => {
            let Some(len) = char_literal_len(text, i) else {
                return Err("a byte literal the prefilter does not read");
            };
            check_char(&b[i + 1..i + len - 1], true)?;
            no_suffix(b, i + len)?;
            (i + len, Kind::Lit)
        }
        (b"r", Some(b'#'))
            if b.get(i + 1)
                .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_') =>
        {
            // A raw identifier: `r#type` is no keyword.
            let end = word_end(b, i + 1);
            if !may_be_raw(&b[start + 2..end]) {
                return Err("a raw identifier that is none");
            }
            // Where it stands is not known here: as anywhere.
            candidate(watch, next_candidate, start, end, text, 2, None)?;
            (end, Kind::Ident)
        }
        // Neither a raw string nor a raw identifier (`r#` at the end).
        (b"r" | b"br" | b"cr", Some(b'#')) => {
            return Err("a raw prefix the prefilter does not read");
        }
        _ => return Ok(None),
    };
    Ok(Some(token))
}

/// A number at `i` (a digit that starts a token): its end, and whether it
/// holds an exponent's `-` (`1e-5`: the sign is part of the number, not of
/// `0x1e-5`).
fn number(b: &[u8], start: usize) -> Result<(usize, bool), Bail> {
    // Most numbers are digits only (`0`, `42`): nothing more to check.
    let digits = run_end(b, start, |c| c.is_ascii_digit());
    if !b.get(digits).is_some_and(|&c| is_word(c)) {
        return Ok((digits, false));
    }
    let mut i = word_end(b, digits);
    let prefixed = b[start] == b'0' && matches!(b.get(start + 1), Some(b'x' | b'o' | b'b'));
    let mut minus = false;
    if !prefixed
        && matches!(b[i - 1], b'e' | b'E')
        && b[start..i - 1]
            .iter()
            .all(|&c| c.is_ascii_digit() || c == b'_')
        && matches!(b.get(i), Some(b'+' | b'-'))
        && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    {
        minus = b[i] == b'-';
        i = word_end(b, i + 1);
    }
    check_number(&b[start..i])?;
    Ok((i, minus))
}

/// Whether `name` may follow `r#` (in a raw identifier or lifetime).
fn may_be_raw(name: &[u8]) -> bool {
    !matches!(name, b"_" | b"crate" | b"self" | b"super" | b"Self")
}

/// The blanks between tokens.
fn is_blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

fn is_word(c: u8) -> bool {
    WORD[c as usize]
}

/// A character outside ASCII in code right after a token that ends in a
/// word byte: part of a number's suffix, a lifetime, a raw identifier.
const UNICODE_AFTER_TOKEN: Bail = "a character outside ASCII after a literal or lifetime";

/// The end of the identifier whose part from `i` on starts with a character
/// outside ASCII, read as proc-macro2 reads one (`unicode-ident`, the
/// tables it uses): the first character of an identifier (`starts`) is
/// `XID_Start`, every other `XID_Continue` or an ASCII word byte. Any other
/// character (a Unicode blank, `→`) is no token the prefilter reads: the
/// parser decides.
fn unicode_ident_end(text: &str, i: usize, starts: bool) -> Result<usize, Bail> {
    let mut end = i;
    for (k, c) in text[i..].char_indices() {
        let fits = match c {
            _ if c.is_ascii() => is_word(c as u8),
            _ if k == 0 && starts => unicode_ident::is_xid_start(c),
            _ => unicode_ident::is_xid_continue(c),
        };
        if !fits {
            if c.is_ascii() {
                break;
            }
            return Err("a character the prefilter does not lex");
        }
        end = i + k + c.len_utf8();
    }
    Ok(end)
}

/// The end of the word that goes on at `i`.
fn word_end(b: &[u8], i: usize) -> usize {
    run_end(b, i, is_word)
}

/// The end of the run of bytes from `i` on for which `more` holds.
fn run_end(b: &[u8], i: usize, more: impl Fn(u8) -> bool) -> usize {
    i + b[i..].iter().position(|&c| !more(c)).unwrap_or(b.len() - i)
}

/// ASCII letters, digits and `_`, as a table: the lexer's hottest test.
const WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        table[c] = (c as u8).is_ascii_alphanumeric() || c == b'_' as usize;
        c += 1;
    }
    table
};

/// An identifier at `start..end` where a vocabulary stem may start (`skip`:
/// 2 for the `r#` of a raw identifier, which is no name the walker matches,
/// but costs nothing to treat as one). Inlined: the check that no candidate
/// is left runs for every identifier.
#[inline(always)]
fn candidate(
    watch: &Watch<'_>,
    next: &mut usize,
    start: usize,
    end: usize,
    text: &str,
    skip: usize,
    within: Option<u8>,
) -> Result<(), Bail> {
    let cands = watch.candidates;
    if *next >= cands.len() {
        return Ok(());
    }
    let at = start + skip;
    while *next < cands.len() && cands[*next] < at {
        *next += 1;
    }
    if *next < cands.len() && cands[*next] == at {
        return vocabulary_at(watch, at, end, text, within);
    }
    Ok(())
}

/// The identifier `at..end` of code, where a vocabulary stem starts (`end`
/// the end of its ASCII part: it goes on past a character outside ASCII),
/// `within` the innermost bracket open there (`None`: not known).
fn vocabulary_at(
    watch: &Watch<'_>,
    at: usize,
    end: usize,
    text: &str,
    within: Option<u8>,
) -> Result<(), Bail> {
    let end = match text.as_bytes().get(end) {
        Some(&c) if c >= 0x80 => unicode_ident_end(text, end, false).unwrap_or(end),
        _ => end,
    };
    if let Some(how) = (watch.is_vocabulary)(&text[at..end])
        && super::may_start_fact(text.as_bytes(), at, end, how, within)
    {
        if how == NameUse::StrMethod
            && let Some(found) = watch.normalizers
        {
            found.borrow_mut().push((at, end));
            return Ok(());
        }
        return Err("a vocabulary name in code");
    }
    Ok(())
}

/// A number as the lexer reads it (digits and letters up to a `.`, and an
/// exponent's sign): its digits must fit its base, and an exponent must have
/// digits, or the parser decides (`0b102`, `1e` do not tokenize).
fn check_number(num: &[u8]) -> Result<(), Bail> {
    if num.iter().all(u8::is_ascii_digit) {
        return Ok(());
    }
    let bad = Err("a number the prefilter does not read");
    let (digits, rest, decimal): (fn(&u8) -> bool, &[u8], bool) = match num {
        [b'0', b'x', rest @ ..] => (u8::is_ascii_hexdigit, rest, false),
        [b'0', b'o', rest @ ..] => (|c| (b'0'..=b'7').contains(c), rest, false),
        [b'0', b'b', rest @ ..] => (|c| matches!(c, b'0' | b'1'), rest, false),
        _ => (u8::is_ascii_digit, num, true),
    };
    let len = rest.iter().take_while(|c| digits(c) || **c == b'_').count();
    if !rest[..len].iter().any(digits) {
        return bad;
    }
    let suffix = &rest[len..];
    match suffix.first() {
        None => Ok(()),
        Some(b'e' | b'E') if decimal => {
            let exp = &suffix[1..];
            let exp = exp
                .strip_prefix(b"-")
                .or(exp.strip_prefix(b"+"))
                .unwrap_or(exp);
            let k = exp
                .iter()
                .take_while(|c| c.is_ascii_digit() || **c == b'_')
                .count();
            let float = matches!(&exp[k..], b"" | b"f32" | b"f64");
            if float && exp[..k].iter().any(u8::is_ascii_digit) {
                Ok(())
            } else {
                bad
            }
        }
        // A suffix: `u8`, `f32`, or any name (the parser then decides).
        Some(c)
            if c.is_ascii_alphabetic()
                && (decimal || !suffix.iter().any(u8::is_ascii_digit) || is_int_suffix(suffix)) =>
        {
            Ok(())
        }
        _ => bad,
    }
}

fn is_int_suffix(s: &[u8]) -> bool {
    matches!(
        s,
        b"u8"
            | b"u16"
            | b"u32"
            | b"u64"
            | b"u128"
            | b"usize"
            | b"i8"
            | b"i16"
            | b"i32"
            | b"i64"
            | b"i128"
            | b"isize"
    )
}

/// The body of a character (or, with `byte`, byte) literal is one
/// character: an escape must read and give one (`'\q'` does not tokenize).
fn check_char(body: &[u8], byte: bool) -> Result<(), Bail> {
    if byte && !body.is_ascii() {
        return Err("a byte literal with a character outside ASCII");
    }
    if body.first() != Some(&b'\\') {
        return Ok(());
    }
    // One escape and nothing else (no line continuation, no second escape).
    let one = match body.get(1) {
        Some(b'x') => body.len() == 4,
        Some(b'u') => body.iter().position(|&c| c == b'}') == Some(body.len() - 1),
        Some(b'\n' | b'\r') | None => false,
        Some(_) => body.len() == 2,
    };
    if !one {
        return Err("an escape the prefilter does not read");
    }
    match unescape(body, if byte { Quoted::Bytes } else { Quoted::Str }) {
        Some(v) if byte && v.len() == 1 => Ok(()),
        Some(v) if !byte && std::str::from_utf8(&v).is_ok_and(|c| c.chars().count() == 1) => Ok(()),
        _ => Err("an escape the prefilter does not read"),
    }
}

/// A literal directly followed by a word (`"a"x`, `'a'b`): rare, and read
/// differently by lexers; the parser decides.
fn no_suffix(b: &[u8], end: usize) -> Result<(), Bail> {
    match b.get(end) {
        Some(&c) if is_word(c) || c >= 0x80 => Err("a literal with a suffix"),
        _ => Ok(()),
    }
}

/// The end (after the closing quote) of a `"` string whose body starts at
/// `i`, and whether the body holds a backslash.
fn quoted_end(b: &[u8], mut i: usize) -> Result<(usize, bool), Bail> {
    let mut escaped = false;
    loop {
        match memchr::memchr2(b'"', b'\\', &b[i.min(b.len())..]) {
            Some(k) if b[i + k] == b'\\' => {
                escaped = true;
                i += k + 2;
            }
            Some(k) => return Ok((i + k + 1, escaped)),
            None => return Err("an unterminated string"),
        }
    }
}

/// After `r`/`br`/`cr` at `i`: `#*"` opens a raw string; the number of `#`.
fn raw_hashes(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    while b.get(j) == Some(&b'#') {
        j += 1;
    }
    (b.get(j) == Some(&b'"')).then_some(j - i)
}

/// The end of a raw string whose body starts at `body`.
fn raw_end(b: &[u8], mut body: usize, hashes: usize) -> Result<usize, Bail> {
    loop {
        let Some(k) = memchr::memchr(b'"', &b[body.min(b.len())..]) else {
            return Err("an unterminated raw string");
        };
        let quote = body + k;
        if b.len() >= quote + 1 + hashes
            && b[quote + 1..quote + 1 + hashes].iter().all(|&c| c == b'#')
        {
            return Ok(quote + 1 + hashes);
        }
        body = quote + 1;
    }
}

/// Whether the lexer can take `b` at all: token offsets fit in `u32`, and
/// no bare carriage return (an error in literals and doc comments: let the
/// parser say so).
fn lexable(b: &[u8]) -> Result<(), Bail> {
    if b.len() >= u32::MAX as usize {
        return Err("file too large for the prefilter");
    }
    if memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n')) {
        return Err("bare carriage return");
    }
    Ok(())
}

/// The end of the comment that starts at `i` (a `/`), if one does: a line
/// comment ends before its newline, a block comment nests as `lex::scan`
/// nests them.
fn comment_end(b: &[u8], i: usize) -> Result<Option<usize>, Bail> {
    match b.get(i + 1) {
        Some(b'/') => Ok(Some(
            memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k),
        )),
        Some(b'*') => crate::syntax::lex::block_comment_end(b, i)
            .map(Some)
            .ok_or("an unterminated block comment"),
        _ => Ok(None),
    }
}

/// Whether the bracket `close` closes `open`, the innermost one open.
fn closes(open: Option<u8>, close: u8) -> Result<(), Bail> {
    match (open, close) {
        (None, _) => Err("an unopened bracket"),
        (Some(b'('), b')') | (Some(b'['), b']') | (Some(b'{'), b'}') => Ok(()),
        _ => Err("mismatched brackets"),
    }
}

/// What a `"` opens: a string (`Lit::Str`), a byte string, a C string.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Quoted {
    Str,
    Bytes,
    CStr,
}

/// The body of a quoted string: its escapes must read, and the value of a
/// `Lit::Str` must not be a canonical platform name.
fn check_str(body: &[u8], quoted: Quoted, watch: &Watch<'_>) -> Result<(), Bail> {
    if memchr::memchr(b'\\', body).is_none() {
        return check_raw(body, quoted, watch);
    }
    if quoted == Quoted::Bytes && !body.is_ascii() {
        return Err("a byte string with a character outside ASCII");
    }
    // A C string may not hold a nul, written or escaped.
    if quoted == Quoted::CStr && unescape(body, quoted).is_none_or(|v| v.contains(&0)) {
        return Err("a C string the prefilter does not read");
    }
    let value = unescape(body, quoted).ok_or("an escape the prefilter does not read")?;
    match quoted {
        Quoted::Str => check_value(&value, watch),
        Quoted::Bytes | Quoted::CStr => Ok(()),
    }
}

/// A string body without escapes (raw, or with none written): a byte
/// string is ASCII, a C string holds no nul, and the value of a `Lit::Str`
/// is no canonical platform name.
fn check_raw(value: &[u8], quoted: Quoted, watch: &Watch<'_>) -> Result<(), Bail> {
    match quoted {
        Quoted::Str => check_value(value, watch),
        Quoted::Bytes if !value.is_ascii() => Err("a byte string with a character outside ASCII"),
        Quoted::CStr if value.contains(&0) => Err("a C string the prefilter does not read"),
        Quoted::Bytes | Quoted::CStr => Ok(()),
    }
}

fn check_value(value: &[u8], watch: &Watch<'_>) -> Result<(), Bail> {
    if crate::config::platform::holds_platform_bytes(watch.platforms, value) {
        return Err("a canonical platform literal, in any case, or a name made with one");
    }
    Ok(())
}

/// The value of a string body of the kind `quoted` (`\x` above ASCII in
/// byte and C strings only, `\u{..}` not in byte strings), or `None` for an
/// escape outside the common ones (the full parse then decides whether it
/// is valid).
pub(super) fn unescape(body: &[u8], quoted: Quoted) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            out.push(body[i]);
            i += 1;
            continue;
        }
        let e = *body.get(i + 1)?;
        i += 2;
        match e {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'\\' => out.push(b'\\'),
            b'0' => out.push(0),
            b'\'' => out.push(b'\''),
            b'"' => out.push(b'"'),
            b'x' => {
                let hex = body.get(i..i + 2)?;
                // Two hex digits: `from_str_radix` would also take `+1`.
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                let hex = std::str::from_utf8(hex).ok()?;
                let v = u8::from_str_radix(hex, 16).ok()?;
                // Above ASCII only as a byte (of a byte or C string).
                if quoted == Quoted::Str && v > 0x7f {
                    return None;
                }
                out.push(v);
                i += 2;
            }
            b'u' if quoted != Quoted::Bytes => {
                let rest = body.get(i..)?;
                let close = rest.iter().position(|&c| c == b'}')?;
                let digits = std::str::from_utf8(rest.get(1..close)?).ok()?;
                if rest[0] != b'{'
                    || digits.is_empty()
                    || digits.len() > 6
                    || !digits.bytes().all(|c| c.is_ascii_hexdigit())
                {
                    return None;
                }
                let c = char::from_u32(u32::from_str_radix(digits, 16).ok()?)?;
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                i += close + 1;
            }
            b'\n' | b'\r' => {
                while i < body.len() && is_blank(body[i]) {
                    i += 1;
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// `concat!("cu", "da")` of string literals only: `str_expr` reads it as the
/// literal `"cuda"`, which can make a binding canonical.
pub(super) fn check_concat(text: &str, toks: &[Tok], canonical: &[String]) -> Result<(), Bail> {
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident || &text[t.start as usize..t.end as usize] != "concat" {
            continue;
        }
        let (Some(bang), Some(open)) = (toks.get(i + 1), toks.get(i + 2)) else {
            continue;
        };
        if !(bang.kind == Kind::Punct && bang.byte == b'!' && open.kind == Kind::Open) {
            continue;
        }
        let close = open.partner as usize;
        let mut value = Vec::new();
        let mut k = i + 3;
        let mut literals_only = true;
        while k < close {
            // `#[allow(x)] "cu"` is still a literal to syn (`quote!`'s
            // `#name` is none).
            if toks[k].kind == Kind::Punct
                && toks[k].byte == b'#'
                && toks.get(k + 1).is_some_and(|t| {
                    (t.kind == Kind::Open && t.byte == b'[')
                        || (t.kind == Kind::Punct && t.byte == b'!')
                })
            {
                return Err(ATTRIBUTE);
            }
            if toks[k].kind != Kind::Str {
                literals_only = false;
                break;
            }
            let t = &toks[k];
            value.extend(str_value(
                &text.as_bytes()[t.start as usize..t.end as usize],
            )?);
            k += 1;
            if k < close && !(toks[k].kind == Kind::Punct && toks[k].byte == b',') {
                literals_only = false;
                break;
            }
            k += 1;
        }
        if literals_only && canonical.iter().any(|c| c.as_bytes() == value) {
            return Err("a `concat!` of literals giving a canonical platform name");
        }
    }
    Ok(())
}

/// [`check_concat`] from the text, without tokens: every `concat` that
/// starts a word and is followed by `!` and a bracket of string literals and
/// commas only (blanks and comments between, as the lexer skips them) is
/// read, wherever it stands. So it finds each `concat!` that `check_concat`
/// finds in a text the lexer accepts (the tokens there are what is read
/// here), and also those in comments and strings, which only send a file to
/// the full parse. An escape it does not read is an error, as there, and so
/// is an attribute before an argument (`#[allow(x)] "cu"` is still a
/// literal to syn).
///
/// Each `concat` is read forward from where it stands, and from a comment
/// or a string a `/*` or a quote may read on to the end of the text: past
/// reading the text about twice over, the rest is left to the parser (a
/// file of `// concat /*` lines would cost the square of its length).
pub(super) fn check_concat_text(text: &str, canonical: &[String]) -> Result<(), Bail> {
    let b = text.as_bytes();
    let mut budget = 2 * b.len() + 4096;
    for at in memchr::memmem::find_iter(b, CONCAT) {
        if at > 0 && is_word(b[at - 1]) {
            continue;
        }
        let start = at + CONCAT.len();
        let mut reached = start;
        let value = concat_literals(b, start, &mut reached);
        budget = budget
            .checked_sub(reached - start)
            .ok_or("too many `concat`s to read from the text")?;
        if let Some(value) = value?
            && canonical.iter().any(|c| c.as_bytes() == value)
        {
            return Err("a `concat!` of literals giving a canonical platform name");
        }
    }
    Ok(())
}

/// After a `concat` word ending at `i`: the value of `! ( "a", r"b", )`
/// when that follows (any bracket), else `None`. `reached` is set to the
/// end of what was read (the end of the text where a comment or a string
/// does not end).
fn concat_literals(b: &[u8], i: usize, reached: &mut usize) -> Result<Option<Vec<u8>>, Bail> {
    // Past blanks and comments; `None` at an unterminated comment (the
    // lexer rejects the text). Every read moves `reached` on.
    let skip = |mut i: usize, reached: &mut usize| loop {
        i = run_end(b, i, is_blank);
        *reached = i;
        match b.get(i) {
            Some(b'/') => match comment_end(b, i) {
                Ok(Some(end)) => i = end,
                Ok(None) => return Some(i),
                Err(_) => {
                    *reached = b.len();
                    return None;
                }
            },
            _ => return Some(i),
        }
    };
    let Some(i) = skip(i, reached).filter(|&i| b.get(i) == Some(&b'!')) else {
        return Ok(None);
    };
    let Some(mut i) = skip(i + 1, reached) else {
        return Ok(None);
    };
    let close = match b.get(i) {
        Some(b'(') => b')',
        Some(b'[') => b']',
        Some(b'{') => b'}',
        _ => return Ok(None),
    };
    let mut value = Vec::new();
    loop {
        let Some(at) = skip(i + 1, reached) else {
            return Ok(None);
        };
        if b.get(at) == Some(&close) {
            return Ok(Some(value));
        }
        // A string literal, plain or raw, and its end.
        let unterminated = |reached: &mut usize| {
            *reached = b.len();
            Ok(None)
        };
        let end = match b.get(at) {
            Some(b'"') => match quoted_end(b, at + 1) {
                Ok((end, _)) => end,
                Err(_) => return unterminated(reached),
            },
            Some(b'r') => {
                let Some(hashes) = raw_hashes(b, at + 1) else {
                    return Ok(None);
                };
                match raw_end(b, at + 1 + hashes + 1, hashes) {
                    Ok(end) => end,
                    Err(_) => return unterminated(reached),
                }
            }
            // An attribute, not `quote!`'s `#name` or `#(..)*`.
            Some(b'#') => {
                return match skip(at + 1, reached).and_then(|k| b.get(k)) {
                    Some(b'[' | b'!') => Err(ATTRIBUTE),
                    _ => Ok(None),
                };
            }
            _ => return Ok(None),
        };
        *reached = end;
        value.extend(str_value(&b[at..end])?);
        let Some(next) = skip(end, reached) else {
            return Ok(None);
        };
        match b.get(next) {
            Some(&c) if c == close => return Ok(Some(value)),
            Some(b',') => i = next,
            _ => return Ok(None),
        }
    }
}

/// Why a `concat!` is left to the parser: an attribute before an argument.
const ATTRIBUTE: Bail = "an attribute in a `concat!`";

/// Why a string literal's value is not known.
const ESCAPE: Bail = "an escape the prefilter does not read";

/// The value of a string literal as written, `"..."` or `r#"..."#` (a
/// `Kind::Str` token).
pub(super) fn str_value(s: &[u8]) -> Result<Vec<u8>, Bail> {
    if let Some(raw) = s.strip_prefix(b"r") {
        let hashes = raw.iter().take_while(|&&c| c == b'#').count();
        return Ok(raw[hashes + 1..raw.len() - hashes - 1].to_vec());
    }
    unescape(&s[1..s.len() - 1], Quoted::Str).ok_or(ESCAPE)
}
