//! Edits applied to a text, as a pure function: what `--add-suppressions`
//! writes and the human report's diff of a fix both come from here.

use crate::model::diagnostic::Edit;

/// `text` with `edits` (byte ranges of `text`) applied. They are taken in
/// order of position; one that overlaps an edit already taken is left out,
/// so is a repeat of the same edit (two findings of one comment both
/// remove it). Ranges are clamped to the text and to character boundaries.
pub fn apply<'a>(text: &str, edits: impl IntoIterator<Item = &'a Edit>) -> String {
    let mut edits: Vec<&Edit> = edits.into_iter().collect();
    edits.sort();
    edits.dedup();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        let start = floor(text, edit.span.start);
        let end = floor(text, edit.span.end).max(start);
        if start < at {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(&edit.replacement);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::source::Span;

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
    fn edits_apply_in_order_and_overlaps_are_left_out() {
        let text = "let a = b;\n";
        let edits = [
            edit(8, 9, "c"),
            edit(4, 5, "x"),
            edit(4, 5, "x"),
            edit(7, 9, " d"),
            edit(11, 11, "// end\n"),
        ];
        // `8..9` overlaps `7..9`, which comes first.
        assert_eq!(apply(text, &edits), "let x = d;\n// end\n");
    }

    #[test]
    fn ranges_past_the_text_or_inside_a_character_are_clamped() {
        assert_eq!(apply("aé", &[edit(2, 99, "e")]), "ae");
    }
}
