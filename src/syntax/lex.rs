//! A small scan of Rust source that tells code from comments, strings and
//! character literals, without parsing. Two things need it before (or beside)
//! syn: the bound on how deep a file nests ([`nesting`]), which protects the
//! parser's stack, and the suppression comments, which syn drops.

use std::ops::ControlFlow;

/// What the scan meets, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A byte of code (not in a comment or literal, not a word, not
    /// whitespace) at this offset: punctuation, or a byte of a non-ASCII
    /// character.
    Code(usize),
    /// An identifier, keyword or number (a run of ASCII letters, digits and
    /// `_`): `start..end`.
    Word(usize, usize),
    /// A string, byte string, raw string or character literal: `start..end`.
    Literal(usize, usize),
    /// A `//` comment (`///` and `//!` included): `start..end` is its text
    /// after the two slashes, without the line break.
    LineComment(usize, usize),
    /// A `/* .. */` comment, with what it nests: `start..end`, from its
    /// `/*` to its `*/` (or the end of the text). Its line breaks follow.
    BlockComment(usize, usize),
    /// A line break (also inside literals and block comments); lines count from 1.
    Newline,
}

/// Scan `text`, calling `on` for each event.
pub fn scan(text: &str, mut on: impl FnMut(Event)) {
    scan_from(text, 0, |event| {
        on(event);
        ControlFlow::Continue(())
    });
}

/// [`scan`] from offset `start` (which must not be inside a literal or a
/// comment), until `on` breaks.
pub fn scan_from(text: &str, start: usize, mut on: impl FnMut(Event) -> ControlFlow<()>) {
    let b = text.as_bytes();
    let mut i = start;
    let stop = std::cell::Cell::new(false);
    let mut emit = |event: Event| {
        if !stop.get() && on(event).is_break() {
            stop.set(true);
        }
    };
    // Newlines inside a skipped range.
    let newlines = |from: usize, to: usize, on: &mut dyn FnMut(Event)| {
        for _ in b[from..to.min(b.len())].iter().filter(|&&c| c == b'\n') {
            on(Event::Newline);
        }
    };
    while i < b.len() && !stop.get() {
        match b[i] {
            b'\n' => {
                emit(Event::Newline);
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                let text_end = if b[..end].ends_with(b"\r") {
                    end - 1
                } else {
                    end
                };
                emit(Event::LineComment(i + 2, text_end.max(i + 2)));
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i = block_comment_end(b, i).unwrap_or(b.len());
                emit(Event::BlockComment(start, i));
                newlines(start, i, &mut emit);
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                newlines(start, i, &mut emit);
                emit(Event::Literal(start, i));
            }
            b'\'' => match char_literal_len(text, i) {
                Some(len) => {
                    emit(Event::Literal(i, i + len));
                    i += len;
                }
                // A lifetime or a label: `'a`.
                None => {
                    emit(Event::Code(i));
                    i += 1;
                }
            },
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                // A whole identifier, so that `br"..."` and `r#"..."#` are seen
                // at their start and `x"` never is.
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &b[start..i];
                let raw = match word {
                    b"r" | b"br" | b"cr" => raw_string_hashes(b, i),
                    _ => None,
                };
                if let Some(hashes) = raw {
                    let close: Vec<u8> = std::iter::once(b'"')
                        .chain(std::iter::repeat_n(b'#', hashes))
                        .collect();
                    let mut j = i + hashes + 1;
                    while j < b.len() && !b[j..].starts_with(&close) {
                        j += 1;
                    }
                    let end = (j + close.len()).min(b.len());
                    newlines(start, end, &mut emit);
                    emit(Event::Literal(start, end));
                    i = end;
                } else {
                    emit(Event::Word(start, i));
                }
            }
            b' ' | b'\t' | b'\r' => i += 1,
            _ => {
                emit(Event::Code(i));
                i += 1;
            }
        }
    }
}

/// The end of the (nested) block comment that opens at `i`, or `None`
/// when it is not closed.
pub(crate) fn block_comment_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return Some(i);
            }
        } else {
            i += memchr::memchr2(b'*', b'/', &b[i + 1..]).map_or(b.len() - i, |k| k + 1);
        }
    }
    None
}

/// After `r`/`br`/`cr` at `i`: `#*"` opens a raw string; the number of `#`.
fn raw_string_hashes(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    while b.get(j) == Some(&b'#') {
        j += 1;
    }
    (b.get(j) == Some(&b'"')).then_some(j - i)
}

/// The length of a character literal at `i` (`'a'`, `'\n'`, `'\''`,
/// `'\u{1F600}'`, `'é'`), or `None` for a lifetime or label (`'a`).
pub(crate) fn char_literal_len(text: &str, i: usize) -> Option<usize> {
    let rest = &text[i + 1..];
    if let Some(esc) = rest.strip_prefix('\\') {
        // The escaped character itself may be a quote: `'\''`.
        let escaped = esc.chars().next()?;
        let close = esc[escaped.len_utf8()..].find('\'')?;
        return Some(1 + 1 + escaped.len_utf8() + close + 1);
    }
    let c = rest.chars().next()?;
    rest[c.len_utf8()..]
        .starts_with('\'')
        .then_some(1 + c.len_utf8() + 1)
}

/// How deep parsing a file would recurse, estimated from its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Nesting {
    /// The deepest nesting of `()`, `[]`, `{}` plus generic `<>`.
    pub brackets: usize,
    /// The longest chain that the parser (or the walk over its tree) follows
    /// by recursion without a bracket, and which it is.
    pub chain: usize,
    pub chain_kind: &'static str,
}

/// Counters of the chains in the statement being scanned at one bracket level.
#[derive(Default, Clone, Copy)]
struct Chains {
    /// `else if` links.
    else_if: usize,
    /// Bare `=` (`a = b = c`).
    assign: usize,
    /// `->` (`fn() -> fn() -> ..`).
    arrow: usize,
    /// `|` (closures returning closures: `|x| |y| ..`).
    bar: usize,
    /// `.` outside numbers (method and field chains).
    dot: usize,
}

/// Whether [`nesting`] surely stays within the bounds, from counts of
/// bytes over the whole text (comments and literals included): see
/// [`CountBounds`]. The bytes are counted 32 at a time where AVX2 is there
/// ([`crate::syntax::simd::nesting_bytes`]), else in one pass with no branches per
/// byte: most files are far within, and the scan is left for the others.
pub fn surely_within(text: &str, max_brackets: usize, max_chain: usize) -> bool {
    let within = CountBounds::of(text, max_brackets, max_chain);
    within.brackets && within.links && within.elses
}

/// Which bounds of [`nesting`] counts of bytes over the whole text prove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountBounds {
    /// Brackets nest no deeper than there are `(`, `[`, `{` and `<`.
    pub brackets: bool,
    /// A chain of links has no more links than there are of its byte (`=`,
    /// `|` by two, `.`, the prefix operators `*&!-`, which also bound `->`).
    pub links: bool,
    /// An `else if` chain has no more links than there are `else`s.
    pub elses: bool,
}

impl CountBounds {
    pub fn of(text: &str, max_brackets: usize, max_chain: usize) -> CountBounds {
        let b = text.as_bytes();
        let n = crate::syntax::simd::nesting_bytes(b);
        CountBounds {
            brackets: n.open <= max_brackets,
            links: n.eq <= max_chain
                && n.bar / 2 <= max_chain
                && n.dot <= max_chain
                && n.prefix <= max_chain,
            elses: memchr::memmem::find_iter(b, b"else").count() <= max_chain,
        }
    }
}

/// Estimate how deep parsing `text` recurses. Upper bounds: a chain counts
/// every link in one statement (between `;` or `,` at its bracket level).
pub fn nesting(text: &str) -> Nesting {
    let b = text.as_bytes();
    let mut out = Nesting::default();
    let mut depth = 0usize;
    // Generic arguments nest too (`Option<Option<..>>`), but `<` is also a
    // comparison: count angles within a statement only, as an upper bound.
    let mut angles = 0usize;
    let mut levels: Vec<Chains> = vec![Chains::default()];
    // Consecutive prefix operators: `****x`, `&&&&p`, `*const *const T`, `!!x`.
    let mut prefix_run = 0usize;
    // The last word was `else` (comments and whitespace between do not count).
    let mut after_else = false;
    // The last token closed a block (`}`): a word next starts another
    // statement or item (`if a.b() {} if c.d() {}`), which ends the chains
    // of this level; a `.`, `?`, `>` or bracket next may go on with one
    // (`match x {}.len()`, `a.b::<{ 1 }>().c()`), so they do not.
    let mut after_block = false;
    let mut prev: Option<u8> = None;
    // The last token ends an operand (`x`, `1`, `)`): `*`, `&`, `-`, `!`
    // after it are binary operators or a macro's `!`, not prefixes.
    let mut after_operand = false;
    let note = |n: usize, kind: &'static str, out: &mut Nesting| {
        if n > out.chain {
            out.chain = n;
            out.chain_kind = kind;
        }
    };
    scan(text, |event| {
        let i = match event {
            Event::Code(i) => i,
            Event::Literal(..) => {
                prefix_run = 0;
                after_block = false;
                prev = Some(b'"');
                after_operand = true;
                return;
            }
            Event::Word(start, end) => {
                let w = &b[start..end];
                if std::mem::take(&mut after_block) {
                    let l = levels.last_mut().expect("one level always");
                    // `else` goes on with the `if` chain before it.
                    let else_if = l.else_if;
                    *l = Chains::default();
                    if w == b"else" {
                        l.else_if = else_if;
                    }
                }
                // `const`/`mut` continue a run of `*`/`&` prefixes.
                let keyword = matches!(
                    w,
                    b"const"
                        | b"mut"
                        | b"return"
                        | b"in"
                        | b"if"
                        | b"else"
                        | b"match"
                        | b"let"
                        | b"while"
                        | b"for"
                        | b"move"
                        | b"dyn"
                        | b"impl"
                        | b"break"
                        | b"yield"
                );
                if !matches!(w, b"const" | b"mut") {
                    prefix_run = 0;
                }
                after_operand = !keyword;
                if w == b"if" && after_else {
                    let l = levels.last_mut().expect("one level always");
                    l.else_if += 1;
                    note(l.else_if, "`else if` links", &mut out);
                }
                after_else = w == b"else";
                prev = Some(b[end - 1]);
                return;
            }
            Event::LineComment(..) | Event::BlockComment(..) | Event::Newline => return,
        };
        after_else = false;
        let c = b[i];
        if !c.is_ascii_whitespace() {
            after_block = c == b'}';
        }
        let next = b.get(i + 1).copied();
        let l = levels.last_mut().expect("one level always");
        match c {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if c == b'{' {
                    angles = 0;
                }
                levels.push(Chains::default());
                prefix_run = 0;
                out.brackets = out.brackets.max(depth + angles);
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if c == b'}' {
                    angles = 0;
                }
                if levels.len() > 1 {
                    levels.pop();
                }
                // A block ends any `->` chain around it (`fn f() -> T {}`):
                // else each item of a file of functions was a link of one.
                if c == b'}' {
                    levels.last_mut().expect("one level always").arrow = 0;
                }
                prefix_run = 0;
            }
            b';' | b',' => {
                *l = Chains::default();
                if c == b';' {
                    angles = 0;
                }
                prefix_run = 0;
            }
            b'<' if next != Some(b'=') => {
                angles += 1;
                out.brackets = out.brackets.max(depth + angles);
            }
            b'>' if !matches!(prev, Some(b'-' | b'=')) && next != Some(b'=') => {
                angles = angles.saturating_sub(1);
            }
            b'=' if !matches!(
                prev,
                Some(
                    b'=' | b'!'
                        | b'<'
                        | b'>'
                        | b'+'
                        | b'-'
                        | b'*'
                        | b'/'
                        | b'%'
                        | b'^'
                        | b'&'
                        | b'|'
                )
            ) && !matches!(next, Some(b'=' | b'>')) =>
            {
                l.assign += 1;
                note(l.assign, "chained `=` assignments", &mut out);
            }
            b'>' => {}
            b'-' if next == Some(b'>') => {
                l.arrow += 1;
                note(l.arrow, "`->` return types", &mut out);
            }
            b'|' => {
                l.bar += 1;
                note(l.bar / 2, "nested closures", &mut out);
            }
            b'.' if !(prev.is_some_and(|p| p.is_ascii_digit())
                && next.is_some_and(|n| n.is_ascii_digit())) =>
            {
                l.dot += 1;
                note(l.dot, "`.` method or field links", &mut out);
            }
            b'*' | b'&' | b'!' | b'-' if after_operand => prefix_run = 0,
            b'*' | b'&' | b'!' | b'-' => {
                prefix_run += 1;
                note(
                    prefix_run,
                    "prefix operators (`*`, `&`, `!`, `-`)",
                    &mut out,
                );
            }
            c if c.is_ascii_whitespace() => {}
            _ => prefix_run = 0,
        }
        if !c.is_ascii_whitespace() {
            prev = Some(c);
            after_operand = matches!(c, b')' | b']' | b'}');
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comments(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        scan(text, |e| {
            if let Event::LineComment(s, e) = e {
                out.push(&text[s..e]);
            }
        });
        out
    }

    #[test]
    fn comments_are_found_outside_literals() {
        let text = concat!(
            "let a = \"// no\"; // yes 1\n",
            "let r = r#\"// no \"# ; let c = '\"'; // yes 2\n",
            "let q = '\\''; fn f<'a>(x: &'a str) {} // yes 3\n",
            "/* // no /* nested */ */ let b = br\"//no\"; // yes 4\r\n",
        );
        assert_eq!(comments(text), [" yes 1", " yes 2", " yes 3", " yes 4"]);
    }

    #[test]
    fn nesting_skips_strings_comments_and_chars() {
        let brackets = |t: &str| nesting(t).brackets;
        assert_eq!(brackets("fn f() { g((1)) }"), 3);
        assert_eq!(
            brackets("let s = \"((((\"; // ((((\n/* (( /* ( */ */ let c = '(';"),
            0
        );
        assert_eq!(brackets("let s = r#\"(\"((\"#; fn f<'a>(x: &'a str) {}"), 1);
        assert_eq!(brackets("let s = \"\\\"(\";"), 0);
        // Generics count; comparisons end with their statement.
        assert_eq!(brackets("type T = Option<Option<u8>>;"), 2);
        assert_eq!(
            brackets("fn f() { if a < b { g(); } if c < d { h(); } }"),
            3
        );
        assert_eq!(brackets("fn f() -> u8 { match x { _ => 1 } }"), 2);
    }

    #[test]
    fn the_quick_bound_implies_the_scan_s() {
        let within = |t: &str, max: usize| {
            let n = nesting(t);
            n.brackets <= max && n.chain <= max
        };
        // Just within and just over, for each kind the scan counts.
        for unit in [
            "(",
            "a.",
            "a = ",
            "|x| ",
            "*",
            "&",
            "fn() -> ",
            "if a {} else ",
        ] {
            for reps in [3, 4, 5] {
                let text = format!("fn f() {{ {}x; }}", unit.repeat(reps));
                if surely_within(&text, 4, 4) {
                    assert!(within(&text, 4), "{text}");
                }
            }
        }
        // Every fixture: the quick bound never passes what the scan would stop.
        let lints = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lints");
        let mut seen = 0;
        for dir in std::fs::read_dir(lints).unwrap().flatten() {
            for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
                let Ok(text) = std::fs::read_to_string(f.path()) else {
                    continue;
                };
                for max in [5, 20, 80] {
                    if surely_within(&text, max, max) {
                        assert!(within(&text, max), "{}", f.path().display());
                    }
                }
                seen += 1;
            }
        }
        assert!(seen > 50);
        assert!(surely_within("fn f() { a.b(); }", 3, 3));
        assert!(!surely_within("fn f() { a.b.c.d; }", 2, 2));
    }

    #[test]
    fn chains_without_brackets_are_counted() {
        let chain = |t: &str| {
            let n = nesting(t);
            (n.chain, n.chain_kind)
        };
        assert_eq!(
            chain("fn f() { if a {} else if b {} else if c {} else {} }").0,
            2
        );
        assert_eq!(
            chain("fn f() { a = b = c = d; }"),
            (3, "chained `=` assignments")
        );
        assert_eq!(chain("let x = ****y;").0, 4);
        assert_eq!(chain("type T = *const *const *mut u8;").0, 3);
        assert_eq!(chain("fn f() -> fn() -> fn() -> u8 {}").0, 3);
        assert_eq!(chain("let f = |x| |y| |z| x;").0, 3);
        assert_eq!(chain("let v = a.b().c().d();").0, 3);
        // A block ends the chains of its statement when a word follows.
        assert_eq!(chain("fn f() { if k.a() {} if k.b() {} if k.c() {} }").0, 1);
        assert_eq!(
            chain("fn f() { if let A | B = k.a() {} if let C = k {} }").0,
            1
        );
        assert_eq!(chain("fn f() { for x in k.a() {} while k.b() {} }").0, 1);
        assert_eq!(chain("fn f() { match k.a() {}.b().c() }").0, 3);
        assert_eq!(chain("let v = a.b::<{ 1 }>().c::<{ 2 }>().d();").0, 3);
        assert_eq!(
            chain("fn f() { if a {} else if b {} else if c {} }"),
            (2, "`else if` links")
        );
        // Not chains: separate statements and arguments, numbers, comparisons.
        assert!(chain("let a = 1; let b = 2; f(x.y, z.w);").0 <= 1);
        assert_eq!(chain("let x = 1.0 + 2.5 + 3.25;").0, 1);
        assert!(chain("if a == b && c <= d && e >= f { }").0 <= 1);
    }
}
