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
use super::{UNWATCHED, lex_checked_within, lex_within};
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
/// `once`: the static once cells the file sets (`HOOK.set(..)`): a body
/// setting one stays, as does one calling a singleton's mechanism on a
/// static (`STATE.compare_exchange(..)`).
pub(super) fn blanked(text: &str, vocab: &Vocabulary, once: &[String]) -> Option<String> {
    let mut lexed = lexer::Lexed::default();
    lex_within::<true>(text, &UNWATCHED, &mut lexed).ok()?;
    let toks = &lexed.toks;
    let keywords = super::items::item_keywords(text, toks);
    let word = |i: usize| word_at(text, toks, i);
    let mut scratch = lexer::Lexed::default();
    // The file's constants, for the bodies that compare a normalized value.
    let consts = std::cell::OnceCell::new();
    let file = super::normalized::FileConsts {
        text,
        toks,
        consts: &consts,
    };
    let mut blank: Vec<(usize, usize)> = Vec::new();
    // A body that stays is lexed again for each function nested in it: at
    // most twice the file in all, or deep nesting would make it quadratic.
    let mut budget = 2 * text.len();
    let mut i = 0;
    while i < toks.len() {
        // A macro's tokens stay whole (`quote! { .. }`, `m! { .. }`, a
        // `macro_rules!` definition): the walker parses them as items or
        // expressions where they parse, and a body blanked inside may
        // make tokens parse that did not (`#(#attrs)*` in a quoted body).
        if let Some(close) = macro_tokens(text, toks, i) {
            i = close + 1;
            continue;
        }
        // A registration's own body stays: what it does with a second key
        // decides its calls (`analysis::extract::summary`).
        // A `fmt` stays too: a `Display` writing `self.code()` takes that
        // method's value set (`analysis::extract::value_sets`), a body
        // naming no literal.
        let named =
            |w: &str| w == "fmt" || vocab.has(crate::config::Names::RegistrationFunctions, w);
        let Some((open, close)) = (word(i) == Some("fn") && word(i + 1).is_some_and(|w| !named(w)))
            .then(|| body(toks, i + 2))
            .flatten()
        else {
            i += 1;
            continue;
        };
        let item_ends = item_ends(text, toks, close);
        let (start, end) = (toks[open].start as usize, toks[close].end as usize);
        let holds_items = {
            let first = keywords.partition_point(|&k| (k as usize) < open);
            keywords.get(first).is_some_and(|&k| (k as usize) < close)
        };
        if item_ends && !holds_items && !sets_self_state(text, toks, open, close) {
            let body_text = &text[start..end];
            let Some(left) = budget.checked_sub(body_text.len()) else {
                break;
            };
            budget = left;
            let sets_once = (once.iter())
                .any(|name| crate::analysis::extract::sets_static(body_text, name))
                || crate::analysis::extract::static_mechanism(body_text);
            // A function giving a string it folds the case of may be a
            // normalizer (`super::normalized::gives_string`).
            let normalizes = (body_text.contains("lowercase") || body_text.contains("uppercase"))
                && super::normalized::gives_string(text, toks, i + 2, open);
            if !sets_once
                && !normalizes
                && lex_checked_within(body_text, Some(&file), vocab, &mut scratch, false).is_ok()
            {
                blank.push((start + 1, end - 1));
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    doc_comments(text, toks, &mut blank);
    blank_out(text, &blank)
}

/// `text` (already `parseable_text`) with the inside of every function's
/// body blanked, a macro's tokens whole (an item's doc comments stay: they
/// are part of where it stands):
/// what an item tree reads (`semantic::item_tree` records items and
/// signatures, never a statement), at a fraction of the parse. `None` when
/// there is nothing to blank or the lexer does not read the file.
pub(super) fn fn_bodies_blanked(text: &str) -> Option<String> {
    let mut lexed = lexer::Lexed::default();
    lex_within::<true>(text, &UNWATCHED, &mut lexed).ok()?;
    let toks = &lexed.toks;
    let word = |i: usize| word_at(text, toks, i);
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some(close) = macro_tokens(text, toks, i) {
            i = close + 1;
            continue;
        }
        let Some((open, close)) = (word(i) == Some("fn") && word(i + 1).is_some())
            .then(|| body(toks, i + 2))
            .flatten()
        else {
            i += 1;
            continue;
        };
        if item_ends(text, toks, close) {
            let (start, end) = (toks[open].start as usize, toks[close].end as usize);
            blank.push((start + 1, end - 1));
            i = close + 1;
            continue;
        }
        i += 1;
    }
    blank_out(text, &blank)
}

/// Whether what follows the braces closing at token `close` ends an item:
/// the end of the file or of the enclosing braces, an attribute, an item's
/// keyword, or a macro called where items stand (`m! { .. }`). That makes
/// the braces surely a function's body, not a const argument of its return
/// type (`-> Foo<{ N }> { .. }`).
fn item_ends(text: &str, toks: &[Tok], close: usize) -> bool {
    match toks.get(close + 1) {
        None => true,
        Some(t) if t.kind == Kind::Close => true,
        Some(t) if t.kind == Kind::Punct => t.byte == b'#',
        Some(_) => word_at(text, toks, close + 1).is_some_and(|w| {
            AFTER_ITEM.contains(&w)
                || toks
                    .get(close + 2)
                    .is_some_and(|t| t.kind == Kind::Punct && t.byte == b'!')
        }),
    }
}

/// `text` with the ranges `blank` (each a whole comment or the inside of a
/// pair of braces: whole characters) replaced by blanks, line breaks kept;
/// `None` when there is nothing to blank.
pub(super) fn blank_out(text: &str, blank: &[(usize, usize)]) -> Option<String> {
    if blank.is_empty() {
        return None;
    }
    let mut out = text.as_bytes().to_vec();
    for &(start, end) in blank {
        for c in &mut out[start..end] {
            if !matches!(*c, b'\n' | b'\r') {
                *c = b' ';
            }
        }
    }
    String::from_utf8(out).ok()
}

/// `blank` with the outer doc comments written before an item (`/// ..`,
/// `/** .. */`, the next token past the attributes one that starts an item:
/// [`starts_item`]), past the file's first item: proc-macro2 makes each a
/// `#[doc = ".."]` attribute, escaping it character by character, and the
/// walker reads no attribute of that kind; on the documented crates that
/// are parsed in full they are half of the text left (hashbrown's `map.rs`,
/// regex-automata's `dense.rs`). Not the first item's, whose start is where
/// a fix adds a `use`; not a statement's (its span is a removal's).
fn doc_comments(text: &str, toks: &[Tok], blank: &mut Vec<(usize, usize)>) {
    let b = text.as_bytes();
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
        (toks.get(k)).is_some_and(|t| t.kind == Kind::Ident && starts_item(text, t.start as usize))
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
                if is_outer_doc(&rest[..end - j]) {
                    blank.push((j, end));
                }
                j = end;
            } else if rest.starts_with(b"/*") {
                let Some(end) = crate::syntax::lex::block_comment_end(b, j) else {
                    break;
                };
                if is_outer_doc(&b[j..end]) {
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

/// The doc comments of items in `text`, read from the comments the skim
/// passed over (`comments`, in order, each `start..end`): the rule of
/// [`doc_comments`], without tokens, and stricter. A run of comments (only
/// blanks between them) documents an item when the code right after it,
/// past its attributes (`#[..]`), starts one ([`starts_item`]); an
/// attribute followed by another run of comments (`/// a` `#[x]` `/// b`
/// `fn f`) documents what that run documents. The outer doc comments of
/// such runs are blanked (`///`, `/** */`; an inner one, `//!`, is only
/// right at the start of a file or module, and anywhere else syn rejects
/// it), except the first such run and all before it: the first item's
/// docs, whose start is where a fix adds a `use`, are at the latest that
/// run. Each byte is read once or twice: 100,000 doc lines cost no more
/// than their length.
pub(super) fn item_doc_comments(text: &str, comments: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (k, &(start, _)) in comments.iter().enumerate() {
        match runs.last_mut() {
            Some(run)
                if b[comments[run.1].1..start]
                    .iter()
                    .all(u8::is_ascii_whitespace) =>
            {
                run.1 = k
            }
            _ => runs.push((k, k)),
        }
    }
    // From the last run back: what follows a run may be the next run.
    let starts: Vec<usize> = runs.iter().map(|&(first, _)| comments[first].0).collect();
    let mut documents_item = vec![false; runs.len()];
    for r in (0..runs.len()).rev() {
        let after = comments[runs[r].1].1;
        documents_item[r] = match past_attributes(text, past_blanks(b, after)) {
            Some(at) if b[at..].starts_with(b"//") || b[at..].starts_with(b"/*") => {
                (starts.binary_search(&at)).is_ok_and(|later| later > r && documents_item[later])
            }
            Some(at) => starts_item(text, at),
            None => false,
        };
    }
    let mut out = Vec::new();
    let first = documents_item.iter().position(|&d| d);
    for (r, &(a, z)) in runs.iter().enumerate() {
        if documents_item[r] && first.is_some_and(|f| r > f) {
            out.extend((comments[a..=z].iter()).filter(|&&(s, e)| is_outer_doc(&b[s..e])));
        }
    }
    out
}

/// Whether a comment (from its `//` or `/*`) is an outer doc comment:
/// `/// ..` (not `////`), `/** .. */` (not `/***`, not `/**/`). An inner
/// one (`//!`, `/*!`) is the module's, and stays.
fn is_outer_doc(c: &[u8]) -> bool {
    (c.starts_with(b"///") && !c.starts_with(b"////"))
        || (c.starts_with(b"/**") && !c.starts_with(b"/***") && c != b"/**/")
}

/// Whether the code at `at` starts an item: one of [`AFTER_ITEM`]'s words,
/// and for those that may also begin a statement (`unsafe {`, `async
/// move`, `const {`, `static ||`, `default.x`, `union.x`, a variable
/// `macro_rules`), the rest of an item after it: a name or keyword (`!` for
/// `macro_rules`). A statement's docs stay: its span is a removal's.
pub(super) fn starts_item(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let word_end = |i: usize| {
        i + (b[i..].iter())
            .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
            .count()
    };
    let end = word_end(at);
    // A name going on past ASCII (`fné`) is no keyword.
    if b.get(end).is_some_and(|&c| c >= 0x80) || !AFTER_ITEM.contains(&&text[at..end]) {
        return false;
    }
    let next = past_blanks(b, end);
    let next_word = &b[next..word_end(next)];
    match &text[at..end] {
        "unsafe" | "async" | "const" | "static" | "default" | "union" => {
            !next_word.is_empty() && next_word != b"move" && !next_word[0].is_ascii_digit()
        }
        "macro_rules" => b.get(next) == Some(&b'!'),
        _ => true,
    }
}

/// Past the blanks from `i`.
fn past_blanks(b: &[u8], i: usize) -> usize {
    i + b[i..]
        .iter()
        .take_while(|c| c.is_ascii_whitespace())
        .count()
}

/// Past the outer attributes (`#[..]`) that start at `i` and the blanks
/// after each: where the item (or statement) they are on starts, or a
/// comment. `None` when an attribute is not read to its end here.
fn past_attributes(text: &str, mut i: usize) -> Option<usize> {
    let b = text.as_bytes();
    while b.get(i) == Some(&b'#') {
        let open = past_blanks(b, i + 1);
        if b.get(open) != Some(&b'[') {
            break;
        }
        i = past_blanks(b, group_end(text, open)?);
    }
    Some(i)
}

/// The offset right after the bracket that closes the one at `open`,
/// past the literals and comments inside (whose brackets do not count,
/// read by `syntax::lex::scan_from`); `None` when it is not closed.
fn group_end(text: &str, open: usize) -> Option<usize> {
    use crate::syntax::lex::{Event, scan_from};
    use std::ops::ControlFlow;
    let b = text.as_bytes();
    let (mut depth, mut end) = (0usize, None);
    scan_from(text, open, |event| {
        if let Event::Code(i) = event {
            match b[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i + 1);
                        return ControlFlow::Break(());
                    }
                }
                _ => {}
            }
        }
        ControlFlow::Continue(())
    });
    end
}

/// The identifier at token `i`, if it is one.
/// Whether the tokens between `open` and `close` set a state of `self`
/// as the walker records it (`registry::Registrations::state_write*`):
/// `self.x = true`, `self.x = Some(..)`, `self.x.store(true, ..)`,
/// `self.x.set(..)`. A method that does is an initialization when a
/// registration of its type rejects once the state is set.
fn sets_self_state(text: &str, toks: &[Tok], open: usize, close: usize) -> bool {
    let punct = |i: usize, b: u8| {
        toks.get(i)
            .is_some_and(|t| t.kind == Kind::Punct && t.byte == b)
    };
    let word = |i: usize| word_at(text, toks, i);
    (open + 1..close).any(|k| {
        word(k) == Some("self")
            && punct(k + 1, b'.')
            && word(k + 2).is_some()
            && ((punct(k + 3, b'=') && matches!(word(k + 4), Some("true" | "Some")))
                || (punct(k + 3, b'.')
                    && match word(k + 4) {
                        Some("set") => true,
                        Some("store") => word(k + 6) == Some("true"),
                        _ => false,
                    }))
    })
}

fn word_at<'t>(text: &'t str, toks: &[Tok], i: usize) -> Option<&'t str> {
    toks.get(i)
        .filter(|t| t.kind == Kind::Ident)
        .map(|t| &text[t.start as usize..t.end as usize])
}

/// The body of the function whose signature starts at token `i`: the
/// indexes of its braces; `None` when it has none (`fn f();`).
/// The closing token of the macro call or `macro_rules!` definition whose
/// name is the word at `i` (`name ! (..)`, `macro_rules ! name { .. }`).
fn macro_tokens(text: &str, toks: &[Tok], i: usize) -> Option<usize> {
    let bang = |j: usize| {
        toks.get(j)
            .is_some_and(|t| t.kind == Kind::Punct && t.byte == b'!')
    };
    let open = |j: usize| toks.get(j).filter(|t| t.kind == Kind::Open);
    let name = word_at(text, toks, i)?;
    if !bang(i + 1) {
        return None;
    }
    let group = match name {
        "macro_rules" => word_at(text, toks, i + 2).and_then(|_| open(i + 3)),
        _ => open(i + 2),
    }?;
    Some(group.partner as usize)
}

pub(super) fn body(toks: &[Tok], mut i: usize) -> Option<(usize, usize)> {
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

#[cfg(test)]
mod tests {
    use super::super::{UNWATCHED, lexer};
    use super::item_doc_comments;

    /// The doc comments left out of `text`, by their text; `None` without
    /// the skim (no AVX2).
    fn left_out(text: &str) -> Option<Vec<&str>> {
        let mut comments = Vec::new();
        let skimmed =
            lexer::skim_comments(text, &UNWATCHED, 100, 100, |s, e| comments.push((s, e)));
        assert_eq!(skimmed?, Ok(()), "{text}");
        let docs = item_doc_comments(text, &comments);
        Some(docs.iter().map(|&(s, e)| &text[s..e]).collect())
    }

    #[test]
    fn item_docs_are_left_out_past_the_first_item() {
        let text = r##"//! The crate.
#![allow(x)]
/// First item: kept.
use a::b;
/// A function.
/// Two lines, /** a nested comment */ in one run.
#[inline]
#[doc(alias = "]")] // a comment
#[cfg(feature = r#"x]"#)]
pub fn f() {
    /// On a statement: kept.
    let x = 1;
    /// On an attributed statement: kept.
    #[allow(unused)]
    let y = '[';
    //// Four slashes: no doc.
    /** A block doc. */
    struct S;
    /*! An inner block doc: syn takes it for the block's. */
    /**/
    fn g() {}
    /// On an unsafe block: kept.
    unsafe { h() };
    /// On a statement of a variable named `default`: kept.
    default.register("cuda");
}
/// On a macro call: kept.
m! {}
/// A run, then an attribute,
#[inline]
/// then another run: both the function's.
fn k() {}
"##;
        let Some(out) = left_out(text) else {
            return;
        };
        assert_eq!(
            out,
            [
                "/// A function.",
                "/// Two lines, /** a nested comment */ in one run.",
                "/** A block doc. */",
                "/// A run, then an attribute,",
                "/// then another run: both the function's.",
            ]
        );
        // An attribute not read to its end (the file does not parse)
        // keeps its docs.
        let text = "fn a() {}\n/// Doc.\nfn b() {}\n/// Doc.\n#[x(\"]\")\nfn f() {}\n";
        let docs: Vec<(usize, usize)> = text
            .match_indices("/// Doc.")
            .map(|(at, d)| (at, at + d.len()))
            .collect();
        assert_eq!(item_doc_comments(text, &docs[..1]), []);
        assert_eq!(item_doc_comments(text, &docs), []);
        // The same, closed: left out.
        let closed = text.replace("\"]\")", "\"]\")]");
        assert_eq!(item_doc_comments(&closed, &docs), [docs[1]]);
    }
}
