//! Function bodies that hold nothing the walker records, blanked out before
//! a file is parsed in full.
//!
//! A file is parsed in full when its code names the vocabulary somewhere:
//! often in one test among hundreds of functions (`lower(` in
//! regex-syntax's 220 KB parser). The walker records a registration,
//! comparison or lowering only where such a name or a canonical literal
//! stands (see the [module documentation](super)), so a body whose text the
//! lexer reads with nothing to watch for yields none; and it records the
//! structure inside a body (`use`, `const`, `struct` ...) only from an item
//! keyword ([`super::items::item_keywords`]). A body with neither is
//! replaced by blanks (line breaks kept, so every offset, line and column
//! of the rest is the file's), and syn parses what is left.
//!
//! What changes is only what a blanked body held:
//! - its unregistrations (`remove`, `take`, `unregister*`: no vocabulary
//!   stems), which count only between two registrations of their own
//!   function (`duplicate_registration::unregistered_between`), and a
//!   blanked body has none;
//! - its closures, blocks and registries made there, whose numbers
//!   (of function body scopes, branches, registries made in a function)
//!   shift those of later bodies without changing what they tell apart;
//! - a syntax error there is not seen, as with the structure reader
//!   (`--no-prefilter` reports it).
//!
//! `tests/prefilter.rs` holds the facts of every fixture, runtime and
//! registry file parsed this way to those of the whole file.
//!
//! Checking a body lexes it again, and a body that stays is lexed again for
//! each function nested in it: past twice the file's size in all, the rest
//! of the bodies stay, so deep nesting costs no more than that.

use super::lexer::{self, Kind, Tok};
use super::{UNWATCHED, lex_checked, lex_within};
use crate::config::Vocabulary;

/// Words that may follow a function's body at the level of items (or the
/// end of the enclosing braces): what makes its first `{` group surely its
/// body, not a const argument of its return type (`-> Foo<{ N }> { .. }`).
const AFTER_ITEM: &[&str] = &[
    "pub",
    "fn",
    "const",
    "async",
    "unsafe",
    "extern",
    "impl",
    "struct",
    "enum",
    "union",
    "trait",
    "type",
    "use",
    "mod",
    "static",
    "macro_rules",
    "default",
];

/// `text` (already `parseable_text`) with the bodies of its functions that
/// hold nothing the walker records blanked; `None` when there is none, or
/// when the lexer does not read the file or it may nest deeper than the
/// parser accepts (the full parse then says why).
pub(super) fn blanked(text: &str, vocab: &Vocabulary) -> Option<String> {
    let mut lexed = lexer::Lexed::default();
    lex_within::<true>(text, &UNWATCHED, &mut lexed).ok()?;
    let toks = &lexed.toks;
    let keywords = super::items::item_keywords(text, toks);
    let word = |i: usize| word_at(text, toks, i);
    let mut scratch = lexer::Lexed::default();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    // A body that stays is lexed again for each function nested in it: at
    // most twice the file in all, or deep nesting would make it quadratic.
    let mut budget = 2 * text.len();
    let mut i = 0;
    while i < toks.len() {
        let Some((open, close)) = (word(i) == Some("fn") && word(i + 1).is_some())
            .then(|| body(toks, i + 2))
            .flatten()
        else {
            i += 1;
            continue;
        };
        let item_ends = match toks.get(close + 1) {
            None => true,
            Some(t) if t.kind == Kind::Close => true,
            Some(t) if t.kind == Kind::Punct => t.byte == b'#',
            // An item, or a macro called where items stand (`m! { .. }`).
            Some(_) => word(close + 1).is_some_and(|w| {
                AFTER_ITEM.contains(&w)
                    || toks
                        .get(close + 2)
                        .is_some_and(|t| t.kind == Kind::Punct && t.byte == b'!')
            }),
        };
        let (start, end) = (toks[open].start as usize, toks[close].end as usize);
        let holds_items = {
            let first = keywords.partition_point(|&k| (k as usize) < open);
            keywords.get(first).is_some_and(|&k| (k as usize) < close)
        };
        if item_ends && !holds_items {
            let body_text = &text[start..end];
            let Some(left) = budget.checked_sub(body_text.len()) else {
                break;
            };
            budget = left;
            if lex_checked(body_text, vocab, &mut scratch, false).is_ok() {
                blank.push((start + 1, end - 1));
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    doc_comments(text, toks, &mut blank);
    if blank.is_empty() {
        return None;
    }
    let mut out = text.as_bytes().to_vec();
    for (start, end) in blank {
        for c in &mut out[start..end] {
            if !matches!(*c, b'\n' | b'\r') {
                *c = b' ';
            }
        }
    }
    // Whole characters were blanked (between two ASCII braces).
    String::from_utf8(out).ok()
}

/// `blank` with the doc comments written before an item (`/// ..`, `//!`,
/// `/** .. */`, `/*! .. */`, the next token an item's keyword or an
/// attribute's `#`), past the file's first item: proc-macro2 makes each a
/// `#[doc = ".."]` attribute, escaping it character by character, and the
/// walker reads no attribute of that kind; on the documented crates that
/// are parsed in full they are half of the text left (hashbrown's `map.rs`,
/// regex-automata's `dense.rs`). Not the first item's, whose start is where
/// a fix adds a `use`; not a statement's (its span is a removal's).
fn doc_comments(text: &str, toks: &[Tok], blank: &mut Vec<(usize, usize)>) {
    let b = text.as_bytes();
    let word = |i: usize| word_at(text, toks, i);
    // The first item: past the inner attributes (`#![..]`).
    let mut first = 0;
    while toks
        .get(first)
        .is_some_and(|t| t.kind == Kind::Punct && t.byte == b'#')
        && toks
            .get(first + 1)
            .is_some_and(|t| t.kind == Kind::Punct && t.byte == b'!')
        && let Some(open) = toks.get(first + 2).filter(|t| t.kind == Kind::Open)
    {
        first = open.partner as usize + 1;
    }
    let before = blank.len();
    // An item's keyword at token `k`, past its attributes (`#[..]`): a
    // statement's attributes are followed by no such word.
    let item_at = |mut k: usize| {
        while toks
            .get(k)
            .is_some_and(|t| t.kind == Kind::Punct && t.byte == b'#')
            && let Some(open) = toks
                .get(k + 1)
                .filter(|t| t.kind == Kind::Open && t.byte == b'[')
        {
            k = open.partner as usize + 1;
        }
        word(k).is_some_and(|w| AFTER_ITEM.contains(&w))
    };
    for k in first + 1..toks.len() {
        let next = &toks[k];
        let (mut j, gap_end) = (toks[k - 1].end as usize, next.start as usize);
        // Most gaps are a blank or two, with no comment.
        if gap_end - j < 3 || memchr::memchr(b'/', &b[j..gap_end]).is_none() || !item_at(k) {
            continue;
        }
        // Only blanks and comments lie between two tokens.
        while j < gap_end {
            let rest = &b[j..gap_end];
            if rest.starts_with(b"//") {
                let end = j + memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                let doc = (rest.starts_with(b"///") && !rest.starts_with(b"////"))
                    || rest.starts_with(b"//!");
                if doc {
                    blank.push((j, end));
                }
                j = end;
            } else if rest.starts_with(b"/*") {
                let Some(end) = crate::syntax::lex::block_comment_end(b, j) else {
                    break;
                };
                let body = &b[j..end];
                let doc =
                    (body.starts_with(b"/**") && !body.starts_with(b"/***") && body != b"/**/")
                        || body.starts_with(b"/*!");
                if doc {
                    blank.push((j, end));
                }
                j = end;
            } else {
                j += 1;
            }
        }
    }
    if blank.len() > before {
        blank.sort_unstable();
    }
}

/// The identifier at token `i`, if it is one.
fn word_at<'t>(text: &'t str, toks: &[Tok], i: usize) -> Option<&'t str> {
    toks.get(i)
        .filter(|t| t.kind == Kind::Ident)
        .map(|t| &text[t.start as usize..t.end as usize])
}

/// The body of the function whose signature starts at token `i`: the
/// indexes of its braces; `None` when it has none (`fn f();`).
fn body(toks: &[Tok], mut i: usize) -> Option<(usize, usize)> {
    while let Some(t) = toks.get(i) {
        match t.kind {
            Kind::Open if t.byte == b'{' => return Some((i, t.partner as usize)),
            Kind::Open => i = t.partner as usize + 1,
            Kind::Punct if t.byte == b';' => return None,
            Kind::Close => return None,
            _ => i += 1,
        }
    }
    None
}
