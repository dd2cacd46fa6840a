//! A file's text and line index, and the one place where `proc-macro2`
//! spans become byte ranges.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Index of a file in the [`SourceMap`] of a run.
pub type FileId = u32;

/// A byte range in one file of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: usize,
    pub end: usize,
}

/// One file of the run. `text` is empty when the file could not be read.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    /// The path as shown to users: relative to the working directory when possible,
    /// always with `/` separators.
    pub display: String,
    pub text: Arc<str>,
    line_starts: Vec<usize>,
    /// Made on the first column asked.
    char_marks: std::sync::OnceLock<CharMarks>,
}

/// A 1-based line and column; columns count Unicode scalar values, as rustc does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// The byte offset where each line of `text` starts (lines end at `\n`).
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect()
}

/// The step of [`CharMarks`], in bytes.
const CHAR_MARK: usize = 4096;

/// Characters in UTF-8 bytes: the bytes that do not continue a character.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Where characters are in a text, so that converting between a byte offset
/// and a character count costs at most [`CHAR_MARK`] bytes counted, never
/// the line up to it: 80,000 findings on one line of 2.7 MB counted 100 G
/// bytes. `None` when the text is ASCII: a character is a byte.
#[derive(Clone)]
pub(crate) struct CharMarks(Option<Vec<usize>>);

impl CharMarks {
    pub(crate) fn new(text: &str) -> CharMarks {
        let bytes = text.as_bytes();
        CharMarks((!bytes.is_ascii()).then(|| {
            let mut marks = vec![0];
            for chunk in bytes.chunks(CHAR_MARK) {
                marks.push(marks[marks.len() - 1] + chars_in(chunk));
            }
            marks
        }))
    }

    /// The number of characters before byte `at` (a character boundary).
    pub(crate) fn chars_before(&self, text: &str, at: usize) -> usize {
        let Some(marks) = &self.0 else {
            return at;
        };
        let mark = at / CHAR_MARK;
        marks[mark] + chars_in(&text.as_bytes()[mark * CHAR_MARK..at])
    }

    /// The byte offset of character `n` (the length of the text past its end).
    pub(crate) fn byte_of_char(&self, text: &str, n: usize) -> usize {
        let Some(marks) = &self.0 else {
            return n.min(text.len());
        };
        // The last mark at or before character `n`, then its chunk walked.
        let mark = marks.partition_point(|&m| m <= n).saturating_sub(1);
        let from = (mark * CHAR_MARK).min(text.len());
        let mut chars = marks[mark];
        for (i, &b) in text.as_bytes()[from..].iter().enumerate() {
            if (b as i8) >= -0x40 {
                if chars == n {
                    return from + i;
                }
                chars += 1;
            }
        }
        text.len()
    }
}

impl std::fmt::Debug for CharMarks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "CharMarks"
        } else {
            "Ascii"
        })
    }
}

impl SourceFile {
    pub fn new(path: PathBuf, display: String, text: Arc<str>) -> Self {
        let line_starts = line_starts(&text);
        SourceFile {
            path,
            display,
            text,
            line_starts,
            char_marks: std::sync::OnceLock::new(),
        }
    }

    /// The 1-based line of a byte offset (clamped to the text), without the
    /// column, which counts the characters before it on its line.
    /// The byte offset where a 1-based line starts (the text's end past the last).
    pub fn line_start(&self, line: usize) -> usize {
        (self.line_starts.get(line.wrapping_sub(1)).copied()).unwrap_or(self.text.len())
    }

    /// Where the text of a 1-based line starts: [`Self::line_start`], past
    /// a byte-order mark on line 1 (it belongs to the file, not to the line:
    /// an edit of the line keeps it first).
    pub fn text_start(&self, line: usize) -> usize {
        let bom = line == 1 && self.text.starts_with('\u{feff}');
        self.line_start(line) + if bom { '\u{feff}'.len_utf8() } else { 0 }
    }

    pub fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        self.line_starts.partition_point(|&s| s <= offset)
    }

    /// Line and column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        let line = self.line(offset) - 1;
        let start = self.line_starts[line];
        let end = floor_char_boundary(&self.text, offset);
        let mut column = self.chars_before(end) - self.chars_before(start) + 1;
        // A byte-order mark is not a column, as rustc and editors count.
        if line == 0 && offset >= 3 && self.text.starts_with('\u{feff}') {
            column -= 1;
        }
        LineCol {
            line: line + 1,
            column,
        }
    }

    fn chars_before(&self, at: usize) -> usize {
        let marks = self.char_marks.get_or_init(|| CharMarks::new(&self.text));
        marks.chars_before(&self.text, at)
    }

    /// The text of one 1-based line, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// All files of a run, indexed by [`FileId`]: each counted, and the source
/// held only of those a report can point into (findings, errors, skipped
/// files). A run of many files holds nothing of most of them.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    /// By id, ascending.
    files: Vec<(FileId, SourceFile)>,
    len: usize,
}

impl SourceMap {
    pub fn add(&mut self, file: SourceFile) -> FileId {
        let id = self.add_unheld();
        self.files.push((id, file));
        id
    }

    /// A file of the run into which no report points: counted, not held.
    pub fn add_unheld(&mut self) -> FileId {
        self.len += 1;
        FileId::try_from(self.len - 1).expect("fewer than 2^32 files")
    }

    /// The source of a file a report points into.
    ///
    /// # Panics
    /// For a file added with [`SourceMap::add_unheld`].
    pub fn get(&self, id: FileId) -> &SourceFile {
        match self.files.binary_search_by_key(&id, |(i, _)| *i) {
            Ok(at) => &self.files[at].1,
            Err(_) => panic!("file {id} is reported at, but its source was not held"),
        }
    }

    /// The number of files of the run, held or not.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No file in the run. Nothing calls it: it is here because `len` is
    /// public with the `testing` feature (the tests read it), and clippy asks
    /// a public `len` for its pair.
    #[cfg(feature = "testing")]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Path shown to users: relative to `base` when inside it, `/`-separated.
pub fn display_path(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    let rel = rel.strip_prefix(".").unwrap_or(rel);
    let s = rel.to_string_lossy().replace('\\', "/");
    if s.is_empty() { ".".to_string() } else { s }
}
