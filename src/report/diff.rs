//! `--diff`: the changes `--fix` would make, as a unified diff. File names
//! and source lines are the checkout's text, so they go through the same
//! visible-text rules as every other format: a name that cannot be a patch
//! header line is refused (and said so), and a line's hidden characters are
//! shown visibly, tabs and its own line end kept.
//!
//! Lines are split at `\n` only, as git splits them: a lone `\r` is a
//! character of its line (shown as `␍`), never a line end of the diff.

use std::fmt::Write as _;

use similar::{ChangeTag, TextDiff};

use crate::model::text::{visible, visible_line};
use crate::run::fix::Change;

/// The diff of the changes that can be shown, and the files that cannot.
#[derive(Debug, Default)]
pub struct Diff {
    pub text: String,
    /// Files left out because their name cannot be a patch header, as the
    /// name is shown visibly.
    pub refused: Vec<String>,
}

/// The changes, file by file.
pub fn diff(changes: &[Change]) -> Diff {
    let mut out = Diff::default();
    for c in changes {
        let visible_name = visible(&c.display);
        // A name holding a line break or a control would end the header line
        // or act on the terminal; shown visibly it would name another file.
        if visible_name != c.display {
            out.refused.push(visible_name.into_owned());
            continue;
        }
        file_diff(&mut out.text, &c.display, &c.old, &c.new);
    }
    out
}

fn file_diff(out: &mut String, name: &str, old: &str, new: &str) {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let diff = TextDiff::configure().diff_slices(&old_lines, &new_lines);
    let mut header = Some(name);
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        if let Some(name) = header.take() {
            let _ = writeln!(out, "--- a/{name}\n+++ b/{name}");
        }
        let _ = writeln!(out, "{}", hunk.header());
        for change in hunk.iter_changes() {
            out.push(match change.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            });
            let line = change.value();
            out.push_str(&visible_line(line));
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;

    fn change(display: &str, old: &str, new: &str) -> Change {
        Change {
            path: PathBuf::from(display),
            display: display.into(),
            old: Arc::from(old),
            new: Arc::from(new),
        }
    }

    #[test]
    fn a_diff_is_the_unified_diff_git_writes() {
        let d = diff(&[change("src/a.rs", "a\nb\nc\n", "a\nB\nc")]);
        assert_eq!(
            d.text,
            "--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,3 +1,3 @@\n a\n-b\n-c\n+B\n+c\n\\ No newline at end of file\n"
        );
        assert!(d.refused.is_empty());
    }

    #[test]
    fn hidden_characters_are_shown_and_hostile_names_refused() {
        let d = diff(&[
            change("a\n::error::x.rs", "a\n", "b\n"),
            change("b.rs", "\tx\ry\x1b\r\n", "\tz\r\n"),
        ]);
        assert_eq!(d.refused, ["a␊::error::x.rs"]);
        assert_eq!(
            d.text,
            "--- a/b.rs\n+++ b/b.rs\n@@ -1 +1 @@\n-\tx␍y␛\r\n+\tz\r\n"
        );
    }
}
