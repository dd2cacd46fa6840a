//! Default mode: a file that cannot yield a finding is not parsed.
//!
//! Most files of a crate register nothing, compare no platform and lower
//! nothing; all they give the crate pass is structure (the constants, `use`s,
//! `mod` declarations and types that name resolution and the module tree are
//! built from). For those, [`structure_only`] reads the structure from the
//! file's tokens, skipping function bodies, expressions and types, and the
//! syn parse and the walk are never run. `check --no-prefilter` parses every
//! file, and `tests/prefilter.rs` asserts both modes report the same.
//!
//! Two checks decide that a file cannot yield a finding (the engine runs
//! them in stages: `run::per_file_pass`):
//! - [`lexes_quietly`] (run by the engine as [`survey_with`], which finds the
//!   vocabulary's stems, `concat` and suppression comments in one search):
//!   the lexer tells code from comments and strings and decodes literals; a
//!   file it accepts tokenizes, so a file that does not is reported in both
//!   modes. In a crate where no file has anything to report, most files are
//!   only lexed;
//! - [`explain`]: the lexer and the structure reader.
//!
//! [`quiet`] is a stricter check on the text alone (no vocabulary name where
//! it could start a fact, nothing that could be a canonical literal or a
//! suppression comment), and [`lexes`] the lexer for a quiet file. The
//! engine no longer runs them: with the lexer's fast path, the text check
//! cost more than it spared (a file it calls quiet is lexed with the same
//! answer by [`lexes_quietly`]). The tests and the fuzz target still hold
//! them to the walker.
//!
//! # Why a skipped file yields no registration, comparison or lowering
//!
//! The walker (`analysis::extract`) records a fact only from an identifier
//! of the configured vocabulary, or from a string literal. Which names, and
//! where they must stand, each of its collectors declares in one place
//! (`analysis::extract::collect`): the registrations, comparisons, lowering
//! contexts and function summaries each list the sets of names they start
//! facts from, and ask the vocabulary only through that declaration (a
//! debug build fails on a set a collector did not declare). This filter
//! takes its triggers from the same declaration (`triggers::fact_start`,
//! `triggers::trigger_stems`): nothing here lists a name. What else holds:
//!
//! - **unregistrations** and backend registrations' names count only with a
//!   registration of their own file (`Start::alone` is false): they are no
//!   trigger;
//! - a **comparison** is recorded only when a side is raw or canonical
//!   (`worth_recording`); besides the declared names, a side is canonical
//!   from a binding of a string literal whose value is a canonical platform
//!   (`let p = "cuda"; p == "gpu"`), literal or `concat!` of literals,
//!   which this filter decodes in every file;
//! - a **lowering context** is kept only with platforms; a context with a
//!   backend only is dropped, though its names are triggers too;
//! - **suppression comments** are read from the text in both modes
//!   (`comments::scan`), parsed or not.
//!
//! Each of these names is an identifier token in code: the walker matches
//! whole identifiers (`ident.to_string()`), never text in comments or
//! strings, and never expands macros, so every token it reads is in the file.
//! Where a name must stand is declared with it (`NameUse`): all but the
//! sources, switch fields and `platforms` count only as the callee of a
//! call or method call (`register(..)`, `r.register::<T>(..)`,
//! `Registry::register(r, ..)`), so such a name counts only when `(`, `::`
//! or a comment follows it: a field `register_op: u8` or a local
//! `lower_size_bound` names nothing the walker starts from. A registration
//! needs its key and a lowering call its platforms, so `()` after one
//! counts for nothing either (`collector.register()`, `range.lower()`).
//! A string normalizer (`to_lowercase`, `trim`, `replace`: `Names::Normalizers`) counts
//! only as a method, after `.` and before `(`, with no argument or a literal first
//! (`.replace("a", "b")`, not `mem::replace(..)` or an `Option`'s `replace(v)`), as the walker
//! reads one (`analysis::values::normalized`), and only where its own function compares a
//! string it may rule out (`normalized`: the lexer notes the calls, and the text is checked
//! once it is lexed).
//! The sources and `platforms` are matched as a method, a function called,
//! a field or a pattern field, never as a module: not before `::` and a name
//! (`platform::open()`; the turbofish `platform::<T>()` counts), nor as a
//! parameter: not before `:` right inside parentheses (`fn f(platform: P)`). No name
//! counts right after a declaring word on its line (`fn register(`,
//! `mod platform;`, `use x as platform;`, `pub platform: String`): the walker
//! never starts a fact from a name being declared. See `may_start_fact`.
//! The filter finds the stems of the vocabulary with Aho-Corasick where a
//! word starts (the rejection words each with memchr's finder), and the lexer keeps the hits that start an identifier in
//! code which the vocabulary contains (exclusions such as `!registered*`
//! included); it also decodes every string literal and every `concat!` of
//! literals and compares them with the canonical names. Any hit, and the
//! file is parsed in full. [`quiet`] applies the same rules to every hit in
//! the text, comments and strings included, and takes any quote-delimited
//! canonical name, escape or line continuation as a possible literal.
//!
//! # What the structure reader guarantees
//!
//! See `items`: the same consts, `use`s, `mod` declarations (with `cfg`s and
//! `#[path]`), inline module scopes and type names as the walker, or it gives
//! up and the file is parsed in full. It also gives up on anything its lexer
//! does not read (see `lexer`) and on any file that might nest deeper than
//! the parser accepts, so a file that does not tokenize or is too deep gets
//! the same error as with `--no-prefilter`. A syntax error inside what it
//! skips (a function body, a type, an expression) is not seen: such a file is
//! checked (it cannot yield a finding) instead of being reported as not
//! analysed; `--no-prefilter` reports it.

mod bodies;
mod called;
mod items;

pub use called::Called;
mod lexer;
mod normalized;

use std::cell::RefCell;
use std::sync::Arc;

use aho_corasick::{AhoCorasick, MatchKind};

use crate::analysis::extract::{FLAG_CALLS, sets_once_static, static_mechanism, triggers};
use crate::config::{NameUse, SINGLETON_MECHANISMS, Vocabulary};
use crate::model::facts::FileFacts;
use crate::model::source::FileId;
use crate::syntax::comments;
use crate::syntax::limits::{MAX_CHAIN, MAX_NESTING};
use crate::syntax::parse::parseable_text;

/// Why a file needs the full parse (for tests and debugging).
pub type Bail = &'static str;

/// The text filter of one vocabulary.
struct Filter {
    vocab: Vocabulary,
    /// `None` when every file needs the full parse (a pattern `*` matches
    /// every identifier).
    stems: Option<AhoCorasick>,
    /// `concat`, the suppression comments' prefix, then the stems: what
    /// the per-file pass looks for in one search ([`Filter::words`]).
    words: Option<AhoCorasick>,
    /// A stem may end inside a `concat`, hiding it from that search.
    stems_hide_concat: bool,
    /// The rejection words (`contains_key`, `Occupied`, and `insert(`,
    /// `contains(`, `is_some(`, `is_none(` with the `(` they count only
    /// before), each looked for on its own: `contains_key` starts as `const`,
    /// `continue` and `concat` do, and among the stems it made the search
    /// half as slow again; alone, memchr's finder skips on its rarest bytes.
    rejections: Vec<memchr::memmem::Finder<'static>>,
    /// `insert(`, without which nothing rejects.
    inserts: memchr::memmem::Finder<'static>,
    /// The canonical names, lowercased: a literal naming one in any case
    /// may start a value set (`"CUDA"`).
    platforms: Vec<String>,
    /// No platform name holds a quote or a backslash: a text test can rule
    /// their literals out ([`quiet`]).
    #[cfg(feature = "testing")]
    quotable: bool,
}

impl Filter {
    fn new(vocab: &Vocabulary) -> Filter {
        let (stems, rejections) = triggers::trigger_stems(vocab);
        let mut platforms: Vec<String> = (vocab.canonical.iter())
            .map(|p| p.to_ascii_lowercase())
            .collect();
        platforms.sort();
        platforms.dedup();
        // A canonical name with a line break: a literal's value may differ
        // from its text (CRLF), so the literal check could miss it.
        let odd_platform = platforms.iter().any(|c| c.contains(['\r', '\n']));
        // A contiguous NFA: with this few patterns the packed (Teddy)
        // searcher does the search whatever the automaton, and a DFA costs
        // more to build than a run's learning rounds save by it.
        let build = |patterns: &[&str]| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostFirst)
                .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
                .build(patterns)
                .ok()
        };
        let (matcher, words) =
            if (stems.iter().chain(&rejections)).any(|s| s.is_empty()) || odd_platform {
                (None, None)
            } else {
                let words: Vec<&str> = [CONCAT, comments::PREFIX]
                    .into_iter()
                    .chain(stems.iter().copied())
                    .collect();
                (build(&stems), build(&words))
            };
        #[cfg(feature = "testing")]
        let quotable = platforms.iter().all(|c| !c.contains(['"', '\\']));
        // A match of a stem that `concat` starts inside.
        let stems_hide_concat = stems.iter().chain(&rejections).any(|s| {
            (1..s.len()).any(|k| {
                s.get(k..)
                    .is_some_and(|rest| CONCAT.starts_with(rest) || rest.starts_with(CONCAT))
            })
        });
        Filter {
            vocab: vocab.clone(),
            stems: matcher,
            platforms,
            words,
            stems_hide_concat,
            inserts: memchr::memmem::Finder::new(crate::syntax::rejection::INSERTION).into_owned(),
            rejections: (rejections.iter())
                .map(|r| {
                    // An everyday method name counts only called right away.
                    let mut needle = r.as_bytes().to_vec();
                    if crate::syntax::rejection::CALL_REJECTIONS.contains(r) {
                        needle.push(b'(');
                    }
                    memchr::memmem::Finder::new(&needle).into_owned()
                })
                .collect(),
            #[cfg(feature = "testing")]
            quotable,
        }
    }

    /// [`Filter::candidates`], and whether `concat` and the suppression
    /// comments' prefix occur, in one search. The two come first among the
    /// patterns, so that no stem starting where they do hides them; a stem
    /// they hide starts inside `concat` (where no word starts) or inside the
    /// prefix, and then the stems are looked for again, alone. A stem that
    /// starts first hides them only inside a word (stems are names): no
    /// `concat!` and no suppression comment is missed, but `concat` as a
    /// word may be (`stems_hide_concat`).
    fn words(&self, words: &AhoCorasick, stems: &AhoCorasick, text: &str) -> Words {
        let b = text.as_bytes();
        let mut found = Words::default();
        for m in words.find_iter(text) {
            match m.pattern().as_usize() {
                0 => found.concat = true,
                1 => found.directive = true,
                _ => {}
            }
            let s = m.start();
            if starts_word(b, s) {
                found.candidates.push(s);
            }
        }
        if found.directive {
            found.candidates = self.candidates(stems, text);
        } else {
            self.add_rejections(text, &mut found.candidates);
        }
        found
    }

    /// Whether the text may hold a literal whose value is a canonical name,
    /// or a suppression comment: a canonical name between quotes (`"cuda"`,
    /// `r#"cuda"#`), an escape or line continuation that could spell one
    /// (`\x`, `\u`, `\` at a line end), `concat`, `backend-lint:`. Quotes and
    /// backslashes are rare enough for memchr to jump between them.
    #[cfg(feature = "testing")]
    fn risky(&self, text: &str) -> bool {
        let b = text.as_bytes();
        let platforms = &self.platforms;
        let literal = memchr::memchr2_iter(b'"', b'\\', b).any(|i| {
            let rest = &b[i + 1..];
            if b[i] == b'\\' {
                return matches!(rest.first(), Some(b'x' | b'u' | b'\n' | b'\r'));
            }
            // What stands before the next quote: a canonical name, or a
            // name made with one (`"libtorch<cuda>"`).
            let end = memchr::memchr(b'"', rest).unwrap_or(rest.len());
            crate::config::platform::holds_platform_bytes(platforms, &rest[..end])
        });
        literal
            || memchr::memmem::find(b, b"concat").is_some()
            || memchr::memmem::find(b, comments::PREFIX.as_bytes()).is_some()
    }

    /// Where a stem starts a word (a conservative superset of where the
    /// vocabulary's identifiers start). Leftmost-first matching never skips
    /// such a start: a match inside another ends after word bytes.
    fn candidates(&self, matcher: &AhoCorasick, text: &str) -> Vec<usize> {
        let b = text.as_bytes();
        let mut found: Vec<usize> = matcher
            .find_iter(text)
            .map(|m| m.start())
            .filter(|&s| starts_word(b, s))
            .collect();
        self.add_rejections(text, &mut found);
        found
    }

    /// `found` (sorted) with where a rejection word starts a word, in order.
    /// Every rejection inserts too (`insert(`: see
    /// `syntax::rejection::rejection_in_context`), and nine files in ten do not:
    /// one search that stops at the first saves the others.
    fn add_rejections(&self, text: &str, found: &mut Vec<usize>) {
        let b = text.as_bytes();
        if self.rejections.is_empty() || self.inserts.find(b).is_none() {
            return;
        }
        let before = found.len();
        for finder in &self.rejections {
            found.extend(finder.find_iter(b).filter(|&s| starts_word(b, s)));
        }
        if found.len() > before {
            found.sort_unstable();
            found.dedup();
        }
    }

    /// An identifier from which the walker can start a fact, and how.
    fn is_vocabulary(&self, name: &str) -> Option<NameUse> {
        triggers::fact_start(&self.vocab, name)
    }
}

/// What [`Filter::words`] finds in a text.
#[derive(Default)]
struct Words {
    candidates: Vec<usize>,
    concat: bool,
    directive: bool,
}

const CONCAT: &str = "concat";

/// Whether a word may start at `s` of `b`: no ASCII word byte before it.
fn starts_word(b: &[u8], s: usize) -> bool {
    s == 0 || !(b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_')
}

/// How many vocabularies' prefilters a thread keeps: learning parses the
/// files of a dozen packages, each with its own configuration, in turn.
const FILTERS_KEPT: usize = 16;

thread_local! {
    /// The last used first.
    static FILTERS: RefCell<Vec<Arc<Filter>>> = const { RefCell::new(Vec::new()) };
    static LEXED: RefCell<lexer::Lexed> = RefCell::new(lexer::Lexed::default());
}

fn filter_for(vocab: &Vocabulary) -> Arc<Filter> {
    FILTERS.with(|cell| {
        let mut kept = cell.borrow_mut();
        let f = match kept.iter().position(|f| f.vocab == *vocab) {
            Some(at) => kept.remove(at),
            None => Arc::new(Filter::new(vocab)),
        };
        kept.insert(0, f.clone());
        kept.truncate(FILTERS_KEPT);
        f
    })
}

/// Whether the text alone shows that a file cannot yield a finding, without
/// lexing it: no word that the vocabulary contains stands where it may start
/// a fact (`may_start_fact`), no canonical name is written between quotes,
/// no escape or line continuation (`\x`, `\u`, `\` at a line end) could
/// spell one, no `concat`, no suppression comment and no singleton's
/// mechanism (issue 29), wherever written. Stricter than the
/// lexer, since it does not tell code from comments and strings: a file it
/// calls quiet has no fact a finding can come from (checked on the
/// registry's crates by `tests/prefilter.rs`, and by the fuzz target).
#[cfg(feature = "testing")]
pub fn quiet(text: &str, vocab: &Vocabulary) -> bool {
    let filter = filter_for(vocab);
    let Some(stems) = filter.stems.as_ref().filter(|_| filter.quotable) else {
        return false;
    };
    if filter.risky(text) {
        return false;
    }
    // A singleton's mechanism (issue 29), wherever the text writes it.
    if sets_once_static(text) || static_mechanism(text) {
        return false;
    }
    let b = text.as_bytes();
    // Non-ASCII bytes belong to the word: an identifier may go on in Unicode.
    let in_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
    filter.candidates(stems, text).into_iter().all(|start| {
        let end = start + b[start..].iter().take_while(|&&c| in_word(c)).count();
        match text.get(start..end).map(|name| filter.is_vocabulary(name)) {
            None => false,
            Some(None) => true,
            Some(Some(how)) => !may_start_fact(b, start, end, how, None),
        }
    })
}

/// Words after which a name is declared, imported or a type, never called
/// or read as a field: `fn register(`, `mod platform;`, `use x as platform;`,
/// `pub platform: String`.
const DECLARING: &[&[u8]] = &[
    b"as", b"const", b"enum", b"fn", b"impl", b"let", b"mod", b"pub", b"static", b"struct",
    b"trait", b"type", b"union", b"use",
];

/// Whether the vocabulary name at `start..end` of `b` may start a fact
/// where it stands (see the module documentation): not after a
/// [`DECLARING`] word on its line (only blanks between, so both are code or
/// both are in one comment or string); a callee name only before `(`, `::`
/// or a comment, and a registration or lowering call not before `()`; any
/// other name except before `::` and a name (a module path:
/// `platform::open()`, not the turbofish of `platform::<T>()`). Bytes
/// outside ASCII, vertical tabs and form feeds (which Rust reads as blanks)
/// count as a call.
fn may_start_fact(b: &[u8], start: usize, end: usize, how: NameUse, within: Option<u8>) -> bool {
    let before = b[..start].trim_ascii_end();
    let blanks_only = b[before.len()..start]
        .iter()
        .all(|&c| c == b' ' || c == b'\t');
    let word_at = before
        .iter()
        .rposition(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
        .map_or(0, |k| k + 1);
    if blanks_only && start > before.len() && DECLARING.contains(&&before[word_at..]) {
        let prior = word_at.checked_sub(1).map(|k| b[k]);
        if !prior.is_some_and(|c| c == b'#' || c == b'\'' || c >= 0x80) {
            // `fn register_op(`: a registration's own body decides what its
            // calls do with a second key (`analysis::extract::summary`).
            return how == NameUse::CalleeWithArguments && &before[word_at..] == b"fn";
        }
    }
    let blank = |c: &&u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let odd = |c: u8| !c.is_ascii() || c == 0x0b || c == 0x0c;
    let mut rest = b[end..].iter().skip_while(blank);
    if how == NameUse::Rejection {
        return crate::syntax::rejection::rejection_in_context(b, start, end);
    }
    if how == NameUse::StrMethod {
        // After a `.` (or a comment), before `(`, then `)` or a literal
        // (`'`, `"`, `r"`, `r#"`; any word of `r`, a comment or a byte
        // outside ASCII counts too).
        if !before.last().is_some_and(|&c| c == b'.' || c == b'/') {
            return false;
        }
        return match rest.next().copied() {
            Some(b'(') => match rest.find(|c| !blank(c)).copied() {
                Some(c) => matches!(c, b')' | b'"' | b'\'' | b'r' | b'/') || odd(c),
                None => false,
            },
            Some(c) => c == b'/' || odd(c),
            None => false,
        };
    }
    match (how, rest.next().copied()) {
        (_, None) => false,
        (_, Some(c)) if odd(c) => true,
        // `x.lower()`: no argument (unless a comment hides one).
        (NameUse::CalleeWithArguments, Some(b'(')) => rest.find(|c| !blank(c)) != Some(&b')'),
        (NameUse::Callee | NameUse::CalleeWithArguments, Some(c)) => {
            c == b'(' || c == b'/' || (c == b':' && rest.next() == Some(&b':'))
        }
        (NameUse::Anywhere, Some(b':')) => {
            // `name: T` right inside parentheses is a parameter (`fn
            // f(platform: &str)`, `|platform: &str|` as an argument), no
            // field, method or pattern field; in braces it may be a
            // pattern's field (`Device { platform: p }`).
            if rest.next() != Some(&b':') {
                return within != Some(b'(');
            }
            match rest.find(|c| !blank(c)) {
                Some(&c) => !(c.is_ascii_alphabetic() || c == b'_'),
                None => true,
            }
        }
        (NameUse::Anywhere, Some(_)) => true,
        (NameUse::Rejection | NameUse::StrMethod, Some(_)) => unreachable!("answered above"),
    }
}

/// The facts of a file that cannot yield a finding: its structure and its
/// suppression comments. `None` when it needs the full parse.
pub fn structure_only(id: FileId, text: &str, vocab: &Vocabulary) -> Option<FileFacts> {
    let mut facts = explain(text, vocab).ok()?;
    facts.directives = comments::scan(id, text);
    Some(facts)
}

/// The structure facts of a file, or why it needs the full parse.
pub fn explain(text: &str, vocab: &Vocabulary) -> Result<FileFacts, Bail> {
    let text = parseable_text(text);
    let result = LEXED.with(|cell| {
        let lexed = &mut *cell.borrow_mut();
        lex_checked(&text, vocab, lexed, true)?;
        if sets_once_static(&text) {
            return Err("a static once cell set");
        }
        if static_mechanism(&text) {
            return Err("a singleton's mechanism on a static");
        }
        // The walker expands such a macro where it is called, items and
        // all (`mod $name { .. }`), which this reader does not.
        if defines_expanded_macro(&text, vocab) {
            return Err("a macro the walker expands");
        }
        items::structure(&text, &lexed.toks, vocab)
    });
    // syn parsed attributes, `use`s or constants: free their spans.
    proc_macro2::extra::invalidate_current_thread_spans();
    result
}

/// What the skim ([`lexer::skim`], the fast path's SIMD reading) tells the
/// full parse of a file (already `parseable_text`): `None` when it cannot
/// tell (no AVX2, a text it does not read, a file that may nest deeper than
/// the parser's bounds); else that the file nests within them
/// ([`crate::syntax::lex::nesting`] would find it within them too, and need
/// not run), and the text to parse: with the doc comments of its items
/// blanked ([`bodies::item_doc_comments`]), or `None` when there are none.
///
/// proc-macro2 turns each doc comment into a `#[doc = ".."]` attribute,
/// escaping it one character at a time, and syn parses it; the walker reads
/// none. On real code they are a tenth of what the full parse reads. A file
/// defining a macro the walker expands keeps them (a rule may match a
/// `#[doc = ..]`), as it keeps its bodies ([`without_quiet_bodies`]).
pub fn skim_for_parse(text: &str, vocab: &Vocabulary) -> Option<Option<String>> {
    let mut comments = Vec::new();
    let skimmed = lexer::skim_comments(text, &UNWATCHED, MAX_NESTING, MAX_CHAIN, |s, e| {
        comments.push((s, e))
    });
    if skimmed != Some(Ok(())) {
        return None;
    }
    if comments.is_empty() || defines_expanded_macro(text, vocab) {
        return Some(None);
    }
    Some(bodies::blank_out(
        text,
        &bodies::item_doc_comments(text, &comments),
    ))
}

/// Whether the lexer reads the whole file and finds nothing that needs the
/// full parse: no vocabulary name in code, no canonical literal, no nesting
/// beyond the parser's bounds. The structure is not read. A file for which
/// this holds tokenizes, and cannot yield a finding. The engine runs it as
/// [`survey_with`]; this form is the tests' and the fuzz target's (feature
/// `testing`).
#[cfg(feature = "testing")]
pub fn lexes_quietly(text: &str, vocab: &Vocabulary) -> bool {
    let text = parseable_text(text);
    let filter = filter_for(vocab);
    let Some(matcher) = &filter.stems else {
        return false;
    };
    let candidates = filter.candidates(matcher, &text);
    let calls = called::Recording::new();
    let lexed = LEXED.with(|cell| {
        watching_found(&filter, &text, None, candidates, Some(&calls), |watch| {
            lex_watched(&text, vocab, watch, &mut cell.borrow_mut(), false)
        })
        .is_ok()
    });
    lexed && !calls_mechanism(&text, &calls.done())
}

/// Whether `text` calls a singleton's mechanism (issue 29): a call, so
/// searched for only where the lexer saw code call it (`called`:
/// `STATE.compare_exchange(..)`, `HOOK.set(..)`), not in every file.
fn calls_mechanism(text: &str, called: &Called) -> bool {
    (called.may_call("set") && sets_once_static(text))
        || ((SINGLETON_MECHANISMS.iter().chain(FLAG_CALLS)).any(|m| called.may_call(m))
            && static_mechanism(text))
}

/// What the first stage of the per-file pass learns of a file ([`survey`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Survey {
    /// [`lexes_quietly`] holds.
    pub lexes: bool,
    /// The text may hold a suppression comment (else `comments::scan`
    /// finds none).
    pub directives: bool,
}

/// The prefilter of one vocabulary, built once: a run builds one per
/// configuration for [`survey_with`], where the functions that take a
/// [`Vocabulary`] look theirs up in a per-thread cache, comparing the whole
/// vocabulary at each call.
#[derive(Clone)]
pub struct Prepared(Arc<Filter>);

impl Prepared {
    pub fn new(vocab: &Vocabulary) -> Prepared {
        Prepared(filter_for(vocab))
    }
}

/// [`lexes_quietly`], and whether the text may hold a suppression comment,
/// with one search for the vocabulary's stems, `concat` and the comments'
/// prefix (three passes over the text before). The engine builds the
/// prefilter once ([`survey_with`]); this form is the tests' and the fuzz
/// target's (feature `testing`).
#[cfg(feature = "testing")]
pub fn survey(text: &str, vocab: &Vocabulary) -> Survey {
    survey_with(text, &Prepared::new(vocab))
}

/// [`survey`] with the vocabulary's prefilter built.
pub fn survey_with(text: &str, prepared: &Prepared) -> Survey {
    survey_calls(text, prepared).0
}

/// [`survey_with`], and the names the text calls in code
/// ([`called::Called`]) when the lexer read it to the end (`None` for a
/// file it does not read, or that needs the full parse).
pub fn survey_calls(text: &str, prepared: &Prepared) -> (Survey, Option<Called>) {
    let parseable = parseable_text(text);
    let filter = &*prepared.0;
    let vocab = &filter.vocab;
    let (Some(stems), Some(words)) = (&filter.stems, &filter.words) else {
        let survey = Survey {
            lexes: false,
            directives: true,
        };
        return (survey, None);
    };
    let found = filter.words(words, stems, &parseable);
    // Without `concat` in the text, no `concat!` to read.
    let concat = found.concat || filter.stems_hide_concat;
    let calls = called::Recording::new();
    let lexes = LEXED.with(|cell| {
        let lexed = &mut cell.borrow_mut();
        watching_found(
            filter,
            &parseable,
            None,
            found.candidates,
            Some(&calls),
            |watch| {
                lex_within::<false>(&parseable, watch, lexed)?;
                if concat {
                    lexer::check_concat_text(&parseable, &vocab.canonical)?;
                }
                Ok(())
            },
        )
        .is_ok()
    });
    let called = lexes.then(|| calls.done());
    let survey = Survey {
        lexes: called
            .as_ref()
            .is_some_and(|c| !calls_mechanism(&parseable, c)),
        // A shebang line blanked out is not searched: the file's may hold one.
        directives: found.directive || matches!(parseable, std::borrow::Cow::Owned(_)),
    };
    (survey, called)
}

/// For a file that needs the full parse: its text with the body of every
/// function that holds nothing the walker records blanked out (line breaks
/// kept: offsets, lines and columns are the file's), so that syn parses only
/// the rest; `None` when no body can be. See `bodies`. The suppression
/// comments of blanked bodies are the caller's to read from the file.
pub fn without_quiet_bodies(text: &str, vocab: &Vocabulary) -> Option<String> {
    // A call of the file's own macro may register in its expansion, whatever
    // the call's text names: a file defining one the walker expands keeps
    // every body.
    if defines_expanded_macro(text, vocab) {
        return None;
    }
    // A static `OnceLock` set in a body (`HOOK.set(..)`, issue 29), which
    // names no vocabulary word: that body stays.
    let once = crate::analysis::extract::set_once_statics(text);
    bodies::blanked(&parseable_text(text), vocab, &once)
}

/// The text an item tree is made from (`semantic::Model::build_skimming`):
/// the file's with every function body blanked, line
/// breaks and offsets kept; `None` when nothing can be blanked (the file's
/// own text is then parsed).
pub fn for_item_tree(text: &str) -> Option<String> {
    bodies::fn_bodies_blanked(&parseable_text(text))
}

/// Whether the file defines a `macro_rules!` macro the walker expands at its
/// calls (`analysis::extract::macro_worth_expanding`). Each
/// definition's text is taken from its name to its closing bracket, counted
/// past string literals; with no closing bracket, to the end of the file
/// (more text only makes the answer "yes" more often).
fn defines_expanded_macro(text: &str, vocab: &Vocabulary) -> bool {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, b"macro_rules").any(|at| {
        let end = definition_end(b, at);
        crate::analysis::extract::macro_worth_expanding(&text[at..end], vocab)
    })
}

/// Where the brackets opened after `from` close, strings skipped; the end
/// of the text when they never do.
fn definition_end(b: &[u8], from: usize) -> usize {
    let (mut depth, mut i) = (0usize, from);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1 + usize::from(b[i] == b'\\');
                }
            }
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (i + 1).min(b.len());
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// [`lexes_quietly`] for a file [`quiet`] holds for, faster: no vocabulary
/// stem, `concat` or canonical literal is looked for (the text has none
/// that counts: a literal whose value is a canonical name is written with
/// it between quotes, or with an escape or line continuation), and no
/// token is kept. Not run by the engine (see the module documentation).
#[cfg(feature = "testing")]
pub fn lexes(text: &str) -> bool {
    let text = parseable_text(text);
    LEXED.with(|cell| lex_within::<false>(&text, &UNWATCHED, &mut cell.borrow_mut()).is_ok())
}

/// The lexer watching for nothing: it only reads.
const UNWATCHED: lexer::Watch<'static> = lexer::Watch {
    candidates: &[],
    is_vocabulary: &|_| None,
    platforms: &[],
    normalizers: None,
    calls: None,
};

/// How [`lexer::skim`] and the lexer read `text`, watching the
/// vocabulary's stems as [`lexes_quietly`] does: whether the fast path
/// accepted it, when both agree; `None` when it did not run (no AVX2) or
/// left the nesting to the lexer; else what each said. For the tests that
/// hold the fast path to the lexer (`tests/prefilter.rs`, the fuzz target):
/// feature `testing`.
#[doc(hidden)]
#[cfg(feature = "testing")]
pub fn skim_agrees(text: &str, vocab: &Vocabulary) -> Result<Option<bool>, String> {
    let text = parseable_text(text);
    let compared = watching(&text, None, vocab, |watch| {
        let skimmed = lexer::skim(&text, watch, MAX_NESTING, MAX_CHAIN);
        let lexed = lexer::lex::<false>(&text, watch, &mut lexer::Lexed::default());
        Ok((skimmed, lexed))
    });
    match compared {
        // Beyond what the counts bound, the lexer decides.
        Err(_) | Ok((None | Some(Err(lexer::DEEP)), _)) => Ok(None),
        Ok((Some(skimmed), lexed)) if skimmed == lexed => Ok(Some(skimmed.is_ok())),
        Ok((Some(skimmed), lexed)) => Err(format!("skim: {skimmed:?}, lexer: {lexed:?}")),
    }
}

/// Where a text the skim accepts has comments, as the skim tells its
/// caller ([`lexer::skim_comments`]: the comments whose docs the full parse
/// blanks) and as `syntax::lex::scan` finds them: the same (true when the
/// skim does not accept the text, or cannot run). For the tests and the
/// fuzz target (feature `testing`).
#[doc(hidden)]
#[cfg(feature = "testing")]
pub fn skim_comments_agree(text: &str) -> bool {
    use crate::syntax::lex::{Event, scan};
    let mut skimmed = Vec::new();
    let ok = lexer::skim_comments(text, &UNWATCHED, MAX_NESTING, MAX_CHAIN, |s, e| {
        skimmed.push((s, e))
    });
    if ok != Some(Ok(())) {
        return true;
    }
    let mut scanned = Vec::new();
    scan(text, |e| match e {
        // From its `//` to its line break (a `\r` before it included).
        Event::LineComment(s, _) => {
            let end = text[s..].find('\n').map_or(text.len(), |n| s + n);
            scanned.push((s - 2, end));
        }
        Event::BlockComment(s, e) => scanned.push((s, e)),
        _ => {}
    });
    skimmed == scanned
}

/// Lex, and give up on a file that may nest deeper than the parser accepts.
/// Without tokens, [`lexer::skim`] is tried first: it accepts and rejects
/// as `lexer::lex` does, within the bounds; where it leaves the nesting to
/// the lexer, or cannot run, the lexer decides.
fn lex_within<const TOKENS: bool>(
    text: &str,
    watch: &lexer::Watch<'_>,
    lexed: &mut lexer::Lexed,
) -> Result<(), Bail> {
    if !TOKENS {
        match lexer::skim(text, watch, MAX_NESTING, MAX_CHAIN) {
            None | Some(Err(lexer::DEEP)) => {}
            Some(skimmed) => return skimmed,
        }
    }
    lexer::lex::<TOKENS>(text, watch, lexed)?;
    if lexed.brackets_bound > MAX_NESTING || lexed.chain_bound > MAX_CHAIN {
        return Err(lexer::DEEP);
    }
    Ok(())
}

/// Lex `text` (already [`parseable_text`]) into `lexed`, watching for what
/// makes a file need the full parse.
/// With `tokens` false, no token is kept and each `concat!` is read from the
/// text ([`lexer::check_concat_text`]).
fn lex_checked(
    text: &str,
    vocab: &Vocabulary,
    lexed: &mut lexer::Lexed,
    tokens: bool,
) -> Result<(), Bail> {
    lex_checked_within(text, None, vocab, lexed, tokens)
}

/// [`lex_checked`] of a part of a file (a function's body), with the
/// constants of the whole file (`normalized`).
fn lex_checked_within(
    text: &str,
    file: Option<&normalized::FileConsts<'_>>,
    vocab: &Vocabulary,
    lexed: &mut lexer::Lexed,
    tokens: bool,
) -> Result<(), Bail> {
    watching(text, file, vocab, |watch| {
        lex_watched(text, vocab, watch, lexed, tokens)
    })
}

/// [`lex_checked`] with what the lexer watches for.
fn lex_watched(
    text: &str,
    vocab: &Vocabulary,
    watch: &lexer::Watch<'_>,
    lexed: &mut lexer::Lexed,
    tokens: bool,
) -> Result<(), Bail> {
    if tokens {
        lex_within::<true>(text, watch, lexed)?;
        lexer::check_concat(text, &lexed.toks, &vocab.canonical)
    } else {
        lex_within::<false>(text, watch, lexed)?;
        lexer::check_concat_text(text, &vocab.canonical)
    }
}

/// Run `f` with what the lexer watches for in `text` under `vocab`: the
/// vocabulary's stems and the canonical names.
fn watching<R>(
    text: &str,
    file: Option<&normalized::FileConsts<'_>>,
    vocab: &Vocabulary,
    f: impl FnOnce(&lexer::Watch<'_>) -> Result<R, Bail>,
) -> Result<R, Bail> {
    let filter = filter_for(vocab);
    let Some(matcher) = &filter.stems else {
        return Err("the vocabulary matches every identifier");
    };
    let candidates = filter.candidates(matcher, text);
    watching_found(&filter, text, file, candidates, None, f)
}

/// [`watching`] with the stems found in `text` already. A string
/// normalizer's call stops nothing while `f` lexes: it needs the parse only
/// where the text compares a string it may rule out
/// ([`normalized::compared_ruled_out`]), asked once `f` has lexed it all.
fn watching_found<R>(
    filter: &Filter,
    text: &str,
    consts: Option<&normalized::FileConsts<'_>>,
    candidates: Vec<usize>,
    calls: Option<&called::Recording>,
    f: impl FnOnce(&lexer::Watch<'_>) -> Result<R, Bail>,
) -> Result<R, Bail> {
    let is_vocabulary = |name: &str| filter.is_vocabulary(name);
    let normalizers = RefCell::new(Vec::new());
    let lexed = f(&lexer::Watch {
        candidates: &candidates,
        is_vocabulary: &is_vocabulary,
        platforms: &filter.platforms,
        normalizers: Some(&normalizers),
        calls,
    })?;
    let calls = normalizers.into_inner();
    if !calls.is_empty()
        && let Some(why) = normalized::compared_ruled_out(text, &calls, consts)
    {
        return Err(why);
    }
    Ok(lexed)
}

#[cfg(test)]
mod tests;
