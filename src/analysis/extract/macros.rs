//! Macro invocations whose tokens are Rust code, and `use` trees.

use super::*;

impl Walker<'_> {
    pub(super) fn visit_macro_tokens(&mut self, mac: &syn::Macro) {
        use syn::parse::Parser;
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        match name.as_str() {
            // A template, not code that runs: never analysed.
            "macro_rules" => return,
            // Predicates, not code.
            "cfg" | "concat" | "stringify" | "include_str" | "include" | "env" | "option_env" => {
                return;
            }
            _ => {}
        }
        if self.expand_local(mac, &name) {
            return;
        }
        if let Some(how) = pattern_macro_comparison(&name) {
            if let Ok((e, p, guard)) = parse_matches(&mac.tokens) {
                self.comparisons
                    .compare_with_patterns(&mut self.cx, how, &e, [&p]);
                self.visit_expr(&e);
                if let Some(guard) = guard {
                    self.visit_guard(&e, &p, &guard);
                }
            }
            return;
        }
        if !self.cx.may_hold_facts(mac) && !self.names_a_registry(mac) {
            return;
        }
        if name == "lazy_static" {
            // `static ref NAME: T = expr;` is not item syntax: drop the `ref`s.
            let tokens = drop_static_ref(mac.tokens.clone());
            if let Ok(file) = syn::parse2::<syn::File>(tokens) {
                file.items.iter().for_each(|i| self.visit_item(i));
            }
            return;
        }
        if let Some(args) = parse_args(&mac.tokens) {
            let args: Vec<&Expr> = args.iter().collect();
            self.registrations.mark_failing(&mut self.cx, &name, &args);
            if let Some(how) = value_macro_comparison(&name)
                && args.len() >= 2
            {
                self.comparisons
                    .compare(&mut self.cx, how, args[0], &[args[1]]);
            }
            for arg in args {
                self.visit_expr(arg);
            }
            return;
        }
        if let Ok(stmts) = Parser::parse2(syn::Block::parse_within, mac.tokens.clone()) {
            self.with_scope(|w| stmts.iter().for_each(|s| w.visit_stmt(s)));
            return;
        }
        if let Ok(file) = syn::parse2::<syn::File>(mac.tokens.clone()) {
            file.items.iter().for_each(|i| self.visit_item(i));
        }
    }

    /// A call of one of the file's own `macro_rules!` macros: its expansion
    /// walked as statements, else items, else an expression, with the call
    /// as the place of what it records ([`Cx::expansion`]). `false` when
    /// it is no such call or no rule expands it: then read as any macro.
    fn expand_local(&mut self, mac: &syn::Macro, name: &str) -> bool {
        use syn::parse::Parser;
        /// Expansions inside expansions: deeper is recursion, not code.
        const MAX_DEPTH: u32 = 8;
        let depth = self.cx.expansion.as_ref().map_or(0, |e| e.2);
        if depth >= MAX_DEPTH || mac.path.get_ident().is_none() {
            return false;
        }
        let Some((_, rules)) = self.cx.macros.iter().rev().find(|(n, _)| n == name) else {
            return false;
        };
        let Some(tokens) = expand::expand(&rules.clone(), mac.tokens.clone()) else {
            return false;
        };
        // The outermost call is where a finding points.
        let site = match &self.cx.expansion {
            Some((site, _, _)) => *site,
            None => self.cx.span(mac),
        };
        let outer = match &self.cx.expansion {
            Some((_, outer, _)) => outer.clone(),
            None => name.to_string(),
        };
        let saved = self.cx.expansion.replace((site, outer, depth + 1));
        let walked = if let Ok(stmts) = Parser::parse2(syn::Block::parse_within, tokens.clone()) {
            self.with_scope(|w| stmts.iter().for_each(|s| w.visit_stmt(s)));
            true
        } else if let Ok(file) = syn::parse2::<syn::File>(tokens.clone()) {
            file.items.iter().for_each(|i| self.visit_item(i));
            true
        } else if let Ok(e) = syn::parse2::<Expr>(tokens) {
            self.visit_expr(&e);
            true
        } else {
            false
        };
        self.cx.expansion = saved;
        walked
    }
}

impl<'t> Cx<'t> {
    /// Whether walking a macro's arguments can record anything: false only
    /// when its text names nothing the walk starts a fact from.
    ///
    /// The arguments are parsed up to three times (as expressions, as
    /// statements, as items), which costs more than the rest of the walk
    /// for most macros (`format!`, `vec!`, `quote!`, `json!`...), and none
    /// of them holds anything. What the walk records there needs one of:
    ///
    /// - an identifier of the vocabulary that starts a fact: a registration,
    ///   unregistration, canonicalizer, source, lowering or backend name
    ///   ([`triggers::mentions`]), or the field `platforms` (a guard or a
    ///   run-once method only qualifies a registration written inside it);
    /// - a string literal whose value is a canonical platform (a binding of
    ///   it is canonical), or a `concat!` that may spell one;
    /// - a local bound outside the macro to a raw or canonical value
    ///   (`let first = &ctx.platforms[0]; debug_assert_eq!(*first, "Cpu")`),
    ///   or the parameters of a closure the macro may hold, which the call
    ///   taking it set (`closure_params`);
    /// - an item keyword (`use`, `mod`, `const`, `static`, `struct`,
    ///   `enum`, `union`, `trait`, `type`) before a name (or, for `use`, a
    ///   path): the structure name resolution reads crate-wide.
    ///   `Token![struct]` declares nothing. A `const` counts only before a
    ///   name and a `:` (`const NAME:`, as the prefilter reads it: the item
    ///   keywords of `crate::prefilter`), not in a pointer type (`*const
    ///   GUID`, windows-sys's thousands of `link!` declarations), a borrow
    ///   (`&raw const x`) or a `const fn` (a function, no structure).
    ///
    /// So the macro is skipped when its text (comments and strings
    /// included, which only makes the test stricter) has no such word, no
    /// canonical name (a whole word, when the name is one: the literal
    /// `"cuda"` is, `"libcudart"` is not), and no escape that could spell
    /// one (`\x`, `\u`, a line continuation). [`walk_every_macro`] turns this off;
    /// `tests/macros.rs` checks that the findings are the same either way.
    fn may_hold_facts(&self, mac: &syn::Macro) -> bool {
        if every_macro() || self.closure_params.is_some() {
            return true;
        }
        let range = self.lines().range(mac.delimiter.span().join());
        let platform_local = |word: &str| {
            self.lookup(word)
                .is_some_and(|b| matches!(b.value, Operand::Raw | Operand::Canonical))
        };
        match self.text.get(range) {
            Some(text) if !text.is_empty() => {
                text_may_hold_facts(text, self.vocab, self.mentioned, platform_local)
            }
            // Tokens made here, not read from the file: no text to look at.
            _ => true,
        }
    }
}

impl Walker<'_> {
    /// Whether a macro's text, in a test, calls a method of a registry the
    /// function has registered on (`assert_eq!(set.poll_next(cx), ..)`
    /// between two `set.add("a")`): a [`crate::model::facts::RegistryCall`]
    /// to keep.
    fn names_a_registry(&self, mac: &syn::Macro) -> bool {
        // Only a test's calls between two registrations are read
        // (`duplicate_registration::used_between`).
        if self.cx.ctx.test_scope.is_none() {
            return false;
        }
        let range = self.cx.lines().range(mac.delimiter.span().join());
        let Some(text) = self.cx.text.get(range) else {
            return false;
        };
        let function = self.cx.ctx.function;
        self.registrations.registered_in(function).any(|r| {
            let written = match r {
                crate::model::facts::Registry::Local { text, .. }
                | crate::model::facts::Registry::Param { text, .. }
                | crate::model::facts::Registry::SelfField { text, .. } => text.as_str(),
                _ => return false,
            };
            memchr::memmem::find_iter(text.as_bytes(), written.as_bytes()).any(|at| {
                let before = at.checked_sub(1).map(|i| text.as_bytes()[i]);
                let after = text.as_bytes().get(at + written.len());
                !before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
                    && after == Some(&b'.')
            })
        })
    }

    pub(super) fn visit_closure_with(&mut self, e: &Expr, params: Option<(Operand, String)>) {
        self.cx.closure_params = params;
        self.visit_expr(e);
        self.cx.closure_params = None;
    }
}

/// Whether a `macro_rules!` definition is worth expanding at its calls:
/// its text names something a fact starts from ([`triggers::mentions`]:
/// a registration, a rejection, a switch, a platform source ...). Most
/// local macros generate impls and items and hold none; the arguments of
/// their calls are still read as any macro's.
pub(crate) fn macro_worth_expanding(text: &str, vocab: &Vocabulary) -> bool {
    let firsts = triggers::mention_firsts(vocab);
    words(text).any(|w| firsts.admits(w) && triggers::mentions(vocab, w))
}

/// The identifiers of a text, comments and strings included.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
}

/// `static ref X` -> `static X`, as `lazy_static!` writes its items.
pub(super) fn drop_static_ref(tokens: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let mut out = Vec::new();
    let mut after_static = false;
    for tt in tokens {
        if let proc_macro2::TokenTree::Ident(i) = &tt {
            if after_static && i == "ref" {
                after_static = false;
                continue;
            }
            after_static = i == "static";
        } else {
            after_static = false;
        }
        out.push(tt);
    }
    out.into_iter().collect()
}

/// `use a::{b as c, d::*}` as one [`UseDecl`] per name.
pub(crate) fn flatten_use(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    scope: u32,
    out: &mut Vec<UseDecl>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, scope, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let (alias, target) = if name == "self" {
                (prefix.last().cloned(), prefix.clone())
            } else {
                let mut t = prefix.clone();
                t.push(name.clone());
                (Some(name), t)
            };
            out.push(UseDecl {
                scope,
                alias,
                target,
            });
        }
        syn::UseTree::Rename(r) => {
            let mut target = prefix.clone();
            let name = r.ident.to_string();
            if name != "self" {
                target.push(name);
            }
            out.push(UseDecl {
                scope,
                alias: Some(r.rename.to_string()),
                target,
            });
        }
        syn::UseTree::Glob(_) => out.push(UseDecl {
            scope,
            alias: None,
            target: prefix.clone(),
        }),
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .for_each(|t| flatten_use(t, prefix, scope, out)),
    }
}

/// See [`Cx::may_hold_facts`]; `mentioned` is `vocab`'s
/// [`triggers::mention_firsts`].
pub(crate) fn text_may_hold_facts(
    text: &str,
    vocab: &Vocabulary,
    mentioned: crate::config::FirstBytes,
    platform_local: impl Fn(&str) -> bool,
) -> bool {
    let b = text.as_bytes();
    // A canonical name that is a word (`cuda`) is found as one below; any
    // other (`gpu:0`) anywhere in the text.
    let is_word = |c: &str| {
        c.bytes()
            .next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == b'_')
            && c.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    // An escape that could spell a name, or a line continuation: one pass
    // over the backslashes.
    if memchr::memchr_iter(b'\\', b)
        .any(|i| matches!(b.get(i + 1), Some(b'x' | b'u' | b'\n' | b'\r')))
        || (vocab.canonical.iter())
            .filter(|c| !is_word(c))
            .any(|c| memchr::memmem::find(b, c.as_bytes()).is_some())
    {
        return true;
    }
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        // A word that starts after a digit is a number's suffix (`1u8`).
        if start > 0 && b[start - 1].is_ascii_digit() {
            continue;
        }
        let word = &text[start..i];
        let item = || {
            let after = text[i..].trim_start().as_bytes();
            // A name, or a comment that may come before it.
            let name = after
                .first()
                .is_some_and(|&c| c.is_ascii_alphabetic() || matches!(c, b'_' | b'/') || c >= 0x80);
            name || (word == "use" && matches!(after.first(), Some(b':' | b'{')))
        };
        let item_keyword = match word {
            "use" | "mod" | "static" | "struct" | "enum" | "union" | "trait" | "type" => true,
            "const" => const_item(&text[i..]),
            _ => false,
        };
        if (item_keyword && item())
            || matches!(word, "concat" | crate::config::PLATFORMS_FIELD)
            || (mentioned.admits(word) && triggers::mentions(vocab, word))
            || vocab.canonical.iter().any(|c| c == word)
            || platform_local(word)
        {
            return true;
        }
    }
    false
}

/// Whether a `const` followed by `after` may be a `const` item's: a name
/// (or `_`) and a lone `:` come next. A comment where they would be may
/// hide them: yes.
fn const_item(after: &str) -> bool {
    let after = after.trim_start();
    let name = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    let rest = after[name..].trim_start();
    after.starts_with('/')
        || rest.starts_with('/')
        || (name > 0 && rest.starts_with(':') && !rest.starts_with("::"))
}

#[cfg(feature = "testing")]
static EVERY_MACRO: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Walk every macro, even those whose text names nothing a fact starts
/// from: the reference the skip is tested against. Process-wide; only in
/// builds with the `testing` feature.
#[cfg(feature = "testing")]
pub fn walk_every_macro(on: bool) {
    EVERY_MACRO.store(on, std::sync::atomic::Ordering::Relaxed);
}

fn every_macro() -> bool {
    #[cfg(feature = "testing")]
    return EVERY_MACRO.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "testing"))]
    false
}

#[cfg(test)]
mod tests {
    use super::text_may_hold_facts;
    use crate::config::Vocabulary;

    fn holds(text: &str) -> bool {
        let vocab = Vocabulary::default();
        text_may_hold_facts(
            text,
            &vocab,
            super::super::triggers::mention_firsts(&vocab),
            |_| false,
        )
    }

    #[test]
    fn a_const_item_holds_facts_a_pointer_type_does_not() {
        assert!(holds("const CPU: &str = \"cpu\";"));
        assert!(holds("const _: () = ();"));
        assert!(holds("const /* c */ KEY: u8 = 1;"));
        // What comes before does not matter (a comment ending in `raw`, `*`).
        assert!(holds("// stored raw\nconst KEY: &str = names::CPU;"));
        assert!(holds("/// as *\nconst KEY: &str = names::CPU;"));
        assert!(!holds("pub const fn f() {}"));
        assert!(!holds(
            "\"ole32.dll\" \"system\" fn CoCreateInstance(rclsid : *const GUID, ppv : *mut *const c_void) -> HRESULT"
        ));
        assert!(!holds("&raw const X"));
        assert!(!holds("fn f(p: *const c::c_char) {}"));
    }

    #[test]
    fn a_canonical_name_holds_facts_as_a_word() {
        assert!(holds("assert_eq!(p, \"cuda\")"));
        assert!(!holds("assert_eq!(p, \"libcudart\")"));
    }
}
