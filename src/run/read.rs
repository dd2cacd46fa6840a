//! Reading a file and extracting its facts: bounded reads, UTF-8, the
//! parse on a big stack, and the errors each step reports.

use std::sync::Arc;

use crate::analysis::extract;
use crate::config::Vocabulary;
use crate::model::diagnostic::FileError;
use crate::model::facts::FileFacts;
use crate::model::source::FileId;
use crate::prefilter;
use crate::syntax::comments;
use crate::syntax::lex;
use crate::syntax::limits::{MAX_CHAIN, MAX_NESTING};
use crate::syntax::parse::{SpanConv, parseable_text};

use super::{FileOutcome, Input, MAX_FILE_BYTES, explain_parse_error};

/// Read a file, then `how` (parse, or [`analyze_text`]). Never panics on
/// bad input.
pub(super) fn read_and(
    id: FileId,
    input: &Input,
    how: fn(FileId, &Input, String) -> FileOutcome,
) -> FileOutcome {
    match input_text(input) {
        Ok(text) => how(id, input, text),
        Err(message) => unreadable(id, message),
    }
}

/// An input's text: the one given (a pass of `--fix`), else the file's.
pub(super) fn input_text(input: &Input) -> Result<String, String> {
    match &input.text {
        Some(text) => Ok(text.to_string()),
        None => read_text(&input.path),
    }
}

/// A file that could not be read, and why.
pub(super) fn unreadable(id: FileId, message: String) -> FileOutcome {
    let error = FileError {
        file: id,
        message,
        span: None,
    };
    FileOutcome {
        result: Err(error),
        text: Some(Arc::from("")),
    }
}

/// Read a file's structure only ([`prefilter::structure_only`]) when it
/// cannot yield a finding and the input allows, else parse it in full.
pub(super) fn analyze_text(id: FileId, input: &Input, text: String) -> FileOutcome {
    let vocab = &input.config.vocab;
    let structure_only = input
        .prefilter
        .then(|| prefilter::structure_only(id, &text, vocab))
        .flatten();
    match structure_only {
        Some(facts) => kept(text, Ok(facts)),
        None => parsed(id, input, text),
    }
}

/// A file parsed in full; in the default mode, without the function
/// bodies that hold nothing the walker records
/// ([`prefilter::without_quiet_bodies`]). A file whose rest does not parse
/// is parsed whole, for the error `--no-prefilter` gives.
pub(super) fn parsed(id: FileId, input: &Input, text: String) -> FileOutcome {
    let vocab = &input.config.vocab;
    let reduced = input
        .prefilter
        .then(|| prefilter::without_quiet_bodies(&text, vocab))
        .flatten();
    let result = match reduced.map(|reduced| extract_text(id, &text, Some(&reduced), vocab, true)) {
        Some(Ok(facts)) => Ok(facts),
        _ => parse_and_extract(id, &text, vocab),
    };
    kept(text, result)
}

/// The outcome of a file, with its text if a report may point into it
/// (excerpts, line numbers, fingerprints).
pub(super) fn kept(text: String, result: Result<FileFacts, FileError>) -> FileOutcome {
    let shown = result.as_ref().map_or(true, FileFacts::may_be_reported);
    FileOutcome {
        text: shown.then(|| Arc::from(text)),
        result: result.map(Arc::new),
    }
}

/// A file's text, or why it was not analysed. The file is opened once (its
/// size from the open handle) and read into a buffer of that size.
pub(super) fn read_text(path: &std::path::Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    read_opened(open(path)?, &mut bytes)?;
    String::from_utf8(bytes).map_err(|e| not_utf8(e.utf8_error()))
}

/// `bytes` as text: validated 32 bytes at a time where the processor can
/// (simdutf8, ten times faster than std on source text, which is nearly all
/// ASCII); std says where the first bad byte is.
pub(super) fn utf8(bytes: &[u8]) -> Result<&str, String> {
    simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes).map_err(not_utf8))
}

pub(super) fn not_utf8(e: std::str::Utf8Error) -> String {
    let at = e.valid_up_to();
    format!("file is not valid UTF-8 (invalid byte at offset {at}); it was not analysed")
}

pub(super) fn read_error(e: std::io::Error) -> String {
    format!("could not read file: {e}")
}

/// A file open for reading, and what its handle says of it.
pub(super) struct Opened {
    pub(super) file: std::fs::File,
    pub(super) meta: std::fs::Metadata,
}

pub(super) fn open(path: &std::path::Path) -> Result<Opened, String> {
    let file = std::fs::File::open(path).map_err(read_error)?;
    let meta = file.metadata().map_err(read_error)?;
    Ok(Opened { file, meta })
}

/// The bytes of an open file, into `bytes` (cleared first), or why it was
/// not analysed.
pub(super) fn read_opened(opened: Opened, bytes: &mut Vec<u8>) -> Result<(), String> {
    use std::io::Read;
    let Opened { mut file, meta } = opened;
    bytes.clear();
    let limit = MAX_FILE_BYTES / (1024 * 1024);
    let len = meta.len();
    if len > MAX_FILE_BYTES {
        // One decimal and the bytes: a whole number of MiB would say a file
        // of 32.5 MiB is 32 MiB, over a limit of 32 MiB.
        let mib = len as f64 / (1024.0 * 1024.0);
        return Err(format!(
            "file is {mib:.1} MiB ({len} bytes), over the {limit} MiB limit; it was not analysed"
        ));
    }
    let want = usize::try_from(len).unwrap_or(0) + 1;
    if bytes.capacity() < want {
        // A fresh buffer: growing the old one would copy all of it.
        *bytes = Vec::with_capacity(want);
    }
    if meta.is_file() {
        // The size the file had when opened, usually in one read: no second
        // read to see the end (a run reads thousands of files).
        (&mut file)
            .take(len)
            .read_to_end(bytes)
            .map_err(read_error)?;
    } else {
        // A pipe or a device: no size; `take` keeps it within the bound.
        (&mut file)
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(bytes)
            .map_err(read_error)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(format!(
                "file goes on past the {limit} MiB limit (a pipe or a device, read up to the limit); \
                 it was not analysed"
            ));
        }
    }
    Ok(())
}

/// Parse one file's text and extract its facts.
///
/// A file that may nest deeper than the parser's bounds is not parsed. The
/// fast path's SIMD skim reads the file first ([`prefilter::skim_for_parse`]):
/// it bounds what `lex::nesting` finds, and finds the doc comments of items,
/// which are blanked before the parse (the walker reads no `#[doc]`; the
/// suppression comments are read from the file as written). Where the skim
/// cannot tell, counts of bytes settle most files (`lex::surely_within`),
/// and `lex::nesting` the others, saying how deep a file nests.
pub fn parse_and_extract(
    id: FileId,
    text: &str,
    vocab: &Vocabulary,
) -> Result<FileFacts, FileError> {
    extract_text(id, text, None, vocab, true)
}

/// [`parse_and_extract`] of the file as written, no doc comment blanked:
/// what the tests hold the blanking to (feature `testing`).
#[cfg(feature = "testing")]
#[doc(hidden)]
pub fn parse_and_extract_as_written(
    id: FileId,
    text: &str,
    vocab: &Vocabulary,
) -> Result<FileFacts, FileError> {
    extract_text(id, text, None, vocab, false)
}

/// [`parse_and_extract`] of `text` parsed as `reduced` (`text` with the
/// bodies that hold nothing blanked, same offsets and lines), when given:
/// the facts quote `text`, and its suppression comments are all read.
pub(super) fn extract_text(
    id: FileId,
    text: &str,
    reduced: Option<&str>,
    vocab: &Vocabulary,
    leave_out_docs: bool,
) -> Result<FileFacts, FileError> {
    let conv = SpanConv { file: id };
    let base = reduced.unwrap_or(text);
    let skimmed = prefilter::skim_for_parse(&parseable_text(base), vocab);
    let nesting = if skimmed.is_some() || lex::surely_within(base, MAX_NESTING, MAX_CHAIN) {
        lex::Nesting::default()
    } else {
        lex::nesting(base)
    };
    let too_deep = if nesting.brackets > MAX_NESTING {
        Some(format!(
            "file nests brackets {} levels deep, more than the {MAX_NESTING} backend-lint parses",
            nesting.brackets
        ))
    } else if nesting.chain > MAX_CHAIN {
        Some(format!(
            "file has {} {} in one expression, more than the {MAX_CHAIN} backend-lint parses",
            nesting.chain, nesting.chain_kind
        ))
    } else {
        None
    };
    if let Some(why) = too_deep {
        return Err(FileError {
            file: id,
            message: format!("{why}; it was not analysed"),
            span: None,
        });
    }
    let without_docs = skimmed.flatten().filter(|_| leave_out_docs);
    let parsed_text = without_docs.as_deref().unwrap_or(base);
    let parsed = crate::syntax::parse::parse_file_with(parsed_text, |input| {
        extract::extract(input, conv, text, parsed_text, vocab)
    });
    let result = match parsed {
        Ok(mut facts) => {
            facts.directives = comments::scan(id, text);
            Ok(facts)
        }
        Err(e) => Err(FileError {
            file: id,
            message: format!("could not parse file: {}", explain_parse_error(&e)),
            span: Some(conv.span(e.span())).filter(|s| s.end > s.start || s.start > 0),
        }),
    };
    // Spans are byte offsets now; free proc-macro2's per-thread source map,
    // which otherwise grows with every file parsed on this thread.
    proc_macro2::extra::invalidate_current_thread_spans();
    result
}
