//! Sources and canonicalizers learned from the code (issue 19): a function
//! returning a string whose every returned value is a raw platform value
//! (`fn platform_of(c: &Client) -> String { c.platform_name() }`), a
//! canonical one, or the result of one same call of the package (a
//! wrapper, resolved crate-wide).

use super::*;
use crate::model::facts::{PlatformFn, ValueCall};

impl Walker<'_> {
    /// Walk a function's parameters and body with `call` as the function
    /// being walked, and record it when it returns platform values.
    pub(super) fn in_platform_fn(
        &mut self,
        sig: &syn::Signature,
        call: Option<ValueCall>,
        walk: impl FnOnce(&mut Self),
    ) {
        let name = sig.ident.to_string();
        // Configured names are known already; a canonicalizer's own raw
        // comparisons and returns are its job.
        let learnable = returns_string(&sig.output)
            && call.is_some()
            && !triggers::configured_start(self.cx.vocab, &name)
            && self.cx.in_canonicalizer == 0;
        let saved_call = std::mem::replace(&mut self.cx.function_call, call);
        let saved_returns = self.values.enter_fn(learnable);
        let saved_pending = std::mem::replace(&mut self.cx.body_pending, true);
        self.cx.bind_params(sig);
        walk(self);
        if let Some(call) = &self.cx.function_call.clone() {
            self.lowering.context_fn(&mut self.cx, call);
        }
        let call = std::mem::replace(&mut self.cx.function_call, saved_call);
        self.cx.body_pending = saved_pending;
        self.values.leave_fn(&mut self.cx, sig, call, saved_returns);
    }
}

/// What the function being walked returned so far, and the first as
/// written ([`ValueSets::returned_value`]).
type Returns = Option<(Vec<Operand>, String)>;

impl ValueSets {
    /// A function is walked from here: what it returns is watched when it
    /// may be learned. Gives what was watched of the function around it.
    fn enter_fn(&mut self, learnable: bool) -> Returns {
        let watch = learnable.then(|| (Vec::new(), String::new()));
        std::mem::replace(&mut self.fn_returns, watch)
    }

    /// The function `call` (`sig`) is walked: it is recorded when it
    /// returns platform values of one kind.
    fn leave_fn(
        &mut self,
        cx: &mut Cx<'_>,
        sig: &syn::Signature,
        call: Option<ValueCall>,
        outer: Returns,
    ) {
        let returns = std::mem::replace(&mut self.fn_returns, outer);
        // A function returning its own call (recursion) says nothing.
        if let (Some((returns, text)), Some(call)) = (returns, call)
            && let Some(returns) = one_kind(returns)
            && returns != Operand::Call(call.clone())
            // A call only the model can name teaches nothing by name.
            && !matches!(&returns, Operand::Call(c) if c.opaque)
        {
            let span = cx.span(&sig.ident);
            let ty = crate::model::facts::StrKind::of_output(&sig.output);
            cx.facts.platform_fns.push(PlatformFn {
                ty,
                call,
                returns,
                span,
                line: sig.ident.span().start().line as u32,
                text,
            });
        }
    }

    /// A value the function being walked returns (`None`: a bare `return`).
    /// The first that is no platform value ends the watch: the function is
    /// learned from nothing then, and its text is never computed.
    pub(super) fn returned_value(&mut self, cx: &mut Cx<'_>, e: Option<&Expr>) {
        if self.fn_returns.is_none() {
            return;
        }
        let value = e.map_or(Operand::Other, |e| cx.operand(e));
        if !may_be_platform(&value) {
            self.fn_returns = None;
            return;
        }
        let first = self.fn_returns.as_ref().is_some_and(|(v, _)| v.is_empty());
        // A local is named by where its value came from.
        let text = match e {
            Some(e) if first => {
                let side = cx.side(e, value.clone());
                side.origin.unwrap_or(side.text)
            }
            _ => String::new(),
        };
        if let Some((values, shown)) = &mut self.fn_returns {
            if first {
                *shown = text;
            }
            values.push(value);
        }
    }
}

/// The one platform kind of every returned value; `None` when there is
/// none, they differ, or one is no platform value.
fn one_kind(returns: Vec<Operand>) -> Option<Operand> {
    let mut kinds = returns.into_iter();
    let first = kinds.next()?;
    (may_be_platform(&first) && kinds.all(|k| k == first)).then_some(first)
}

/// `-> String`, `-> &str`, `-> Option<&'static str>`, `-> Cow<'_, str>`,
/// `-> Result<String, E>`: a string, maybe in an `Option` or `Result`.
fn returns_string(output: &syn::ReturnType) -> bool {
    let syn::ReturnType::Type(_, ty) = output else {
        return false;
    };
    is_string(ty)
}

pub(super) fn is_string(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => is_string(&r.elem),
        syn::Type::Paren(p) => is_string(&p.elem),
        syn::Type::Group(g) => is_string(&g.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            match last.ident.to_string().as_str() {
                "str" | "String" | "Cow" => true,
                "Option" | "Result" => {
                    match &last.arguments {
                        syn::PathArguments::AngleBracketed(a) => a.args.iter().take(1).any(
                            |arg| matches!(arg, syn::GenericArgument::Type(t) if is_string(t)),
                        ),
                        _ => false,
                    }
                }
                _ => false,
            }
        }
        _ => false,
    }
}
