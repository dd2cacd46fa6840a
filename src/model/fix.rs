//! Applying fixes to text: pure functions (text and edits in, text out), so
//! that the runner, the tests and the fuzz target apply edits with one code.
//! The runner does the rest (which fixes, re-analysing, writing files).

use crate::model::diagnostic::{Edit, Fix};

/// Why edits could not be applied to a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// An edit reaches past the end of the text or cuts a character in two:
    /// it was made for another text.
    OutOfRange { start: usize, end: usize },
    /// Two edits change the same bytes (or insert at the same place).
    Overlap { at: usize },
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::OutOfRange { start, end } => {
                write!(f, "an edit of bytes {start}..{end} is outside the text")
            }
            EditError::Overlap { at } => write!(f, "two edits overlap at byte {at}"),
        }
    }
}

/// Whether two edits of one file touch the same bytes. Two insertions at
/// one place overlap too: their order would be a guess.
pub fn overlap(a: &Edit, b: &Edit) -> bool {
    let (a, b) = (a.span, b.span);
    a.file == b.file
        && (a.start < b.end && b.start < a.end
            || a.start == b.start && (a.start == a.end || b.start == b.end))
}

/// `text` with `edits` (all of one file) applied; an edit given twice (two
/// fixes adding one `use`) is made once. The line breaks of an inserted
/// text follow the file's (CRLF when its first line ends so): a fix
/// written with `\n` does not mix line endings.
pub fn apply(text: &str, edits: &[&Edit]) -> Result<String, EditError> {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort();
    sorted.dedup();
    for pair in sorted.windows(2) {
        if overlap(pair[0], pair[1]) {
            return Err(EditError::Overlap {
                at: pair[1].span.start,
            });
        }
    }
    let crlf = text.find('\n').is_some_and(|at| text[..at].ends_with('\r'));
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    for edit in sorted {
        let (start, end) = (edit.span.start, edit.span.end);
        if start > end || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return Err(EditError::OutOfRange { start, end });
        }
        out.push_str(&text[done..start]);
        match crlf {
            true => out.push_str(&edit.replacement.replace("\r\n", "\n").replace('\n', "\r\n")),
            false => out.push_str(&edit.replacement),
        }
        done = end;
    }
    out.push_str(&text[done..]);
    Ok(out)
}

/// The fixes of one pass: in the order given, each whose edits overlap
/// none of those taken before it (the others wait for the next pass, on
/// the text the taken ones leave). An edit equal to a taken one is no
/// clash: fixes that each add the same `use` go together.
pub fn non_overlapping<'f>(fixes: impl IntoIterator<Item = &'f Fix>) -> Vec<&'f Fix> {
    let mut taken: Vec<&Fix> = Vec::new();
    let mut edits: Vec<&Edit> = Vec::new();
    for fix in fixes {
        let clashes = (fix.edits.iter()).any(|e| edits.iter().any(|t| *t != e && overlap(e, t)));
        if !clashes {
            edits.extend(&fix.edits);
            taken.push(fix);
        }
    }
    taken
}

/// Edits that touch merged into one: an insertion at the start or end of
/// another edit (a `)` closing a call right where ` == ` is replaced)
/// would overlap it, so the lints build their fixes through this.
pub fn merge_touching(mut edits: Vec<Edit>) -> Vec<Edit> {
    // Insertions before replacements that start at the same place.
    edits.sort_by_key(|e| (e.span.file, e.span.start, e.span.end));
    let mut out: Vec<Edit> = Vec::with_capacity(edits.len());
    for edit in edits {
        match out.last_mut() {
            Some(last)
                if last.span.file == edit.span.file
                    && last.span.end == edit.span.start
                    && (last.span.start == last.span.end || edit.span.start == edit.span.end) =>
            {
                last.span.end = edit.span.end;
                last.replacement.push_str(&edit.replacement);
            }
            _ => out.push(edit),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::diagnostic::{Applicability, Span};

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit::replace(
            Span {
                file: 0,
                start,
                end,
            },
            text,
        )
    }

    #[test]
    fn edits_apply_from_the_original_offsets() {
        let text = "a == \"CUDA\"";
        let edits = [edit(0, 0, "f("), edit(1, 1, ")"), edit(5, 11, "\"cuda\"")];
        let out = apply(text, &edits.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!(out, "f(a) == \"cuda\"");
    }

    #[test]
    fn inserted_line_breaks_follow_the_file() {
        let text = "\u{feff}fn f() {}\r\nfn g() {}\r\n";
        let e = edit(3, 3, "use a::b;\n");
        let out = apply(text, &[&e]).unwrap();
        assert_eq!(out, "\u{feff}use a::b;\r\nfn f() {}\r\nfn g() {}\r\n");
    }

    #[test]
    fn overlapping_or_outside_edits_are_refused() {
        let text = "héllo";
        assert_eq!(
            apply(text, &[&edit(0, 3, "x"), &edit(2, 4, "y")]),
            Err(EditError::Overlap { at: 2 })
        );
        assert_eq!(
            apply(text, &[&edit(0, 0, "x"), &edit(0, 0, "y")]),
            Err(EditError::Overlap { at: 0 })
        );
        assert!(matches!(
            apply(text, &[&edit(2, 2, "x")]),
            Err(EditError::OutOfRange { .. })
        ));
        assert!(matches!(
            apply(text, &[&edit(4, 99, "x")]),
            Err(EditError::OutOfRange { .. })
        ));
    }

    #[test]
    fn a_fix_that_overlaps_a_taken_one_waits() {
        let fix = |edits: Vec<Edit>| Fix::new(Applicability::Safe, "f", edits);
        let a = fix(vec![edit(0, 4, "x")]);
        let b = fix(vec![edit(2, 6, "y")]);
        let c = fix(vec![edit(4, 6, "z"), edit(8, 8, "w")]);
        let taken = non_overlapping([&a, &b, &c]);
        assert_eq!(taken, vec![&a, &c]);
    }

    #[test]
    fn one_edit_made_by_two_fixes_is_made_once() {
        let fix = |edits: Vec<Edit>| Fix::new(Applicability::Safe, "f", edits);
        let a = fix(vec![edit(0, 0, "use x;\n"), edit(3, 4, "a")]);
        let b = fix(vec![edit(0, 0, "use x;\n"), edit(5, 6, "b")]);
        let taken = non_overlapping([&a, &b]);
        assert_eq!(taken, vec![&a, &b]);
        let edits: Vec<&Edit> = taken.iter().flat_map(|f| &f.edits).collect();
        assert_eq!(apply("fn f() {}", &edits).unwrap(), "use x;\nfn a(b {}");
    }

    #[test]
    fn touching_edits_merge() {
        let merged = merge_touching(vec![edit(5, 9, ", "), edit(5, 5, ")"), edit(0, 0, "f(")]);
        assert_eq!(merged, vec![edit(0, 0, "f("), edit(5, 9, "), ")]);
    }
}
