//! Text taken from the checkout (keys, literals, comments, paths, source
//! lines) made safe to print: it may neither start a new output line nor
//! carry a character a terminal, a CI log or a Markdown renderer acts on.
//!
//! Text formats show such characters visibly, as rustc does: C0 controls and
//! DEL as Unicode Control Pictures (`␛`, `␇`, `␊`), the others (C1 controls,
//! bidi controls, line and paragraph separators) as `\u{202e}`. JSON formats
//! keep the original text, escaped by JSON's grammar (`json`).

use std::borrow::Cow;
use std::sync::Arc;

use crate::model::source::SourceFile;

/// The longest line an excerpt shows, in bytes (rustc cuts lines to the
/// terminal's width; a longer line here is not shown at all): miette lays
/// out a whole line, and past 65,535 columns its layout panics.
pub const MAX_EXCERPT_LINE: usize = 1024;

/// Whether an excerpt of `start..end` in `file`, with its line of context
/// on each side, has only lines of at most [`MAX_EXCERPT_LINE`] bytes.
pub fn excerpt_fits(file: &SourceFile, start: usize, end: usize) -> bool {
    let (first, last) = (file.line(start), file.line(end));
    (first.saturating_sub(1).max(1)..=last + 1).all(|l| file.line_text(l).len() <= MAX_EXCERPT_LINE)
}

/// Whether `c` must not reach the output as it is: a control (C0, DEL, C1;
/// terminals act on them, `\n` and `\r` end lines), a bidi control (reorders
/// what is shown, "Trojan Source"), or a line or paragraph separator (a line
/// break to some editors and JavaScript).
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
                | '\u{2028}' | '\u{2029}'
        )
}

/// Appends how a hidden `c` is shown. A newline quoted in a message becomes
/// `␊`, not `\n`: a picture cannot be mistaken for the two characters `\n`
/// of a raw string (`r"a\nb"` and `"a\nb"` are different keys), and it is
/// what rustc shows for controls in source lines.
fn push_visible(out: &mut String, c: char) {
    match c {
        '\0'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).expect("a control picture")),
        '\u{7f}' => out.push('\u{2421}'),
        // No picture exists for these: escaped as rustc writes them in messages.
        _ => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// `s` for one line of a text format: every hidden character shown visibly,
/// newlines and tabs included.
pub fn visible(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_hidden(c) {
            push_visible(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One line of a file as a diff shows it: its line end (`\n` or `\r\n`)
/// and tabs kept, every other hidden character shown visibly (a lone `\r`
/// as `␍`).
pub fn visible_line(line: &str) -> Cow<'_, str> {
    let body = line
        .strip_suffix("\r\n")
        .or_else(|| line.strip_suffix('\n'))
        .unwrap_or(line);
    if !body.chars().any(|c| is_hidden(c) && c != '\t') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    for c in body.chars() {
        match c {
            '\t' => out.push(c),
            c if is_hidden(c) => push_visible(&mut out, c),
            c => out.push(c),
        }
    }
    out.push_str(&line[body.len()..]);
    Cow::Owned(out)
}

/// A file's text as a source excerpt shows it: hidden characters visible,
/// except the line structure (`\n`, `\r\n`) and tabs, which the excerpt's
/// renderer lays out itself. Offsets into the file are moved by
/// [`Excerpt::offset`].
pub struct Excerpt {
    pub text: Arc<str>,
    /// For each replaced character: its end in the file and how many bytes
    /// longer the text is from there on.
    shifts: Vec<(usize, usize)>,
}

impl Excerpt {
    /// The file's own text (no copy) unless a character must be replaced.
    pub fn new(text: &Arc<str>) -> Excerpt {
        let kept = |i: usize, c: char| {
            matches!(c, '\n' | '\t') || (c == '\r' && text[i + 1..].starts_with('\n'))
        };
        let mut hidden = text
            .char_indices()
            .filter(|&(i, c)| is_hidden(c) && !kept(i, c))
            .peekable();
        if hidden.peek().is_none() {
            return Excerpt {
                text: text.clone(),
                shifts: Vec::new(),
            };
        }
        let mut out = String::with_capacity(text.len() + 64);
        let mut shifts = Vec::new();
        let mut copied = 0;
        for (i, c) in hidden {
            out.push_str(&text[copied..i]);
            push_visible(&mut out, c);
            copied = i + c.len_utf8();
            shifts.push((copied, out.len() - copied));
        }
        out.push_str(&text[copied..]);
        Excerpt {
            text: Arc::from(out),
            shifts,
        }
    }

    /// Where a byte offset of the file is in the excerpt's text.
    pub fn offset(&self, offset: usize) -> usize {
        let before = self.shifts.partition_point(|&(end, _)| end <= offset);
        offset + before.checked_sub(1).map_or(0, |i| self.shifts[i].1)
    }
}

/// `s` in a Markdown table cell, as plain text: every ASCII punctuation
/// character backslash-escaped (CommonMark allows it for all of them), so
/// none starts markup, HTML, an entity, a link or a new cell (`\|`).
pub fn markdown_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in visible(s).chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `s` as a Markdown code span in a table cell, fenced by more backticks
/// than it holds in a row. A `|` or `\\` makes it plain text instead: the
/// table splits its cells before code spans are read, at every `|` not
/// escaped by a backslash, which no code span can write unambiguously.
pub fn markdown_code(s: &str) -> String {
    let shown = visible(s);
    if shown.contains(['|', '\\']) {
        return markdown_text(s);
    }
    let longest = shown.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    // A space keeps a backtick at either end from joining the fence.
    let pad = if shown.starts_with('`') || shown.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{shown}{pad}{fence}")
}

/// A serialized JSON text with the hidden characters JSON allows raw (DEL,
/// C1, bidi controls, separators) written as `\uXXXX`, which parses back to
/// the same string: the JSON formats keep the original text, and printing
/// one to a terminal is safe. serde_json escapes the C0 controls already,
/// and these characters can only stand inside strings.
fn json(serialized: String) -> String {
    if !serialized.chars().any(is_hidden) {
        return serialized;
    }
    let mut out = String::with_capacity(serialized.len() + 16);
    for c in serialized.chars() {
        match c {
            // The line breaks of pretty output.
            '\n' => out.push(c),
            c if is_hidden(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A JSON report: pretty, newline-terminated, hidden characters escaped.
pub fn json_document(value: &impl serde::Serialize) -> String {
    let mut s = json(serde_json::to_string_pretty(value).expect("plain data serializes"));
    s.push('\n');
    s
}

/// One line of a JSON-lines stream: serde_json writes no raw line break.
pub fn json_line(value: &impl serde::Serialize) -> String {
    let mut s = json(serde_json::to_string(value).expect("plain data serializes"));
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_as_pictures_or_escapes() {
        assert_eq!(visible("plain `cpu`"), Cow::Borrowed("plain `cpu`"));
        assert_eq!(visible("a\nb\r\t\x1b[31m\x07\x7f"), "a␊b␍␉␛[31m␇␡");
        assert_eq!(
            visible("\u{9b}\u{202e}\u{2028}"),
            "\\u{9b}\\u{202e}\\u{2028}"
        );
    }

    #[test]
    fn an_excerpt_keeps_lines_and_tabs_and_moves_offsets() {
        let text: Arc<str> = Arc::from("a\r\n\tb\x1b[1m c\rd\u{202e}e");
        let e = Excerpt::new(&text);
        assert_eq!(&*e.text, "a\r\n\tb␛[1m c␍d\\u{202e}e");
        let moved = |s: &str| e.offset(text.find(s).unwrap());
        assert_eq!(moved("b"), 4);
        assert_eq!(&e.text[moved(" c")..], " c␍d\\u{202e}e");
        assert_eq!(&e.text[moved("d")..], "d\\u{202e}e");
        assert_eq!(&e.text[moved("e")..], "e");
        assert_eq!(e.offset(text.len()), e.text.len());
        let clean: Arc<str> = Arc::from("fn f() {}\r\n");
        assert!(Arc::ptr_eq(&Excerpt::new(&clean).text, &clean));
    }

    #[test]
    fn markdown_cells_neither_split_nor_mark_up() {
        assert_eq!(markdown_text("a|b <i>"), "a\\|b \\<i\\>");
        assert_eq!(markdown_code("src/a.rs:1:2"), "`src/a.rs:1:2`");
        assert_eq!(markdown_code("a``b"), "```a``b```");
        assert_eq!(markdown_code("a\\|b"), "a\\\\\\|b");
        assert_eq!(markdown_code("`a"), "`` `a ``");
    }

    #[test]
    fn json_escapes_round_trip() {
        let original = "a\u{9b}\u{202e}\u{2029}\u{7f}";
        let text = json(serde_json::to_string(original).unwrap());
        assert!(text.is_ascii());
        assert_eq!(serde_json::from_str::<String>(&text).unwrap(), original);
    }
}
