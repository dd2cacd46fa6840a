//! `#[cfg(..)]` predicates and whether two of them can hold at once.
//!
//! Exclusivity is decided exactly over `all`/`any`/`not` by enumerating the
//! truth assignments of the atoms (predicates have few atoms), with the one
//! piece of target knowledge that matters in practice: keys such as
//! `target_os` have a single value, so `target_os = "linux"` and
//! `target_os = "windows"` exclude each other, and `unix`/`windows` are
//! `target_family` values.

use syn::parse::{ParseStream, Parser};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Cfg {
    /// `unix`, `test`, `feature = "cuda"`: (key, value).
    Atom(String, Option<String>),
    All(Vec<Cfg>),
    Any(Vec<Cfg>),
    Not(Box<Cfg>),
}

/// Keys that hold exactly one value for a build.
const SINGLE_VALUED: &[&str] = &[
    "target_os",
    "target_arch",
    "target_env",
    "target_vendor",
    "target_pointer_width",
    "target_endian",
    "target_family",
    "panic",
];

/// Atoms beyond this many are not enumerated; the predicates are then taken
/// to be compatible (which reports more, never hides a duplicate).
const MAX_ATOMS: usize = 14;

impl Cfg {
    /// Parse the tokens inside `cfg(...)` / `cfg!(...)`.
    pub fn parse_tokens(tokens: proc_macro2::TokenStream) -> Option<Cfg> {
        Parser::parse2(parse_predicate, tokens).ok()
    }

    /// The predicate of a `#[cfg(..)]` attribute; `None` for other attributes.
    /// `cfg_attr` is deliberately ignored: it changes attributes, not code.
    pub fn from_attr(attr: &syn::Attribute) -> Option<Cfg> {
        if !attr.path().is_ident("cfg") {
            return None;
        }
        let syn::Meta::List(list) = &attr.meta else {
            return None;
        };
        Cfg::parse_tokens(list.tokens.clone())
    }

    pub fn negate(self) -> Cfg {
        Cfg::Not(Box::new(self))
    }

    /// Code under this predicate is compiled only for tests:
    /// `cfg(test)`, `cfg(all(test, unix))`...
    pub fn is_test(&self) -> bool {
        let test = Cfg::Atom("test".into(), None);
        exclusive(std::slice::from_ref(self), &[test.negate()])
    }

    fn atoms<'a>(&'a self, out: &mut Vec<&'a Cfg>) {
        match self {
            Cfg::Atom(..) => {
                if !out.contains(&self) {
                    out.push(self);
                }
            }
            Cfg::All(v) | Cfg::Any(v) => v.iter().for_each(|c| c.atoms(out)),
            Cfg::Not(c) => c.atoms(out),
        }
    }

    fn eval(&self, atoms: &[&Cfg], assignment: u32) -> bool {
        match self {
            Cfg::Atom(..) => {
                let i = atoms.iter().position(|a| *a == self).expect("atom listed");
                assignment & (1 << i) != 0
            }
            Cfg::All(v) => v.iter().all(|c| c.eval(atoms, assignment)),
            Cfg::Any(v) => v.iter().any(|c| c.eval(atoms, assignment)),
            Cfg::Not(c) => !c.eval(atoms, assignment),
        }
    }
}

/// `true` when the conjunction of `a` and the conjunction of `b` can never
/// hold together, i.e. code under `a` and code under `b` are never both compiled.
pub fn exclusive(a: &[Cfg], b: &[Cfg]) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let both = Cfg::All(a.iter().chain(b).cloned().collect());
    let mut atoms = Vec::new();
    both.atoms(&mut atoms);
    if atoms.len() > MAX_ATOMS {
        return false;
    }
    !(0..1u32 << atoms.len())
        .any(|assignment| consistent(&atoms, assignment) && both.eval(&atoms, assignment))
}

/// An assignment is possible only if no single-valued key has two values.
fn consistent(atoms: &[&Cfg], assignment: u32) -> bool {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (i, atom) in atoms.iter().enumerate() {
        if assignment & (1 << i) == 0 {
            continue;
        }
        let Cfg::Atom(key, value) = atom else {
            continue;
        };
        let (key, value) = match (key.as_str(), value.as_deref()) {
            ("unix", None) => ("target_family", "unix"),
            ("windows", None) => ("target_family", "windows"),
            (k, Some(v)) if SINGLE_VALUED.contains(&k) => (k, v),
            _ => continue,
        };
        if seen.iter().any(|&(k, v)| k == key && v != value) {
            return false;
        }
        seen.push((key, value));
    }
    true
}

fn parse_predicate(input: ParseStream) -> syn::Result<Cfg> {
    let ident: syn::Ident = input.call(syn::ext::IdentExt::parse_any)?;
    let name = ident.to_string();
    if input.peek(syn::token::Paren) && matches!(name.as_str(), "all" | "any" | "not") {
        let content;
        syn::parenthesized!(content in input);
        let items = content.parse_terminated(parse_predicate, syn::Token![,])?;
        let mut items: Vec<Cfg> = items.into_iter().collect();
        return Ok(match name.as_str() {
            "all" => Cfg::All(items),
            "any" => Cfg::Any(items),
            _ if items.len() == 1 => Cfg::Not(Box::new(items.remove(0))),
            _ => return Err(syn::Error::new(ident.span(), "not() takes one predicate")),
        });
    }
    if input.peek(syn::Token![=]) {
        input.parse::<syn::Token![=]>()?;
        let value: syn::LitStr = input.parse()?;
        return Ok(Cfg::Atom(name, Some(value.value())));
    }
    Ok(Cfg::Atom(name, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(s: &str) -> Cfg {
        Cfg::parse_tokens(s.parse().unwrap()).unwrap()
    }

    #[test]
    fn negation_excludes() {
        assert!(exclusive(
            &[cfg("feature = \"cuda\"")],
            &[cfg("not(feature = \"cuda\")")]
        ));
        assert!(exclusive(
            &[cfg("all(feature = \"cuda\", unix)")],
            &[cfg("not(feature = \"cuda\")")]
        ));
    }

    #[test]
    fn independent_features_do_not_exclude() {
        assert!(!exclusive(
            &[cfg("feature = \"a\"")],
            &[cfg("feature = \"b\"")]
        ));
        assert!(!exclusive(
            &[cfg("any(feature = \"a\", unix)")],
            &[cfg("not(unix)")]
        ));
        assert!(!exclusive(&[], &[cfg("unix")]));
    }

    #[test]
    fn single_valued_keys_exclude() {
        assert!(exclusive(
            &[cfg("target_os = \"linux\"")],
            &[cfg("target_os = \"macos\"")]
        ));
        assert!(exclusive(&[cfg("unix")], &[cfg("windows")]));
        assert!(!exclusive(&[cfg("target_os = \"linux\"")], &[cfg("unix")]));
    }
}
