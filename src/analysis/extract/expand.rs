//! The file's own `macro_rules!` macros, expanded where they are called
//! (issue 19): a registration a package writes through its own macro
//! (`op!(table, "neg", neg)`) is one the walk must see.
//!
//! A small matcher and transcriber for what real registration macros use:
//! fragments `expr`, `ident`, `literal`, `tt`, `path`, `ty` (and the other
//! syn-parsed kinds), literal tokens and groups, and repetitions
//! `$( .. ) sep? *|+|?`. A rule that does not match, or a shape this does
//! not know, expands to nothing: the call is then read as before (its
//! arguments as code), never guessed at. Tokens keep their spans: an
//! argument's are the call site's, the template's the definition's.

use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};

/// One `(matcher) => { transcriber }` arm.
#[derive(Debug)]
pub(super) struct Rule {
    matcher: Vec<TokenTree>,
    transcriber: Vec<TokenTree>,
}

/// The rules of a `macro_rules!` body, `None` when it is not one.
pub(super) fn rules(body: &TokenStream) -> Option<Vec<Rule>> {
    let tokens: Vec<TokenTree> = body.clone().into_iter().collect();
    let mut rules = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let (
            TokenTree::Group(m),
            Some(TokenTree::Punct(eq)),
            Some(TokenTree::Punct(gt)),
            Some(TokenTree::Group(t)),
        ) = (
            &tokens[at],
            tokens.get(at + 1),
            tokens.get(at + 2),
            tokens.get(at + 3),
        )
        else {
            return None;
        };
        if eq.as_char() != '=' || gt.as_char() != '>' {
            return None;
        }
        rules.push(Rule {
            matcher: m.stream().into_iter().collect(),
            transcriber: t.stream().into_iter().collect(),
        });
        at += 4;
        if matches!(tokens.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
            at += 1;
        }
    }
    Some(rules)
}

/// What a fragment variable matched: one piece, or one per repetition.
#[derive(Debug, Clone)]
enum Bound {
    /// The tokens, and whether they are handed on in an invisible group
    /// (every kind but `tt`, `ident`, `literal` and `lifetime`, as rustc).
    One(Vec<TokenTree>, bool),
    Many(Vec<Bindings>),
}

type Bindings = Vec<(String, Bound)>;

/// The expansion of a call with `input` by the first rule that matches it.
pub(super) fn expand(rules: &[Rule], input: TokenStream) -> Option<TokenStream> {
    let input: Vec<TokenTree> = input.into_iter().collect();
    rules.iter().find_map(|rule| {
        let mut bindings = Vec::new();
        let used = match_seq(&rule.matcher, &input, &mut bindings)?;
        (used == input.len()).then(|| transcribe(&rule.transcriber, &[&bindings]))?
    })
}

/// `$name:kind` at `m[i]`: the name and the kind.
fn fragment(m: &[TokenTree], i: usize) -> Option<(String, String)> {
    match (m.get(i), m.get(i + 1), m.get(i + 2), m.get(i + 3)) {
        (
            Some(TokenTree::Punct(d)),
            Some(TokenTree::Ident(n)),
            Some(TokenTree::Punct(c)),
            Some(TokenTree::Ident(k)),
        ) if d.as_char() == '$' && c.as_char() == ':' => Some((n.to_string(), k.to_string())),
        _ => None,
    }
}

/// `$( .. ) sep? op` at `m[i]`: the inner matcher, the separator, the
/// operator and how many tokens it takes.
fn repetition(
    m: &[TokenTree],
    i: usize,
) -> Option<(Vec<TokenTree>, Option<TokenTree>, char, usize)> {
    let (Some(TokenTree::Punct(d)), Some(TokenTree::Group(g))) = (m.get(i), m.get(i + 1)) else {
        return None;
    };
    if d.as_char() != '$' || g.delimiter() != Delimiter::Parenthesis {
        return None;
    }
    let inner = g.stream().into_iter().collect();
    let op = |t: Option<&TokenTree>| match t {
        Some(TokenTree::Punct(p)) if matches!(p.as_char(), '*' | '+' | '?') => Some(p.as_char()),
        _ => None,
    };
    match op(m.get(i + 2)) {
        Some(op) => Some((inner, None, op, 3)),
        None => Some((inner, Some(m.get(i + 2)?.clone()), op(m.get(i + 3))?, 4)),
    }
}

/// Match `m` against the start of `input`: how many tokens it took.
fn match_seq(m: &[TokenTree], input: &[TokenTree], out: &mut Bindings) -> Option<usize> {
    let (mut i, mut at) = (0, 0);
    while i < m.len() {
        if let Some((name, kind)) = fragment(m, i) {
            let n = fragment_len(&kind, &input[at..])?;
            let grouped = !matches!(kind.as_str(), "tt" | "ident" | "literal" | "lifetime");
            out.push((name, Bound::One(input[at..at + n].to_vec(), grouped)));
            at += n;
            i += 4;
        } else if let Some((inner, sep, op, len)) = repetition(m, i) {
            let mut each = Vec::new();
            loop {
                let mut b = Vec::new();
                let Some(n) = match_seq(&inner, &input[at..], &mut b).filter(|&n| n > 0) else {
                    break;
                };
                at += n;
                each.push(b);
                if op == '?' {
                    break;
                }
                match &sep {
                    Some(s) if input.get(at).is_some_and(|t| same_token(t, s)) => at += 1,
                    Some(_) => break,
                    None => {}
                }
            }
            if op == '+' && each.is_empty() {
                return None;
            }
            for name in names_in(&inner) {
                let per: Vec<Bindings> = each
                    .iter()
                    .map(|b| b.iter().filter(|(n, _)| *n == name).cloned().collect())
                    .collect();
                out.push((name, Bound::Many(per)));
            }
            i += len;
        } else {
            let t = input.get(at)?;
            match (&m[i], t) {
                (TokenTree::Group(a), TokenTree::Group(b)) if a.delimiter() == b.delimiter() => {
                    let inner: Vec<TokenTree> = b.stream().into_iter().collect();
                    let am: Vec<TokenTree> = a.stream().into_iter().collect();
                    if match_seq(&am, &inner, out)? != inner.len() {
                        return None;
                    }
                }
                (a, b) if same_token(a, b) => {}
                _ => return None,
            }
            at += 1;
            i += 1;
        }
    }
    Some(at)
}

/// The fragment variables a matcher binds (at any depth).
fn names_in(m: &[TokenTree]) -> Vec<String> {
    let mut names = Vec::new();
    for (i, t) in m.iter().enumerate() {
        if let Some((name, _)) = fragment(m, i) {
            names.push(name);
        } else if let TokenTree::Group(g) = t {
            names.extend(names_in(&g.stream().into_iter().collect::<Vec<_>>()));
        }
    }
    names
}

fn same_token(a: &TokenTree, b: &TokenTree) -> bool {
    match (a, b) {
        (TokenTree::Ident(x), TokenTree::Ident(y)) => x == y,
        (TokenTree::Punct(x), TokenTree::Punct(y)) => x.as_char() == y.as_char(),
        (TokenTree::Literal(x), TokenTree::Literal(y)) => x.to_string() == y.to_string(),
        (TokenTree::Group(x), TokenTree::Group(y)) => {
            x.delimiter() == y.delimiter() && x.stream().to_string() == y.stream().to_string()
        }
        _ => false,
    }
}

/// How many tokens of `input` a fragment of `kind` takes.
fn fragment_len(kind: &str, input: &[TokenTree]) -> Option<usize> {
    let first = input.first()?;
    match kind {
        "tt" => Some(1),
        "ident" => matches!(first, TokenTree::Ident(_)).then_some(1),
        "lifetime" => matches!(first, TokenTree::Punct(p) if p.as_char() == '\'').then_some(2),
        "literal" => match first {
            TokenTree::Literal(_) => Some(1),
            TokenTree::Ident(i) if i == "true" || i == "false" => Some(1),
            TokenTree::Punct(p) if p.as_char() == '-' => {
                matches!(input.get(1), Some(TokenTree::Literal(_))).then_some(2)
            }
            _ => None,
        },
        "expr" => parsed_len(input, |s| s.parse::<syn::Expr>().map(drop)),
        "ty" => parsed_len(input, |s| s.parse::<syn::Type>().map(drop)),
        "path" => parsed_len(input, |s| syn::Path::parse_mod_style(s).map(drop)),
        "pat" | "pat_param" => parsed_len(input, |s| syn::Pat::parse_single(s).map(drop)),
        "block" => parsed_len(input, |s| s.parse::<syn::Block>().map(drop)),
        "item" => parsed_len(input, |s| s.parse::<syn::Item>().map(drop)),
        "stmt" => parsed_len(input, |s| s.parse::<syn::Stmt>().map(drop)),
        "vis" => parsed_len(input, |s| s.parse::<syn::Visibility>().map(drop)),
        "meta" => parsed_len(input, |s| s.parse::<syn::Meta>().map(drop)),
        _ => None,
    }
}

/// How many tokens `parse` takes from the start of `input`.
///
/// syn parses a `TokenStream` it is handed whole: handing it all the input
/// left, for each fragment of a call of `n` entries, cost the square of `n`
/// (docs/performance.md). It is handed the first 16 tokens, then 32, 64 ...
/// until it stops at least `MARGIN` tokens before the end of what it was
/// handed (all it read, and the few tokens syn peeks past where it stops,
/// were there as in the whole input), or it was handed the whole input. A
/// parse that fails, or ends near the cut (`a + b` of `a + b + c`), is
/// tried again on more, so what it takes is what the whole input gives.
fn parsed_len(
    input: &[TokenTree],
    parse: impl Fn(ParseStream) -> syn::Result<()>,
) -> Option<usize> {
    /// Tokens after where a parse stops that it must have been handed.
    const MARGIN: usize = 4;
    let mut window = 16;
    loop {
        let whole = window >= input.len();
        let handed = &input[..window.min(input.len())];
        let rest = (|s: ParseStream| {
            parse(s)?;
            s.parse::<TokenStream>()
        })
        .parse2(handed.iter().cloned().collect())
        .map(|rest| rest.into_iter().count());
        match rest {
            Ok(rest) if whole || rest >= MARGIN => {
                return Some(handed.len() - rest).filter(|&n| n > 0);
            }
            Err(_) if whole => return None,
            _ => window *= 2,
        }
    }
}

/// The bindings in scope where a template is read: the call's, then, for
/// each `$( .. )` around the place, those of the one repetition being
/// written, innermost last. Borrowed, not merged: a repetition of a call of
/// `n` entries copying all the call's bindings for each entry made a call
/// cost the square of its size (docs/performance.md).
type Scope<'b> = [&'b Bindings];

/// The template with each variable replaced; `None` when a variable is
/// bound at another depth than it is used (a shape this does not read).
fn transcribe(t: &[TokenTree], b: &Scope) -> Option<TokenStream> {
    let mut out: Vec<TokenTree> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        match (&t[i], t.get(i + 1)) {
            (TokenTree::Punct(d), Some(TokenTree::Ident(n))) if d.as_char() == '$' => {
                match lookup(b, &n.to_string()) {
                    // An expression stays one, whatever precedence is around it.
                    Some(Bound::One(tokens, true)) => out.push(TokenTree::Group(invisible(tokens))),
                    Some(Bound::One(tokens, false)) => out.extend(tokens.iter().cloned()),
                    Some(Bound::Many(_)) => return None,
                    None if n == "crate" => out.push(TokenTree::Ident(n.clone())),
                    None => return None,
                }
                i += 2;
            }
            (TokenTree::Punct(d), Some(TokenTree::Group(g)))
                if d.as_char() == '$' && g.delimiter() == Delimiter::Parenthesis =>
            {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let (sep, len) = match t.get(i + 2) {
                    Some(TokenTree::Punct(p)) if matches!(p.as_char(), '*' | '+' | '?') => {
                        (None, 3)
                    }
                    Some(s) => (Some(s.clone()), 4),
                    None => return None,
                };
                let reps = repeated(&inner, b)?;
                for (k, each) in reps.iter().enumerate() {
                    if k > 0 {
                        out.extend(sep.clone());
                    }
                    // The scope around, then this repetition's bindings: a
                    // handful of references, however many entries there are.
                    let scope: Vec<&Bindings> = b.iter().chain(each).copied().collect();
                    out.extend(transcribe(&inner, &scope)?);
                }
                i += len;
            }
            (TokenTree::Group(g), _) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let mut group = Group::new(g.delimiter(), transcribe(&inner, b)?);
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
                i += 1;
            }
            (other, _) => {
                out.push(other.clone());
                i += 1;
            }
        }
    }
    Some(out.into_iter().collect())
}

/// The bindings of each repetition of a `$( .. )` template: those of the
/// repeated variables it names, which must repeat alike.
fn repeated<'b>(inner: &[TokenTree], b: &Scope<'b>) -> Option<Vec<Vec<&'b Bindings>>> {
    let mut count = None;
    let mut many = Vec::new();
    for name in used_names(inner) {
        if let Some(Bound::Many(each)) = lookup(b, &name) {
            if count.is_some_and(|c| c != each.len()) {
                return None;
            }
            count = Some(each.len());
            many.push(each);
        }
    }
    let count = count?;
    Some(
        (0..count)
            .map(|k| many.iter().map(|each| &each[k]).collect())
            .collect(),
    )
}

/// A fragment as rustc hands it on: in an invisible group, which keeps an
/// expression one whatever precedence is around it, spanning the tokens
/// it was matched from (a finding on it points at the macro's call).
fn invisible(tokens: &[TokenTree]) -> Group {
    let mut group = Group::new(Delimiter::None, tokens.iter().cloned().collect());
    if let (Some(first), Some(last)) = (tokens.first(), tokens.last()) {
        group.set_span(first.span().join(last.span()).unwrap_or(first.span()));
    }
    group
}

/// `$name`s a template names, at any depth.
fn used_names(t: &[TokenTree]) -> Vec<String> {
    let mut names = Vec::new();
    for (i, tok) in t.iter().enumerate() {
        match (tok, t.get(i + 1)) {
            (TokenTree::Punct(d), Some(TokenTree::Ident(n)))
                if d.as_char() == '$' && d.spacing() == Spacing::Alone =>
            {
                names.push(n.to_string())
            }
            (TokenTree::Group(g), _) => {
                names.extend(used_names(&g.stream().into_iter().collect::<Vec<_>>()))
            }
            _ => {}
        }
    }
    names
}

/// The innermost binding of `name`: the last of the innermost scope
/// that binds it.
fn lookup<'b>(b: &Scope<'b>, name: &str) -> Option<&'b Bound> {
    b.iter()
        .rev()
        .find_map(|&layer| layer.iter().rev().find(|(n, _)| n == name))
        .map(|(_, bound)| bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(def: &str, call: &str) -> Option<String> {
        let rules = rules(&def.parse().unwrap())?;
        expand(&rules, call.parse().unwrap()).map(|t| t.to_string())
    }

    #[test]
    fn fragments_and_repetitions_expand() {
        let def = r#"($t:expr, $($name:literal => $f:ident),* $(,)?) => { $( $t.register($name, $f); )* }"#;
        let out = expanded(def, r#"table, "neg" => neg, "abs" => abs,"#).unwrap();
        assert_eq!(out.matches("register").count(), 2, "{out}");
        assert!(out.contains("\"abs\""), "{out}");
    }

    /// A fragment takes what it took when syn was handed all the input
    /// left, however long the fragment and what follows it.
    #[test]
    fn a_fragment_takes_what_the_whole_input_gives() {
        let whole = |kind: &str, input: &[TokenTree]| {
            let parse = |s: ParseStream| -> syn::Result<()> {
                match kind {
                    "expr" => s.parse::<syn::Expr>().map(drop),
                    "ty" => s.parse::<syn::Type>().map(drop),
                    "pat" => syn::Pat::parse_single(s).map(drop),
                    _ => unreachable!(),
                }
            };
            let rest = (|s: ParseStream| {
                parse(s)?;
                s.parse::<TokenStream>()
            })
            .parse2(input.iter().cloned().collect())
            .ok()?;
            Some(input.len() - rest.into_iter().count()).filter(|&n| n > 0)
        };
        let sum = (0..40)
            .map(|i| format!("a{i}"))
            .collect::<Vec<_>>()
            .join(" + ");
        let params = (0..40)
            .map(|i| format!("p{i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let next = "; b: u8 = 1, c; ".repeat(20);
        for (kind, text) in [
            ("expr", format!("{sum}{next}")),
            ("expr", format!("{sum} {sum}")),
            ("expr", format!("|{params}| {sum}{next}")),
            ("expr", format!("f::<{params}>(x) .. {next}")),
            ("expr", format!("x .. = {next}")),
            ("expr", "a + b + c".to_string()),
            ("expr", format!("{sum} +")),
            ("expr", format!("match x {{ _ => 1 }} {next}")),
            ("ty", format!("HashMap<{params}> = 1, {next}")),
            ("ty", format!("fn({params}) -> Vec<Vec<u8>> {next}")),
            ("pat", format!("S {{ {params} }} | T @ 1..=2 {next}")),
            ("pat", format!("a ..= b {next}")),
        ] {
            let input: Vec<TokenTree> = text.parse::<TokenStream>().unwrap().into_iter().collect();
            for at in 0..input.len() {
                assert_eq!(
                    fragment_len(kind, &input[at..]),
                    whole(kind, &input[at..]),
                    "{kind} at {at} of {text}"
                );
            }
        }
    }

    #[test]
    fn the_first_matching_rule_wins_and_a_mismatch_expands_to_nothing() {
        let def = r#"(unary $n:ident) => { add_unary(stringify!($n)) }; ($n:ident) => { add(stringify!($n)) }"#;
        assert!(expanded(def, "unary neg").unwrap().contains("add_unary"));
        assert!(expanded(def, "neg").unwrap().starts_with("add"));
        assert_eq!(expanded(def, "1 + 2"), None);
    }
}
