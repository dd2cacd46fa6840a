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
            "matches" | "assert_matches" | "debug_assert_matches" => {
                if let Ok((e, p)) = parse_matches(&mac.tokens) {
                    self.compare_with_patterns(&format!("{name}!"), &e, [&p]);
                    self.visit_expr(&e);
                }
                return;
            }
            _ => {}
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
            self.mark_failing(&name, &args);
            if matches!(
                name.as_str(),
                "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne"
            ) && args.len() >= 2
            {
                self.compare(&format!("{name}!"), args[0], &[args[1]]);
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

    pub(super) fn visit_closure_with(&mut self, e: &Expr, params: Option<(Operand, String)>) {
        self.closure_params = params;
        self.visit_expr(e);
        self.closure_params = None;
    }
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
