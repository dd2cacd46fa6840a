//! Structure-only extraction: the items of a file, read from its tokens
//! without parsing function bodies, expressions or types.
//!
//! It records what the walker (`analysis::extract`) records for items, with
//! the walker's own code where it matters (`flatten_use`, `str_expr`,
//! `Cfg::from_attr`, `path_attr`, on what syn parses for it): `use` trees,
//! `const`/`static` names and string values, `mod` declarations with their
//! `cfg`s and `#[path]`, inline module scopes, and type names. Everything else
//! is skipped as balanced token groups.
//!
//! What is skipped may hold items the walker records and that name
//! resolution sees crate-wide (the by-name fallback, aliases, local names):
//! `fn f() { use x::Y as Z; const N: &str = ".."; }`, a `struct` in a macro's
//! arguments. So every token that can begin such an item ([`item_keywords`])
//! must be accounted for: read as that item here, inside a macro the walker
//! never reads (`cfg!`, `include!`..., `macro_rules!` unless the walker
//! expands it: then the file is parsed in full), or inside an item that
//! is handed whole to syn and the walker ([`extract_item`]), whose facts are
//! then placed in the item's module. Anything else, and the reader gives up
//! and the file is parsed in full.
//!
//! Not reproduced: the ids of function body scopes ([`ScopeSegment::Block`])
//! and the scopes of bodies without items. Only code in that body can name
//! what is declared in it, and this reader only runs on files whose code
//! names no registration, comparison or lowering, so no path is ever
//! resolved there.

use syn::parse::Parser;

use super::Bail;
use super::lexer::{Kind, Tok};
use crate::analysis::extract::{AnyItem, extract_item, flatten_use, path_attr};
use crate::analysis::values::const_value;
use crate::config::{Names, Vocabulary};
use crate::model::cfg::Cfg;
use crate::model::facts::{
    ConstDef, ConstValue, FileFacts, FnDef, ModDecl, ScopeIndex, ScopeSegment,
};

/// Macros whose tokens the walker never reads as code (`visit_macro_tokens`).
const UNREAD_MACROS: &[&str] = &[
    "macro_rules",
    "cfg",
    "concat",
    "stringify",
    "include_str",
    "include",
    "env",
    "option_env",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// A file or an inline module.
    Module,
    /// The body of an `impl`.
    Impl,
    /// The body of a `trait`.
    Trait,
    /// An `extern` block.
    Extern,
}

struct Reader<'a> {
    text: &'a str,
    toks: &'a [Tok],
    vocab: &'a Vocabulary,
    facts: FileFacts,
    /// Where each module path is in `facts.scopes`.
    scope_index: ScopeIndex,
    /// [`item_keywords`] of the file.
    keywords: Vec<u32>,
    /// Token ranges (inclusive, in order) whose item keywords are accounted
    /// for: an item keyword read as its item, a macro the walker never
    /// reads, an item handed to the walker.
    covered: Vec<(u32, u32)>,
}

/// The structure facts of a file, or why it must be parsed in full.
pub(super) fn structure(text: &str, toks: &[Tok], vocab: &Vocabulary) -> Result<FileFacts, Bail> {
    let mut r = Reader {
        text,
        toks,
        vocab,
        facts: FileFacts::default(),
        scope_index: ScopeIndex::default(),
        keywords: item_keywords(text, toks),
        covered: Vec::new(),
    };
    let (start, inner) = r.inner_attrs(0, toks.len());
    let mut cfgs: Vec<Cfg> = r
        .attrs(inner, true)?
        .iter()
        .filter_map(Cfg::from_attr)
        .collect();
    r.items(start, toks.len(), Level::Module, 0, &mut cfgs)?;
    r.all_keywords_covered()?;
    Ok(r.facts)
}

/// Token indexes that can begin an item the walker records: `mod`, `struct`,
/// `enum`, `trait`, `type`, `static` (also `lazy_static!`'s `static ref`)
/// and `union`, each followed by a name; `use` followed by a name, `::` or
/// `{`; and `const NAME:` unless it follows `<` or
/// `,` (a const generic parameter: no item ever follows those) or the `:`
/// is half of a `::` (`*const c::c_char`).
pub(super) fn item_keywords(text: &str, toks: &[Tok]) -> Vec<u32> {
    let is_word = |i: usize| toks.get(i).is_some_and(|t| t.kind == Kind::Ident);
    let punct = |i: usize, c: u8| {
        toks.get(i)
            .is_some_and(|t| t.kind == Kind::Punct && t.byte == c)
    };
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident {
            continue;
        }
        let keyword = match &text[t.start as usize..t.end as usize] {
            // An item names itself (or its path) next: `Token![use]`,
            // `static ||` and `$vis struct $name` begin none.
            "mod" | "struct" | "enum" | "trait" | "type" | "static" | "union" => is_word(i + 1),
            "use" => {
                is_word(i + 1)
                    || punct(i + 1, b':')
                    || toks
                        .get(i + 1)
                        .is_some_and(|t| t.kind == Kind::Open && t.byte == b'{')
            }
            "const" => {
                is_word(i + 1)
                    && punct(i + 2, b':')
                    && !path_separator(toks, i + 2)
                    && !(i > 0 && (punct(i - 1, b'<') || punct(i - 1, b',')))
            }
            _ => false,
        };
        if keyword {
            out.push(i as u32);
        }
    }
    out
}

/// `::` at `i`: two colons with nothing between them.
fn path_separator(toks: &[Tok], i: usize) -> bool {
    match (toks.get(i), toks.get(i + 1)) {
        (Some(a), Some(b)) => {
            a.kind == Kind::Punct
                && a.byte == b':'
                && b.kind == Kind::Punct
                && b.byte == b':'
                && a.end == b.start
        }
        _ => false,
    }
}

impl<'a> Reader<'a> {
    fn word(&self, i: usize) -> Option<&'a str> {
        self.toks
            .get(i)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| &self.text[t.start as usize..t.end as usize])
    }

    fn punct(&self, i: usize, c: u8) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == Kind::Punct && t.byte == c)
    }

    fn open(&self, i: usize, c: u8) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == Kind::Open && t.byte == c)
    }

    fn partner(&self, i: usize) -> usize {
        self.toks[i].partner as usize
    }

    /// Tokens `a` and `b` touch (`>=` rather than `> =`).
    fn joint(&self, a: usize, b: usize) -> bool {
        self.toks[a].end == self.toks[b].start
    }

    /// The source text of tokens `from..to`.
    fn slice(&self, from: usize, to: usize) -> &'a str {
        if from >= to {
            return "";
        }
        &self.text[self.toks[from].start as usize..self.toks[to - 1].end as usize]
    }

    /// An item keyword in tokens `from..to`, other than `except`.
    fn keyword_in(&self, from: usize, to: usize, except: Option<usize>) -> bool {
        let first = self.keywords.partition_point(|&k| (k as usize) < from);
        self.keywords[first..]
            .iter()
            .take_while(|&&k| (k as usize) < to)
            .any(|&k| Some(k as usize) != except)
    }

    fn cover(&mut self, from: usize, to: usize) {
        self.covered.push((from as u32, to as u32));
    }

    /// `#![..]` attributes at `i`: where the items start, and the attributes' tokens.
    fn inner_attrs(&self, mut i: usize, end: usize) -> (usize, (usize, usize)) {
        let start = i;
        while i + 2 < end
            && self.punct(i, b'#')
            && self.punct(i + 1, b'!')
            && self.open(i + 2, b'[')
        {
            i = self.partner(i + 2) + 1;
        }
        (i, (start, i))
    }

    /// The attributes written in tokens `range`, parsed by syn.
    fn attrs(&self, range: (usize, usize), inner: bool) -> Result<Vec<syn::Attribute>, Bail> {
        if range.0 == range.1 {
            return Ok(Vec::new());
        }
        let text = self.slice(range.0, range.1);
        let parsed = if inner {
            syn::Attribute::parse_inner.parse_str(text)
        } else {
            syn::Attribute::parse_outer.parse_str(text)
        };
        parsed.map_err(|_| "attributes syn does not parse")
    }

    /// The first `;` at this bracket level from `i`, groups skipped; with
    /// `brace`, a `{..}` group ends the search too. Its index.
    fn end_of(&self, mut i: usize, end: usize, brace: bool) -> Result<usize, Bail> {
        while i < end {
            let t = &self.toks[i];
            match t.kind {
                Kind::Punct if t.byte == b';' => return Ok(i),
                Kind::Open if brace && t.byte == b'{' => return Ok(i),
                Kind::Open => i = t.partner as usize + 1,
                _ => i += 1,
            }
        }
        Err("an item without its end")
    }

    /// After an item that ends with a `;` or a `{..}` found by [`Self::end_of`].
    fn after(&self, at: usize) -> usize {
        if self.open(at, b'{') {
            self.partner(at) + 1
        } else {
            at + 1
        }
    }

    fn items(
        &mut self,
        mut i: usize,
        end: usize,
        level: Level,
        scope: u32,
        cfgs: &mut Vec<Cfg>,
    ) -> Result<(), Bail> {
        while i < end {
            let start = i;
            while self.punct(i, b'#') && self.open(i + 1, b'[') {
                i = self.partner(i + 1) + 1;
            }
            let attrs = (start, i);
            let public = self.word(i) == Some("pub");
            if public {
                i += 1;
                if self.open(i, b'(') {
                    i = self.partner(i) + 1;
                }
            }
            // Qualifiers of fns, impls, traits and foreign items.
            let quals = i;
            let mut abi = false;
            loop {
                let next_is_word = self.word(i + 1).is_some();
                match self.word(i) {
                    Some("unsafe" | "async" | "default" | "safe" | "auto") if next_is_word => {
                        i += 1
                    }
                    Some("const")
                        if matches!(
                            self.word(i + 1),
                            Some("fn" | "unsafe" | "async" | "extern")
                        ) =>
                    {
                        i += 1
                    }
                    Some("extern") if self.word(i + 1) != Some("crate") => {
                        let literal = matches!(
                            self.toks.get(i + 1).map(|t| t.kind),
                            Some(Kind::Str | Kind::Lit)
                        );
                        i += 1 + usize::from(literal);
                        abi = true;
                    }
                    _ => break,
                }
            }
            if abi && self.open(i, b'{') && level == Level::Module {
                // An `extern` block: nothing in it is recorded but what its
                // macros may hold.
                let close = self.partner(i);
                let (body, _) = self.inner_attrs(i + 1, close);
                self.items(body, close, Level::Extern, scope, cfgs)?;
                i = close + 1;
                continue;
            }
            let qualified = i > quals;
            let Some(keyword) = self.word(i) else {
                return Err("an item the prefilter does not read");
            };
            let own = Some(i);
            // Items whose insides are skipped: their end, and whether the
            // keyword starts what the walker records (then it is read here).
            let (next, leaf): (usize, bool) = match (keyword, level) {
                ("fn", _) => {
                    let body = self.end_of(i + 1, end, true)?;
                    if level == Level::Module {
                        self.canonicalizer(quals, body, public, scope);
                    }
                    (self.after(body), false)
                }
                ("impl" | "trait", Level::Module) => {
                    let at = self.end_of(i + 1, end, true)?;
                    let next = self.after(at);
                    if !self.open(at, b'{') || self.keyword_in(start, at, own) {
                        // A trait alias, or a header with an item in it.
                        self.delegate(level, start, next, scope, cfgs)?;
                    } else {
                        if keyword == "trait" {
                            self.cover(i, i);
                            self.type_name(i + 1)?;
                        }
                        let inner = if keyword == "trait" {
                            Level::Trait
                        } else {
                            Level::Impl
                        };
                        let close = self.partner(at);
                        let (body, _) = self.inner_attrs(at + 1, close);
                        self.items(body, close, inner, scope, cfgs)?;
                    }
                    i = next;
                    continue;
                }
                _ if qualified && level != Level::Extern => {
                    return Err("qualifiers the prefilter does not read");
                }
                ("mod", Level::Module) if self.word(i + 1).is_some() => {
                    self.cover(i, i);
                    i = self.module(attrs, i + 1, scope, cfgs)?;
                    continue;
                }
                ("use", Level::Module) => (self.end_of(i + 1, end, false)? + 1, true),
                ("const", _) if self.word(i + 1).is_some() && self.punct(i + 2, b':') => {
                    (self.end_of(i + 3, end, false)? + 1, true)
                }
                ("static", Level::Module | Level::Extern) => {
                    (self.end_of(i + 1, end, false)? + 1, true)
                }
                ("struct", Level::Module) => (self.after(self.end_of(i + 2, end, true)?), true),
                ("enum" | "union", Level::Module) if self.word(i + 1).is_some() => {
                    let at = self.end_of(i + 2, end, true)?;
                    if !self.open(at, b'{') {
                        return Err("an enum or union without a body");
                    }
                    (self.partner(at) + 1, true)
                }
                ("type", _) => (self.end_of(i + 1, end, false)? + 1, true),
                ("extern", Level::Module) if self.word(i + 1) == Some("crate") => {
                    (self.end_of(i + 2, end, false)? + 1, false)
                }
                _ => {
                    let (next, unread) = self.macro_call(i, end)?;
                    if !unread && self.keyword_in(start, next, None) {
                        self.delegate(level, start, next, scope, cfgs)?;
                    }
                    i = next;
                    continue;
                }
            };
            if self.keyword_in(start, next, leaf.then_some(i)) {
                if !(keyword == "fn" && self.body_items(i, next, scope)?) {
                    self.delegate(level, start, next, scope, cfgs)?;
                }
            } else if leaf {
                self.cover(i, i);
                self.leaf(keyword, i, next - 1, level, scope)?;
            }
            i = next;
        }
        Ok(())
    }

    /// Record a `use`, `const`, `static`, type item, from its keyword at `i`
    /// to its last token at `last`.
    fn leaf(
        &mut self,
        keyword: &str,
        i: usize,
        last: usize,
        level: Level,
        scope: u32,
    ) -> Result<(), Bail> {
        match (keyword, level) {
            ("use", _) => {
                let item: syn::ItemUse = syn::parse_str(self.slice(i, last + 1))
                    .map_err(|_| "a `use` syn does not parse")?;
                flatten_use(&item.tree, &mut Vec::new(), scope, &mut self.facts.uses);
            }
            ("const", Level::Module | Level::Impl) => self.const_def(i, i + 1, last, scope)?,
            ("static", Level::Module) => {
                let name = i + 1 + usize::from(self.word(i + 1) == Some("mut"));
                if !(self.word(name).is_some() && self.punct(name + 1, b':')) {
                    return Err("a `static` the prefilter does not read");
                }
                self.const_def(i, name, last, scope)?;
            }
            ("struct" | "enum" | "union" | "type", Level::Module) => self.type_name(i + 1)?,
            // Trait constants, associated and foreign types and foreign
            // statics are not recorded.
            ("const", Level::Trait) | ("type", _) | ("static", Level::Extern) => {}
            _ => return Err("an item where it cannot be"),
        }
        Ok(())
    }

    /// A `const` or `static` item from its keyword at `keyword` (its name at
    /// `name`) to the `;` at `semi`.
    fn const_def(
        &mut self,
        keyword: usize,
        name: usize,
        semi: usize,
        scope: u32,
    ) -> Result<(), Bail> {
        let Some(eq) = self.value_at(name + 2, semi) else {
            return Err("a constant without a value");
        };
        // Only a string literal (or `concat!` of them, behind `&`, `( )`,
        // `.to_string()`, `String::from(..)`...) gives a value (`str_expr`):
        // without a string token there is none; nor in an array or a block
        // (`[..]`, `{..}`, whatever follows them), which `peel` never opens.
        let opens_group = self
            .toks
            .get(eq + 1)
            .is_some_and(|t| t.kind == Kind::Open && matches!(t.byte, b'[' | b'{'));
        // Another constant (`A0`, `&super::names::CUDA`): words, `::` and
        // `&` only (`const_value`).
        let value_toks = &self.toks[eq + 1..semi];
        let is_path = value_toks.iter().all(|t| {
            t.kind == Kind::Ident || (t.kind == Kind::Punct && matches!(t.byte, b':' | b'&'))
        });
        let has_str = (name..semi).any(|k| self.toks[k].kind == Kind::Str);
        let value = if !opens_group && (has_str || is_path) {
            let text = self.slice(keyword, semi + 1);
            let expr = if self.word(keyword) == Some("static") {
                syn::parse_str::<syn::ItemStatic>(text).map(|s| *s.expr)
            } else {
                syn::parse_str::<syn::ItemConst>(text).map(|c| *c.expr)
            };
            let expr = expr.map_err(|_| "a constant syn does not parse")?;
            const_value(&expr, scope)
        } else {
            ConstValue::Other
        };
        let name = self.word(name).unwrap_or_default().to_string();
        self.facts.consts.push(ConstDef { name, value, scope });
        Ok(())
    }

    /// The `=` before the value in the type and value from `i` to `semi`:
    /// the first outside brackets and angle brackets (`Iterator<Item = u8>`
    /// is in the type), not part of `==`, `<=`, `>=`, `!=` or `=>`.
    fn value_at(&self, mut i: usize, semi: usize) -> Option<usize> {
        let mut angles = 0i32;
        while i < semi {
            let t = &self.toks[i];
            match t.kind {
                Kind::Open => i = t.partner as usize,
                Kind::Punct => {
                    let after = |c: u8| self.punct(i - 1, c) && self.joint(i - 1, i);
                    let before = |c: u8| self.punct(i + 1, c) && self.joint(i, i + 1);
                    match t.byte {
                        b'<' => angles += 1,
                        b'>' if !(after(b'-') || after(b'=')) => angles -= 1,
                        b'=' if angles == 0
                            && !(before(b'=') || before(b'>'))
                            && !(after(b'<') || after(b'>') || after(b'!') || after(b'=')) =>
                        {
                            return Some(i);
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// A free function named as a configured canonicalizer, its signature
    /// from its qualifiers at `from` to its body at `body`: recorded as the
    /// walker records it (a signature syn does not read gives none, as the
    /// walker would not parse the file).
    fn canonicalizer(&mut self, from: usize, body: usize, public: bool, scope: u32) {
        let is_canonicalizer = |name| self.vocab.has(Names::Canonicalizers, name);
        let Some(name) = (from..body).find(|&k| self.word(k) == Some("fn")) else {
            return;
        };
        if !self.word(name + 1).is_some_and(is_canonicalizer) {
            return;
        }
        if let Ok(sig) = syn::parse_str::<syn::Signature>(self.slice(from, body)) {
            (self.facts.canonicalizers).push(FnDef::of(&sig, public, scope));
        }
    }

    fn type_name(&mut self, at: usize) -> Result<(), Bail> {
        let name = self.word(at).ok_or("a type item without a name")?;
        self.facts.types.push(name.to_string());
        Ok(())
    }

    /// `mod NAME;` or `mod NAME { .. }` (the name at `name`), with the
    /// item's outer attributes at `attrs`. Returns where the next item starts.
    fn module(
        &mut self,
        attrs: (usize, usize),
        name: usize,
        scope: u32,
        cfgs: &mut Vec<Cfg>,
    ) -> Result<usize, Bail> {
        let ident = self.word(name).unwrap_or_default().to_string();
        let mut parsed = self.attrs(attrs, false)?;
        let saved = cfgs.len();
        if self.punct(name + 1, b';') {
            cfgs.extend(parsed.iter().filter_map(Cfg::from_attr));
            self.facts.mod_decls.push(ModDecl {
                name: ident,
                path_attr: path_attr(&parsed),
                cfgs: cfgs.clone(),
                scope,
            });
            cfgs.truncate(saved);
            return Ok(name + 2);
        }
        if !self.open(name + 1, b'{') {
            return Err("a module the prefilter does not read");
        }
        let close = self.partner(name + 1);
        let (start, inner) = self.inner_attrs(name + 2, close);
        parsed.extend(self.attrs(inner, true)?);
        cfgs.extend(parsed.iter().filter_map(Cfg::from_attr));
        let mut path = self.facts.scopes[scope as usize].clone();
        path.push(ScopeSegment::Module(ident));
        let inner_scope = self.scope_of(path);
        self.items(start, close, Level::Module, inner_scope, cfgs)?;
        cfgs.truncate(saved);
        Ok(close + 1)
    }

    fn scope_of(&mut self, path: Vec<ScopeSegment>) -> u32 {
        self.scope_index.of(&mut self.facts.scopes, path)
    }

    /// `path!(..);`, `path! { .. }`, `macro_rules! name { .. }` at `i`.
    /// Returns where the next item starts, and whether the walker never
    /// reads the macro's tokens (then they are covered).
    fn macro_call(&mut self, mut i: usize, end: usize) -> Result<(usize, bool), Bail> {
        let mut last = self.word(i).ok_or("an item the prefilter does not read")?;
        while path_separator(self.toks, i + 1) {
            i += 3;
            last = self.word(i).ok_or("an item the prefilter does not read")?;
        }
        if !self.punct(i + 1, b'!') {
            return Err("an item the prefilter does not read");
        }
        i += 2;
        if last == "macro_rules" {
            self.word(i).ok_or("a `macro_rules!` without a name")?;
            i += 1;
        }
        if !self.toks.get(i).is_some_and(|t| t.kind == Kind::Open) {
            return Err("a macro call without its tokens");
        }
        let close = self.partner(i);
        let unread = UNREAD_MACROS.contains(&last);
        if unread {
            self.cover(i, close);
        }
        let mut next = close + 1;
        if next < end && self.punct(next, b';') {
            next += 1;
        }
        Ok((next, unread))
    }

    /// Hand tokens `start..next` (one item) to syn and the walker, and place
    /// what it declares in module `scope`, under the `cfgs` around it.
    fn delegate(
        &mut self,
        level: Level,
        start: usize,
        next: usize,
        scope: u32,
        cfgs: &[Cfg],
    ) -> Result<(), Bail> {
        let text = self.slice(start, next);
        let failed = |_| "an item syn does not parse";
        let item = match level {
            Level::Module => AnyItem::Item(syn::parse_str(text).map_err(failed)?),
            Level::Impl => AnyItem::Impl(syn::parse_str(text).map_err(failed)?),
            Level::Trait => AnyItem::Trait(syn::parse_str(text).map_err(failed)?),
            Level::Extern => AnyItem::Foreign(syn::parse_str(text).map_err(failed)?),
        };
        let facts = extract_item(&item, text, self.vocab);
        // A `mod` in an impl or trait would need the `cfg`s of the impl,
        // which are not read here.
        if level != Level::Module && !facts.mod_decls.is_empty() {
            return Err("a module declared in an impl or trait");
        }
        let module = self.facts.scopes[scope as usize].clone();
        self.place(facts, module, cfgs);
        self.cover(start, next - 1);
        Ok(())
    }

    /// A function (its `fn` at `fn_at`, its end at `next`) whose only item
    /// keywords begin items directly in its body (`fn f() { use a::B; .. }`,
    /// the common case): hand over those items, not the whole function. They
    /// are placed in a scope of the body, numbered 0, as the walker places
    /// them in a scope numbered by function. Returns `false` when the
    /// function is not so.
    fn body_items(&mut self, fn_at: usize, next: usize, scope: u32) -> Result<bool, Bail> {
        let (Some(name), Some(close)) = (self.word(fn_at + 1), next.checked_sub(1)) else {
            return Ok(false);
        };
        if self.toks[close].kind != Kind::Close || self.toks[close].byte != b'}' {
            return Ok(false);
        }
        let open = self.partner(close);
        let mut direct = Vec::new();
        let mut j = open + 1;
        while j < close {
            if self.toks[j].kind == Kind::Open {
                j = self.partner(j) + 1;
                continue;
            }
            if self.keywords.binary_search(&(j as u32)).is_ok() {
                direct.push(j);
            }
            j += 1;
        }
        let first = self.keywords.partition_point(|&k| (k as usize) < fn_at);
        let all = self.keywords[first..]
            .iter()
            .take_while(|&&k| (k as usize) < next)
            .count();
        if all != direct.len() || direct.iter().any(|&k| self.word(k) == Some("mod")) {
            return Ok(false);
        }
        let mut module = self.facts.scopes[scope as usize].clone();
        module.push(ScopeSegment::Block {
            name: name.to_string(),
            id: 0,
        });
        let mut done = open;
        for k in direct {
            if k <= done {
                return Ok(false);
            }
            let braced = matches!(self.word(k), Some("struct" | "enum" | "union" | "trait"));
            let end = self.after(self.end_of(k + 1, close, braced)?);
            // From the keyword: attributes, visibility and `unsafe` before it
            // change nothing the walker records outside a `mod`.
            let text = self.slice(k, end);
            let item = syn::parse_str(text).map_err(|_| "an item syn does not parse")?;
            let facts = extract_item(&AnyItem::Item(item), text, self.vocab);
            self.place(facts, module.clone(), &[]);
            self.cover(k, end - 1);
            done = end - 1;
        }
        Ok(true)
    }

    /// Place the facts of an item walked on its own in `module`, under `cfgs`.
    fn place(&mut self, facts: FileFacts, module: Vec<ScopeSegment>, cfgs: &[Cfg]) {
        let scopes: Vec<u32> = facts
            .scopes
            .iter()
            .map(|s| {
                let mut path = module.clone();
                path.extend(s.iter().cloned());
                self.scope_of(path)
            })
            .collect();
        let out = &mut self.facts;
        for mut c in facts.consts {
            c.scope = scopes[c.scope as usize];
            out.consts.push(c);
        }
        for mut u in facts.uses {
            u.scope = scopes[u.scope as usize];
            out.uses.push(u);
        }
        for mut d in facts.mod_decls {
            d.scope = scopes[d.scope as usize];
            d.cfgs = cfgs.iter().cloned().chain(d.cfgs).collect();
            out.mod_decls.push(d);
        }
        out.types.extend(facts.types);
        for mut f in facts.canonicalizers {
            f.scope = scopes[f.scope as usize];
            out.canonicalizers.push(f);
        }
    }

    /// Every item keyword of the file is accounted for.
    fn all_keywords_covered(&self) -> Result<(), Bail> {
        let mut covered = self.covered.iter().peekable();
        for &k in &self.keywords {
            while covered.next_if(|&&(_, to)| to < k).is_some() {}
            if covered.peek().is_none_or(|&&(from, _)| from > k) {
                return Err("an item inside code the prefilter skips");
            }
        }
        Ok(())
    }
}
