//! A byte-level reader of the text around a rejection word
//! (`contains_key`, `Occupied`, `insert`, ..): whether it has the shape of a
//! registry rejecting a second key. The prefilter asks it before parsing a
//! file, and the function summaries ask it again on the parsed file, so that
//! both see the same rejections (`analysis::extract::summary`).

/// The rejection words that are everyday method names: a rejection only in
/// the shapes [`rejection_in_context`] reads, not a name worth parsing a
/// macro for (`analysis::extract::triggers::mentions`).
pub const CALL_REJECTIONS: &[&str] = &["contains", "insert", "is_some", "is_none"];

/// What a rejection inserts with, within 1,000 bytes after the rejection
/// word (also the word itself: `!names.insert(`, `insert(..).is_some()`);
/// an `Occupied` arm's `Vacant(v)` twin inserts with `v.insert(..)`.
pub const INSERTION: &[u8] = b"insert(";

/// Whether the rejection word at `start..end` of `text` may be a registry
/// rejecting a second key, as the function summary can read one
/// (`analysis::extract::summary`):
/// - `contains_key` checked as written (`if self.map.contains_key(&k)`)
///   with a failure (`bail!`, `panic!`, `Err(`, `unreachable!`) within 300
///   bytes after it, or negated (`!self.map.contains_key(&k)`) right after
///   `assert!`/`ensure!`;
/// - `Occupied` as a pattern (`Entry::Occupied(_) =>`, `if let
///   Occupied(e) =`, not `Entry::Occupied(OccupiedEntry { .. })`), with a
///   failure within 300 bytes after it;
/// - both with an insertion (`insert(`, the `Vacant` arm's too) within
///   1,000 bytes after;
/// - the words of [`CALL_REJECTIONS`], everyday method names, only called
///   right away (`insert(`) and in their shape, closing an `if` condition (`) {` follows; or in `assert!`),
///   with a key (the first argument of the call checked) that a parameter
///   of the function's signature typed as a string (`&str`, `String`) is:
///   `contains(` as above; `!<receiver>.insert(` failing within 300 bytes;
///   `get(..).is_some()` failing within 300 bytes and inserting;
///   `insert(..).is_some()` failing within 300 bytes; `get(..).is_none()`
///   inserting and failing within 1,000;
/// - and always in a function that takes a parameter (`name: T`; a key
///   comes from one): not a test's `fn t() {`.
///
/// Each window ends at a `fn` keyword. The walker and the prefilter both
/// ask this, on the text of one function (bodies the prefilter blanks are
/// other functions'): most maps checked with `contains_key` are lookups, and
/// parsing every file holding one cost the default mode a third of its
/// speed.
pub fn rejection_in_context(text: &[u8], start: usize, end: usize) -> bool {
    use memchr::memmem::{find, rfind};
    let (start, end) = (start.min(text.len()), end.min(text.len()));
    // Called right away (`insert(`, not `insert (`): what the prefilter
    // looks for, as these words are too common to look for alone.
    if text.get(end) != Some(&b'(')
        && CALL_REJECTIONS.contains(&std::str::from_utf8(&text[start..end]).unwrap_or(""))
    {
        return false;
    }
    let after = until_fn(&text[end..(end + 1000).min(text.len())]);
    let near = &after[..after.len().min(300)];
    let before = &text[start.saturating_sub(60)..start];
    let before = match rfind_fn(before) {
        Some(at) => &before[at..],
        None => before,
    };
    let fails_in = |t: &[u8]| {
        ["bail!", "panic!", "Err(", "unreachable!"]
            .iter()
            .any(|w| find(t, w.as_bytes()).is_some())
    };
    let asserted = || {
        ["assert!", "ensure!"]
            .iter()
            .any(|w| rfind(before, w.as_bytes()).is_some())
    };
    let inserts = || find(after, INSERTION).is_some();
    let key_is_param = |args: usize| first_arg_is_param(text, args, start);
    let shape = match &text[start..end] {
        b"contains_key" if negated_call(text, start) => asserted() && inserts(),
        b"contains_key" => fails_in(near) && inserts(),
        b"Occupied" => fails_in(near) && is_pattern(text, end) && inserts(),
        b"contains" => {
            ((fails_in(near) && then_block(text, end)) || asserted())
                && inserts()
                && key_is_param(end)
        }
        b"insert" => {
            negated_call(text, start)
                && then_block(text, end)
                && fails_in(near)
                && key_is_param(end)
        }
        word @ (b"is_some" | b"is_none") => {
            let Some((callee, args)) = call_before(&text[..start]) else {
                return false;
            };
            let shape = match (word, callee) {
                (b"is_some", b"get") => fails_in(near) && inserts(),
                // `insert(` as written: what the prefilter looks for first.
                (b"is_some", b"insert") => fails_in(near) && text[..args].ends_with(b"insert("),
                (b"is_none", b"get") => inserts() && fails_in(after),
                _ => false,
            };
            shape && then_block(text, end) && key_is_param(args)
        }
        _ => false,
    };
    shape && takes_parameters(text, start)
}

/// The call `text` ends with before a `.`: `get(&k).` gives `get` and where
/// its arguments start (after the `(`).
fn call_before(text: &[u8]) -> Option<(&[u8], usize)> {
    let rest = text.trim_ascii_end().strip_suffix(b".")?.trim_ascii_end();
    let close = rest.len().checked_sub(1).filter(|&i| rest[i] == b')')?;
    let mut depth = 0usize;
    let open = (close.saturating_sub(300)..=close).rev().find(|&i| {
        match rest[i] {
            b')' => depth += 1,
            b'(' => depth -= 1,
            _ => {}
        }
        depth == 0
    })?;
    let name = rest[..open].trim_ascii_end();
    let from = name
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .map_or(0, |i| i + 1);
    Some((&name[from..], open + 1))
}

/// The first argument of the call whose arguments start at `args` (after
/// its `(`, or before it) is rooted at a name of the signature of the
/// function around `at`: `&name`, `name.clone()`, `*k`; not `self`. With
/// no signature in the 4,000 bytes before `at` (a long function, or a body
/// checked alone), any name may be one.
fn first_arg_is_param(text: &[u8], args: usize, at: usize) -> bool {
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    let mut rest = text.get(args..).unwrap_or_default().trim_ascii_start();
    rest = rest.strip_prefix(b"(").unwrap_or(rest);
    loop {
        rest = rest.trim_ascii_start();
        rest = match rest {
            [b'&' | b'*', tail @ ..] => tail,
            [b'm', b'u', b't', c, tail @ ..] if c.is_ascii_whitespace() => tail,
            _ => break,
        };
    }
    let len = rest.iter().position(|c| !word(c)).unwrap_or(rest.len());
    let root = &rest[..len];
    if root.is_empty() || root == b"self" || root[0].is_ascii_digit() {
        return false;
    }
    let Some(signature) = enclosing_signature(text, at, 4000) else {
        return true;
    };
    // `name: &str`, `name: String`, `name: impl Into<String>`: a registry
    // of names (a set of state ids rejecting one seen twice is none).
    memchr::memmem::find_iter(signature, root).any(|i| {
        let rest = &signature[i + root.len()..];
        let Some(ty) = rest.trim_ascii_start().strip_prefix(b":") else {
            return false;
        };
        let ty = &ty[..ty
            .iter()
            .position(|c| matches!(c, b',' | b')'))
            .unwrap_or(ty.len())];
        let joined = i > 0 && word(&signature[i - 1]);
        !joined
            && !ty.starts_with(b":")
            && memchr::memmem::find(&ty.to_ascii_lowercase(), b"str").is_some()
    })
}

/// The text after a call whose name ends at `end` closes it and opens a
/// block: `is_some() {`, `insert(name.clone()) {`, the end of an `if`
/// condition.
fn then_block(text: &[u8], end: usize) -> bool {
    let rest = text.get(end..).unwrap_or_default().trim_ascii_start();
    let Some(rest) = rest.strip_prefix(b"(") else {
        return false;
    };
    let mut depth = 1usize;
    let Some(close) = rest.iter().take(300).position(|&c| {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        depth == 0
    }) else {
        return false;
    };
    rest[close + 1..].trim_ascii_start().starts_with(b"{")
}

/// Whether the method call whose name starts at `at` is negated: a `!`
/// before its receiver (`!self.map[i].contains_key`, `!(m.contains_key`).
fn negated_call(text: &[u8], at: usize) -> bool {
    let mut i = at;
    while i > 0 {
        let c = text[i - 1];
        if c.is_ascii_alphanumeric()
            || matches!(c, b'_' | b'.' | b':' | b' ' | b'\t' | b'\n' | b'\r' | b'(')
        {
            i -= 1;
        } else if matches!(c, b']' | b')') {
            // A whole index or call of the receiver (`self.maps[k]`).
            let (close, open) = if c == b']' {
                (b']', b'[')
            } else {
                (b')', b'(')
            };
            let mut depth = 0usize;
            while i > 0 {
                i -= 1;
                if text[i] == close {
                    depth += 1;
                } else if text[i] == open {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
        } else {
            return c == b'!';
        }
    }
    false
}

/// Whether `Occupied` ending at `end` is a pattern: after its fields (a
/// bracketed group), `=>`, `=` (`if let`), `|` or a guard's `if`. Also
/// when the group does not close within 300 bytes (it cannot tell).
fn is_pattern(text: &[u8], end: usize) -> bool {
    let blank = |c: u8| c.is_ascii_whitespace();
    let mut i = end;
    while text.get(i).is_some_and(|&c| blank(c)) {
        i += 1;
    }
    if let Some(&open @ (b'(' | b'{')) = text.get(i) {
        let close = if open == b'(' { b')' } else { b'}' };
        let mut depth = 0usize;
        loop {
            match text.get(i) {
                None => return true,
                Some(&c) if c == open => depth += 1,
                Some(&c) if c == close => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
            if i > end + 300 {
                return true;
            }
        }
    }
    while text.get(i).is_some_and(|&c| blank(c)) {
        i += 1;
    }
    let rest = &text[i.min(text.len())..];
    rest.starts_with(b"=>")
        || (rest.starts_with(b"=") && !rest.starts_with(b"=="))
        || rest.starts_with(b"|")
        || (rest.starts_with(b"if")
            && rest
                .get(2)
                .is_some_and(|&c| !c.is_ascii_alphanumeric() && c != b'_'))
}

/// Whether the function around `at` takes a parameter: its signature has
/// a lone `:` (`key: &str`; `::` is a path). `fn register(&mut self)` and a
/// test's `fn t()` take none, and no key can come from them. True when it
/// cannot tell (no signature within 64 KiB).
fn takes_parameters(text: &[u8], at: usize) -> bool {
    enclosing_signature(text, at, 64 * 1024).is_none_or(|sig| {
        (0..sig.len()).any(|i| {
            sig[i] == b':' && sig.get(i + 1) != Some(&b':') && (i == 0 || sig[i - 1] != b':')
        })
    })
}

/// The signature (from `fn` to its body's `{`) of the innermost function
/// whose body holds `at`, within `window` bytes before it; `None` when it
/// cannot tell (none there, or more than 64 functions before `at` whose
/// bodies close first). A function nested before `at` is passed over by its
/// braces, so a body the prefilter blanks gives the same answer.
fn enclosing_signature(text: &[u8], at: usize, window: usize) -> Option<&[u8]> {
    let from = at.saturating_sub(window);
    let mut end = at;
    for _ in 0..64 {
        let fn_at = from + rfind_fn(&text[from..end])?;
        let open = fn_at + memchr::memchr(b'{', &text[fn_at..at])?;
        let mut depth = 0usize;
        let closes_before = text[open..at].iter().any(|&c| {
            match c {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            depth == 0
        });
        if !closes_before {
            return Some(&text[fn_at..open]);
        }
        end = fn_at;
    }
    None
}

/// `text` up to its first `fn` keyword.
fn until_fn(text: &[u8]) -> &[u8] {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let at = memchr::memmem::find_iter(text, b"fn").find(|&i| {
        !(i > 0 && word(text[i - 1])) && text.get(i + 2).is_some_and(|c| c.is_ascii_whitespace())
    });
    &text[..at.unwrap_or(text.len())]
}

/// Where the last `fn` keyword of `text` starts.
fn rfind_fn(text: &[u8]) -> Option<usize> {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    memchr::memmem::rfind_iter(text, b"fn").find(|&i| {
        !(i > 0 && word(text[i - 1])) && text.get(i + 2).is_some_and(|c| c.is_ascii_whitespace())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyday_rejection_words_count_in_their_shape_only() {
        let at = |text: &str, word: &str| {
            let start = text.find(word).unwrap();
            rejection_in_context(text.as_bytes(), start, start + word.len())
        };
        let f = |body: &str| format!("fn add(&mut self, name: &str, f: F) {{ {body} }}");
        let yes = [
            (
                "if !self.names.insert(name.to_string()) { return Err(e); }",
                "insert",
            ),
            (
                "if self.names.contains(name) { bail!(\"x\") } self.names.insert(name);",
                "contains",
            ),
            (
                "if self.m.get(name).is_some() { return Err(e); } self.m.insert(name, f);",
                "is_some",
            ),
            (
                "if self.m.insert(name, f).is_some() { panic!(\"again\") }",
                "is_some",
            ),
            (
                "if self.m.get(name).is_none() { self.m.insert(name, f); Ok(()) } else { Err(e) }",
                "is_none",
            ),
        ];
        for (body, word) in yes {
            assert!(at(&f(body), word), "{body}");
        }
        let no = [
            // Not an `if` condition, not negated, a key that is no parameter.
            (
                "let full = self.m.get(name).is_none(); self.m.insert(name, f); Err(e)",
                "is_none",
            ),
            (
                "if self.names.insert(name.to_string()) { return Err(e); }",
                "insert",
            ),
            (
                "if !self.names.insert(self.cur.clone()) { return Err(e); }",
                "insert",
            ),
        ];
        for (body, word) in no {
            assert!(!at(&f(body), word), "{body}");
        }
        // A set of state ids, not of names.
        let ids = "fn push(&mut self, id: StateID) { if !self.seen.insert(id) { return Err(e); } }";
        assert!(!at(ids, "insert"));
        // Called right away only: what the prefilter looks for.
        assert!(!at(
            &f("if !self.names.insert (name.to_string()) { return Err(e); }"),
            "insert"
        ));
    }

    #[test]
    fn a_rejection_is_read_as_the_summary_reads_one() {
        let at = |text: &str, word: &str| {
            let start = text.rfind(word).unwrap();
            rejection_in_context(text.as_bytes(), start, start + word.len())
        };
        let f = |body: &str| format!("fn add(&mut self, key: &str, f: F) {{ {body} }}");
        let yes = [
            (
                "if self.m.contains_key(key) { bail!(\"x\") } self.m.insert(key, f);",
                "contains_key",
            ),
            (
                "assert!(!self.m[0].contains_key(key)); self.m[0].insert(key, f);",
                "contains_key",
            ),
            (
                "match self.m.entry(key) { Entry::Occupied(_) => Err(e), Entry::Vacant(v) => { v.insert(f); Ok(()) } }",
                "Occupied",
            ),
            (
                "if let Occupied(e) = self.m.entry(key) { panic!() } self.m.insert(key, f);",
                "Occupied",
            ),
            (
                "match self.m.entry(key) { Occupied { .. } | Gone => Err(e), Vacant(v) => v.insert(f) }",
                "Occupied",
            ),
            // A function nested before the check is passed over by its braces.
            (
                "fn inner() { } if self.m.contains_key(key) { bail!(\"x\") } self.m.insert(key, f);",
                "contains_key",
            ),
        ];
        for (body, word) in yes {
            assert!(at(&f(body), word), "{body}");
        }
        let no = [
            // Negated in an `if`: a lookup that fails when the key is missing.
            (
                "if !self.m.contains_key(key) { self.m.insert(key, f); } else { bail!(\"x\") }",
                "contains_key",
            ),
            // Built, not matched.
            (
                "let e = Entry::Occupied(OccupiedEntry { key }); if x { panic!() } self.m.insert(key, f);",
                "Occupied",
            ),
            // No insertion as a registry inserts (`Vacant` alone).
            (
                "match self.m.entry(key) { Entry::Occupied(_) => Err(e), Entry::Vacant(v) => Ok(v) }",
                "Occupied",
            ),
        ];
        for (body, word) in no {
            assert!(!at(&f(body), word), "{body}");
        }
        // A test's function takes no parameter: no key comes from one.
        let test = "#[test] fn t() { let mut m = M::new(); match m.entry(1) { Occupied(_) => panic!(), Vacant(v) => { v.insert(2); } } }";
        assert!(!at(test, "Occupied"));
        // With no signature in view (a body checked alone), it cannot tell.
        assert!(at(
            "{ if self.m.contains_key(key) { bail!(\"x\") } self.m.insert(key, f); }",
            "contains_key"
        ));
    }
}
