//! When a string normalizer's call (`Names::Normalizers`: `.to_lowercase()`,
//! `.trim()`, `.replace("a", "b")`) needs the parse: only where the text
//! lexed (a file, or one function's body when bodies are blanked) also
//! compares a string it may rule out.
//!
//! `impossible_value_comparison` reports a normalized value compared with
//! a string the normalizers it went through cannot give
//! (`model::facts::Normalized::excludes`). Each reason comes from one
//! call on that value, in the same function (a value is followed through
//! immutable locals only: `analysis::values::normalized`):
//! - an ASCII upper-case letter, from a lowercasing call;
//! - an ASCII lower-case letter, from an uppercasing call;
//! - white space at an edge, from `trim()`;
//! - a removed string, from `replace(from, ..)` with a literal `from`.
//!
//! So a normalizer call counts only when a string literal, or the path of a
//! constant ([`crate::analysis::values::names_a_constant`], whose value the
//! crate pass looks up), stands where the walker reads the other side of a
//! comparison ([`compared`]), and, for a literal, the call can rule it out
//! ([`Rule::rules_out`]), allowing for any comparison kind. Both are wider
//! than the walker: an over-reading costs a parse, never a finding, and
//! `tests/prefilter.rs` holds both modes to the same findings.
//!
//! A constant counts only where its value may be ruled out: defined in the
//! file as a literal a call rules out, or as a path or `concat!` (whose
//! value the crate pass finds elsewhere), or not defined in the file at
//! all ([`Consts`]). One defined as anything else (`3..=8`,
//! `Symbol("serde")`) has no string value for the crate pass either
//! (`analysis::values::const_value`). A function's body is checked with the
//! constants of its whole file.
//!
//! The text is lexed once more, with its tokens, and only when it has such
//! a call: linear in its length whatever the number of calls.

use std::collections::HashMap;

use super::lexer::{self, Kind, Tok};
use super::{Bail, UNWATCHED};

/// The constants and statics a file defines, by name: for each definition
/// its string value, or `None` when the crate pass may find one elsewhere
/// (a path, a `concat!`). A definition of any other value is no entry's.
#[derive(Default)]
pub(super) struct Consts(HashMap<String, Vec<Option<Vec<u8>>>>);

impl Consts {
    /// The definitions in `toks` (`const NAME: T = VALUE;`, `static`).
    pub(super) fn of(text: &str, toks: &[Tok]) -> Consts {
        let word = |i: usize| toks.get(i).map(|t| &text[t.start as usize..t.end as usize]);
        let mut out: HashMap<String, Vec<Option<Vec<u8>>>> = HashMap::new();
        for i in 0..toks.len() {
            if !matches!(word(i), Some("const" | "static")) || toks[i].kind != Kind::Ident {
                continue;
            }
            let mut k = i + 1;
            if word(k) == Some("mut") {
                k += 1;
            }
            let Some(name) = word(k).filter(|_| toks[k].kind == Kind::Ident) else {
                continue;
            };
            if !toks.get(k + 1).is_some_and(|t| is_punct(*t, b':')) {
                continue;
            }
            // The value: after the first `=` at this level, up to `;`.
            let mut v = k + 2;
            while v < toks.len() && !is_punct(toks[v], b'=') && !is_punct(toks[v], b';') {
                v = if toks[v].kind == Kind::Open {
                    toks[v].partner as usize + 1
                } else {
                    v + 1
                };
            }
            if !toks.get(v).is_some_and(|t| is_punct(*t, b'=')) {
                continue;
            }
            let mut end = v + 1;
            while end < toks.len() && !is_punct(toks[end], b';') {
                end = if toks[end].kind == Kind::Open {
                    toks[end].partner as usize + 1
                } else {
                    end + 1
                };
            }
            let value: Vec<&Tok> = toks[v + 1..end.min(toks.len())]
                .iter()
                .skip_while(|t| is_punct(**t, b'&'))
                .collect();
            let known = match value.as_slice() {
                [t] if t.kind == Kind::Str => {
                    match literal_value(&text.as_bytes()[t.start as usize..t.end as usize]) {
                        Some(v) => Some(Some(v)),
                        None => Some(None),
                    }
                }
                // A path: an alias the crate pass follows.
                path if !path.is_empty()
                    && path
                        .iter()
                        .all(|t| t.kind == Kind::Ident || is_punct(**t, b':')) =>
                {
                    Some(None)
                }
                [t, bang, ..]
                    if t.kind == Kind::Ident
                        && &text[t.start as usize..t.end as usize] == "concat"
                        && is_punct(**bang, b'!') =>
                {
                    Some(None)
                }
                _ => None,
            };
            if let Some(known) = known {
                out.entry(name.to_string()).or_default().push(known);
            } else {
                out.entry(name.to_string()).or_default();
            }
        }
        Consts(out)
    }

    /// Whether the constant `name` may hold a string one of `rules` rules out.
    fn may_be_ruled_out<'r>(
        &self,
        name: &str,
        rules: impl Iterator<Item = &'r Rule> + Clone,
    ) -> bool {
        match self.0.get(name) {
            // Not defined here: its value is elsewhere.
            None => true,
            Some(defs) => defs.iter().any(|d| match d {
                None => true,
                Some(value) => rules.clone().any(|r| r.rules_out(value)),
            }),
        }
    }
}

/// Why a text with a normalizer call needs the parse.
pub(super) const COMPARED: Bail = "a normalized string compared with what it may not be";

/// Why a function folding the case of a string it gives needs the parse.
pub(super) const NORMALIZER: Bail = "a function giving a string whose case it folds";

/// What one normalizer call rules out of its output.
enum Rule {
    Upper,
    Lower,
    Whitespace,
    Removed(Vec<u8>),
}

impl Rule {
    /// Whether a value so normalized can never be, start with, end with or
    /// contain `literal` for this rule (wider than `Normalized::excludes`:
    /// any edge, any replacement).
    fn rules_out(&self, literal: &[u8]) -> bool {
        let blank_edge =
            |s: &str| s.starts_with(char::is_whitespace) || s.ends_with(char::is_whitespace);
        match self {
            Rule::Upper => literal.iter().any(u8::is_ascii_uppercase),
            Rule::Lower => literal.iter().any(u8::is_ascii_lowercase),
            Rule::Whitespace => std::str::from_utf8(literal).map_or(true, blank_edge),
            Rule::Removed(from) => {
                !from.is_empty() && literal.windows(from.len()).any(|w| w == from.as_slice())
            }
        }
    }
}

/// What hands its argument or receiver on unchanged, so that what it
/// makes is the operand (`Some("x")`, `String::from("x")`, `"x".to_string()`):
/// the walker's own lists (`analysis::values::peel`).
fn conversion(name: &str) -> bool {
    crate::analysis::values::CONVERSION_CALLS.contains(&name)
        || crate::analysis::values::SAME_STRING_METHODS.contains(&name)
}

/// Macros whose every argument is read as a list's element or a piece of
/// one literal (`vec!["x"]`, `concat!("a", "b")`).
const LIST_MACROS: &[&str] = &["vec", "concat"];

/// The file a function's body is checked in: its constants, read from its
/// tokens when a body first asks.
pub(super) struct FileConsts<'a> {
    pub text: &'a str,
    pub toks: &'a [Tok],
    pub consts: &'a std::cell::OnceCell<Consts>,
}

impl FileConsts<'_> {
    fn get(&self) -> &Consts {
        self.consts.get_or_init(|| Consts::of(self.text, self.toks))
    }
}

/// Why `text` (already lexed by the caller, who found the normalizer calls
/// at `calls`) needs the parse, if it does: it compares a string one of them
/// may rule out (a text the lexer reads differently, or a literal it does
/// not decode, counts as one), or a function giving a string folds its case.
/// `file`: the file `text` is a part of (`text` is a whole file when
/// `None`).
pub(super) fn compared_ruled_out(
    text: &str,
    calls: &[(usize, usize)],
    file: Option<&FileConsts<'_>>,
) -> Option<Bail> {
    let mut lexed = lexer::Lexed::default();
    if lexer::lex::<true>(text, &UNWATCHED, &mut lexed).is_err() {
        return Some(COMPARED);
    }
    let toks = &lexed.toks;
    let word = |i: usize| toks.get(i).map(|t| &text[t.start as usize..t.end as usize]);
    let (region, gives_string) = regions(text, toks);
    // The rules of each function (by its region), in the order met.
    let mut rules: Vec<(u32, Rule)> = Vec::with_capacity(calls.len());
    for &(start, _) in calls {
        let Ok(i) = toks.binary_search_by_key(&(start as u32), |t| t.start) else {
            return Some(COMPARED);
        };
        let rule = match word(i) {
            Some("to_lowercase" | "to_ascii_lowercase") => Rule::Upper,
            Some("to_uppercase" | "to_ascii_uppercase") => Rule::Lower,
            Some("trim") => Rule::Whitespace,
            Some("replace") => match toks.get(i + 2) {
                Some(t) if matches!(t.kind, Kind::Str | Kind::Lit) => {
                    match literal_value(&text.as_bytes()[t.start as usize..t.end as usize]) {
                        Some(from) => Rule::Removed(from),
                        None => return Some(COMPARED),
                    }
                }
                // `.replace(FROM, ..)`: the walker reads no shape of it.
                _ => continue,
            },
            _ => return Some(COMPARED),
        };
        rules.push((region[i], rule));
    }
    // A case folded in a function giving a string: it may be a normalizer
    // (`analysis::extract::normalizers`), whatever it compares.
    if (rules.iter()).any(|(r, rule)| {
        matches!(rule, Rule::Upper | Rule::Lower) && gives_string.binary_search(r).is_ok()
    }) {
        return Some(NORMALIZER);
    }
    rules.sort_by_key(|&(r, _)| r);
    let rules_of = |i: usize| {
        let r = region[i];
        let from = rules.partition_point(|&(q, _)| q < r);
        let to = rules.partition_point(|&(q, _)| q <= r);
        rules[from..to].iter().map(|(_, rule)| rule)
    };
    if rules.is_empty() {
        return None;
    }
    let own = std::cell::OnceCell::new();
    let own = FileConsts {
        text,
        toks,
        consts: &own,
    };
    let file = file.unwrap_or(&own);
    let within = enclosing(toks);
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        match t.kind {
            // A literal of a function calling a normalizer: what it holds
            // first, where it stands then.
            Kind::Str if rules_of(i).next().is_some() => {
                let Some(value) = literal_value(&text.as_bytes()[t.start as usize..t.end as usize])
                else {
                    return Some(COMPARED);
                };
                if (in_concat(text, toks, &within, i) || rules_of(i).any(|r| r.rules_out(&value)))
                    && compared(text, toks, &within, i, i)
                {
                    return Some(COMPARED);
                }
            }
            Kind::Ident
                if rules_of(i).next().is_some()
                    && crate::analysis::values::names_a_constant(word(i).unwrap_or("")) =>
            {
                let after_dot = i > 0 && is_punct(toks[i - 1], b'.');
                let called = toks.get(i + 1).is_some_and(|n| {
                    matches!(n.kind, Kind::Open if n.byte == b'(')
                        || is_punct(*n, b'!')
                        || (is_punct(*n, b':')
                            && toks.get(i + 2).is_some_and(|m| is_punct(*m, b':')))
                });
                if !after_dot
                    && !called
                    && file
                        .get()
                        .may_be_ruled_out(word(i).unwrap_or(""), rules_of(i))
                {
                    // Back to the path's first segment (`consts::CUDA`, `Self::NAME`).
                    let first = path_start(toks, i);
                    // The standard library's: no value the crate pass knows.
                    let std = matches!(word(first), Some("std" | "core" | "alloc")) && first < i;
                    if !std && compared(text, toks, &within, first, i) {
                        return Some(COMPARED);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// For each token, the function whose body it is in, innermost (the index
/// of the body's `{`), or `u32::MAX` outside every function: the walker
/// follows a normalized value through the locals of one function, closures
/// included, never into a nested `fn`.
///
/// Also the bodies (their `{`, in order) of the functions whose return type
/// names a string ([`gives_string`]).
fn regions(text: &str, toks: &[Tok]) -> (Vec<u32>, Vec<u32>) {
    let is_word = |i: usize, w: &str| {
        toks.get(i)
            .is_some_and(|t| t.kind == Kind::Ident && &text[t.start as usize..t.end as usize] == w)
    };
    let mut out = Vec::with_capacity(toks.len());
    let mut strings = Vec::new();
    // Bodies open around the token: (their `{`, their `}`).
    let mut open: Vec<(u32, u32)> = Vec::new();
    // The body of the `fn` met last, not yet entered.
    let mut next: Option<(usize, usize)> = None;
    for i in 0..toks.len() {
        while open.last().is_some_and(|&(_, close)| (close as usize) < i) {
            open.pop();
        }
        if next.is_some_and(|(o, _)| o == i) {
            let (o, c) = next.take().unwrap_or_default();
            open.push((o as u32, c as u32));
        }
        out.push(open.last().map_or(u32::MAX, |&(o, _)| o));
        // `fn name`: not a pointer type's `fn(..)`.
        if is_word(i, "fn") && toks.get(i + 1).is_some_and(|n| n.kind == Kind::Ident) {
            let body = super::bodies::body(toks, i + 2);
            if let Some((o, _)) = body
                && gives_string(text, toks, i + 2, o)
            {
                strings.push(o as u32);
            }
            next = body.or(next);
        }
    }
    (out, strings)
}

/// Whether the signature `toks[from..open]` (past `fn name`) returns a
/// type naming a string.
pub(super) fn gives_string(text: &str, toks: &[Tok], from: usize, open: usize) -> bool {
    let word = |k: usize| {
        Some(toks[k])
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| &text[t.start as usize..t.end as usize])
    };
    let arrow = (from..open.saturating_sub(1))
        .find(|&k| is_punct(toks[k], b'-') && is_punct(toks[k + 1], b'>'));
    arrow.is_some_and(|a| (a + 2..open).any(|k| matches!(word(k), Some("String" | "str" | "Cow"))))
}

/// The first segment of the path whose last is the token `i` (`a::b::i`).
fn path_start(toks: &[Tok], i: usize) -> usize {
    let mut first = i;
    while first >= 3
        && is_punct(toks[first - 1], b':')
        && is_punct(toks[first - 2], b':')
        && toks[first - 3].kind == Kind::Ident
    {
        first -= 3;
    }
    first
}

fn is_punct(t: Tok, byte: u8) -> bool {
    t.kind == Kind::Punct && t.byte == byte
}

/// For each token, the index of the innermost bracket open around it
/// (`u32::MAX`: none).
fn enclosing(toks: &[Tok]) -> Vec<u32> {
    let mut open: Vec<u32> = Vec::new();
    let mut out = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().enumerate() {
        if t.kind == Kind::Close {
            open.pop();
        }
        out.push(open.last().copied().unwrap_or(u32::MAX));
        if t.kind == Kind::Open {
            open.push(i as u32);
        }
    }
    out
}

/// Whether the operand `first..=last` (a literal, or a path) stands where
/// the walker reads a side of a comparison: next to `==` or `!=`, in a
/// pattern (`"x" =>`, `"x" | "y"`, `"x" if`, `if let "x" =`), an element
/// of a list (`["x"]`), an argument of a comparing or unchanging call or
/// macro, or the receiver of such a method; parentheses are looked
/// through (`("x")`, a tuple).
fn compared(text: &str, toks: &[Tok], within: &[u32], first: usize, last: usize) -> bool {
    let word = |i: usize| toks.get(i).map(|t| &text[t.start as usize..t.end as usize]);
    let punct = |i: Option<usize>, byte: u8| {
        i.and_then(|i| toks.get(i))
            .is_some_and(|t| is_punct(*t, byte))
    };
    // Before it, past `&` and `*`.
    let mut p = first.checked_sub(1);
    while let Some(k) = p
        && (is_punct(toks[k], b'&') || is_punct(toks[k], b'*'))
    {
        p = k.checked_sub(1);
    }
    let prev2 = p.and_then(|k| k.checked_sub(1));
    if punct(p, b'=') && (punct(prev2, b'=') || punct(prev2, b'!')) {
        return true;
    }
    // An or-pattern: `"a" | "b"`, `Some("a") | "b"` (not a closure's `|x| "a"`).
    if punct(p, b'|')
        && prev2.is_some_and(|k| {
            let t = toks[k];
            t.kind == Kind::Str
                || (t.kind == Kind::Close && t.byte == b')')
                || (t.kind == Kind::Ident
                    && crate::analysis::values::names_a_constant(word(k).unwrap_or("")))
        })
    {
        return true;
    }
    let n = last + 1;
    if punct(Some(n), b'.') {
        // `"x".eq(&s)`; `"x".to_string() == s` (the call is the operand);
        // `NAME.len()`, `DATA.lines()`: no operand.
        let method = word(n + 1).unwrap_or("");
        if crate::analysis::extract::compares_with_argument(method) {
            return true;
        }
        return conversion(method)
            && toks
                .get(n + 2)
                .filter(|t| t.kind == Kind::Open && t.byte == b'(')
                .is_some_and(|t| compared(text, toks, within, first, t.partner as usize));
    }
    if punct(Some(n), b'=') {
        // `==`, `=>` or `if let "x" = s`; not `!=`'s own `=`.
        return true;
    }
    if punct(Some(n), b'!') && punct(Some(n + 1), b'=') {
        return true;
    }
    if punct(Some(n), b'|') && !punct(Some(n + 1), b'|') {
        return true;
    }
    if word(n) == Some("if") {
        return true;
    }
    let open = within[first];
    if open == u32::MAX {
        return false;
    }
    let open = open as usize;
    let o = toks[open];
    let before = open.checked_sub(1);
    if punct(before, b'!') {
        let name = before
            .and_then(|b| b.checked_sub(1))
            .and_then(word)
            .unwrap_or("");
        if LIST_MACROS.contains(&name) {
            return true;
        }
        // Its first two arguments: no top-level comma before, or one.
        if !crate::analysis::extract::compares_macro_arguments(name) {
            return false;
        }
        let (mut k, mut commas) = (open + 1, 0);
        while k < first && commas < 2 {
            let t = toks[k];
            commas += usize::from(is_punct(t, b','));
            // Over a group: what it holds is not an argument of this call.
            k = if t.kind == Kind::Open {
                t.partner as usize + 1
            } else {
                k + 1
            };
        }
        return commas < 2;
    }
    match o.byte {
        b'[' => true,
        b'(' => match before.map(|b| toks[b]) {
            Some(t) if t.kind == Kind::Ident => {
                let name = word(before.unwrap_or(0)).unwrap_or("");
                if crate::analysis::extract::compares_with_argument(name) {
                    return true;
                }
                // `Some("x")`, `String::from("x")`: the call is the operand.
                conversion(name)
                    && compared(
                        text,
                        toks,
                        within,
                        path_start(toks, before.unwrap_or(0)),
                        o.partner as usize,
                    )
            }
            // `Vec::<&str>::from(..)` is read above; a generic's `>(`: no call the walker peels.
            Some(t) if is_punct(t, b'>') => false,
            _ => compared(text, toks, within, open, o.partner as usize),
        },
        _ => false,
    }
}

/// Whether the token `i` is an argument of `concat!(..)`: its value is a
/// piece of the literal the walker reads (`concat!("dar", "win")`).
fn in_concat(text: &str, toks: &[Tok], within: &[u32], i: usize) -> bool {
    let open = within[i];
    if open == u32::MAX || open < 2 {
        return false;
    }
    let open = open as usize;
    is_punct(toks[open - 1], b'!')
        && toks[open - 2].kind == Kind::Ident
        && &text[toks[open - 2].start as usize..toks[open - 2].end as usize] == "concat"
}

/// The value of a string or character literal as written (`"a"`,
/// `r#"a"#`, `'a'`, `'\n'`); `None` for one the prefilter does not read.
fn literal_value(s: &[u8]) -> Option<Vec<u8>> {
    match s {
        [b'\'', body @ .., b'\''] => lexer::unescape(body, lexer::Quoted::Str),
        [b'"', ..] | [b'r', ..] => lexer::str_value(s).ok(),
        _ => None,
    }
}
