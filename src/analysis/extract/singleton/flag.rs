//! The state a singleton keeps in a static, read as a condition: which
//! branch a call takes once an earlier call has set it.
//!
//! - **Flags and cells** ([`flag`]): a function that tests a static
//!   (`INIT.load(..)`, `guard.is_some()` of `CONTEXT.lock()`), sets it on
//!   one side (`INIT.store(true, ..)`, `*guard = Some(ctx)`) and fails on
//!   the other (`Err(..)`, `bail!`, `panic!`): ctrlc's `set_handler`,
//!   tract's `set_context`. The condition is evaluated with the state the
//!   first call left, and the branch it takes must fail where it stands,
//!   not somewhere below a further condition.
//! - **The losing side of an exchange** ([`losing_branch`]): which branch
//!   of `if let Ok(..) = STATE.compare_exchange(..)` (or `.is_ok()`,
//!   `match`) runs when the exchange fails; a `?` on the winning side is
//!   no failure of a second call (memory-stats' `/proc` probe, done once).

use syn::visit::{self, Visit};
use syn::{Expr, Stmt};

use super::{Failing, ending_macro, ends, static_of, strip};
use crate::model::facts::{Fails, SingletonMechanism};

/// What a first call leaves in a static: a flag's value, or a cell holding
/// a value (`Some`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    Flag(bool),
    Some,
}

/// The statics the body sets (the first value written to each), and the
/// locals holding a lock of one (`let mut g = CONTEXT.lock().unwrap()`).
#[derive(Default)]
struct States {
    writes: Vec<(String, Held)>,
    /// Statics written two ways (`store(true)` and `store(false)`): a
    /// flag reset by the same function decides nothing.
    mixed: Vec<String>,
    guards: Vec<(String, String)>,
}

impl States {
    fn of(block: &syn::Block) -> States {
        let mut s = States::default();
        s.visit_block(block);
        s
    }

    fn write(&mut self, state: String, held: Held) {
        match self.writes.iter().find(|(s, _)| *s == state) {
            Some((_, h)) if *h != held => self.mixed.push(state),
            Some(_) => {}
            None => self.writes.push((state, held)),
        }
    }

    fn held(&self, state: &str) -> Option<Held> {
        if self.mixed.iter().any(|m| m == state) {
            return None;
        }
        self.writes
            .iter()
            .find(|(s, _)| s == state)
            .map(|(_, h)| *h)
    }

    /// The static a lock guard or a lock call is of: `g` (a guard local),
    /// `*g`, `CONTEXT.lock().unwrap()`, `&*g`.
    fn locked(&self, e: &Expr) -> Option<String> {
        match strip(e) {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => self.locked(&u.expr),
            Expr::Path(p) => {
                let name = p.path.get_ident()?.to_string();
                (self.guards.iter().rev())
                    .find(|(g, _)| *g == name)
                    .map(|(_, s)| s.clone())
            }
            Expr::MethodCall(m) => match m.method.to_string().as_str() {
                "unwrap" | "expect" | "as_ref" | "as_mut" | "as_deref" => self.locked(&m.receiver),
                "lock" | "write" | "read" | "borrow" | "borrow_mut" if m.args.is_empty() => {
                    static_of(&m.receiver)
                }
                _ => None,
            },
            _ => None,
        }
    }
}

impl<'a> Visit<'a> for States {
    fn visit_local(&mut self, l: &'a syn::Local) {
        if let (Some(name), Some(init)) = (super::local_name(&l.pat), &l.init)
            && let Expr::MethodCall(_) = strip(&init.expr)
            && let Some(state) = self.locked(&init.expr)
        {
            self.guards.push((name, state));
        }
        visit::visit_local(self, l);
    }
    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        let method = m.method.to_string();
        match method.as_str() {
            "store" | "swap" if m.args.len() == 2 => {
                if let (Some(state), Some(v)) = (static_of(&m.receiver), bool_lit(&m.args[0])) {
                    self.write(state, Held::Flag(v));
                }
            }
            "replace" | "insert" if m.args.len() == 1 => {
                if let Some(state) = self.locked(&m.receiver) {
                    self.write(state, Held::Some);
                }
            }
            _ => {}
        }
        visit::visit_expr_method_call(self, m);
    }
    fn visit_expr_assign(&mut self, a: &'a syn::ExprAssign) {
        if let Expr::Unary(u) = strip(&a.left)
            && matches!(u.op, syn::UnOp::Deref(_))
            && let Some(state) = self.locked(&u.expr)
        {
            match strip(&a.right) {
                Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some")) => {
                    self.write(state, Held::Some)
                }
                // `*g = None`: reset by the same function.
                _ => self.mixed.push(state),
            }
        }
        visit::visit_expr_assign(self, a);
    }
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    fn visit_item(&mut self, _: &'a syn::Item) {}
}

fn bool_lit(e: &Expr) -> Option<bool> {
    match strip(e) {
        Expr::Lit(l) => match &l.lit {
            syn::Lit::Bool(b) => Some(b.value),
            _ => None,
        },
        _ => None,
    }
}

/// `cond`'s value when the static it tests holds `held` (`Some(false)` for
/// a flag's or a cell's state before the first call: `None` the
/// condition does not test the state, or not in a way read here).
fn eval(cond: &Expr, states: &States, second: bool) -> Option<bool> {
    let value = |state: &str| -> Option<Held> { states.held(state) };
    let flag = |state: &str| -> Option<bool> {
        match value(state)? {
            Held::Flag(v) => Some(if second { v } else { !v }),
            Held::Some => None,
        }
    };
    let some = |state: &str| -> Option<bool> {
        match value(state)? {
            Held::Some => Some(second),
            Held::Flag(_) => None,
        }
    };
    match strip(cond) {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
            eval(&u.expr, states, second).map(|v| !v)
        }
        Expr::Binary(b) => {
            let (l, r) = (
                eval(&b.left, states, second),
                eval(&b.right, states, second),
            );
            match b.op {
                syn::BinOp::And(_) => match (l, r) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                },
                syn::BinOp::Or(_) => match (l, r) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                },
                syn::BinOp::Eq(_) | syn::BinOp::Ne(_) => {
                    let eq = matches!(b.op, syn::BinOp::Eq(_));
                    match (l, bool_lit(&b.right), bool_lit(&b.left), r) {
                        (Some(v), Some(lit), _, _) | (_, _, Some(lit), Some(v)) => {
                            Some((v == lit) == eq)
                        }
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        Expr::MethodCall(m) => match m.method.to_string().as_str() {
            // `swap` answers the value before it: the first call's.
            "load" | "swap" => flag(&static_of(&m.receiver)?),
            "is_some" => some(&states.locked(&m.receiver)?),
            "is_none" => some(&states.locked(&m.receiver)?).map(|v| !v),
            _ => None,
        },
        Expr::Let(l) => {
            let state = states.locked(&l.expr)?;
            let held = some(&state)?;
            match &*l.pat {
                syn::Pat::TupleStruct(t) if t.path.is_ident("Some") => Some(held),
                syn::Pat::Ident(i) if i.ident == "None" => Some(!held),
                syn::Pat::Path(p) if p.path.is_ident("None") => Some(!held),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The statements a call runs from `branch` on: the branch's own, then
/// (when it does not end the function) those after the `if`.
fn path<'a>(branch: Option<&'a [Stmt]>, rest: &'a [Stmt]) -> Vec<&'a Stmt> {
    let Some(stmts) = branch else {
        return rest.iter().collect();
    };
    let mut out: Vec<&Stmt> = stmts.iter().collect();
    if !ends(stmts) {
        out.extend(rest);
    }
    out
}

/// How `stmts` fail where they stand, not below a further condition: the
/// first statement that returns or gives an `Err` (`return Err(..)`, the
/// tail `Err(..)`, `bail!`, `Err(..)?`) or panics; `None` when one returns
/// otherwise first, or none fails.
fn fails_directly(stmts: &[&Stmt]) -> Option<Fails> {
    let is_err = |e: &Expr| match strip(e) {
        Expr::Call(c) => matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Err")),
        Expr::Try(t) => {
            matches!(strip(&t.expr), Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Err")))
        }
        _ => false,
    };
    for s in stmts {
        match s {
            Stmt::Macro(m) => {
                if let Some(f) = ending_macro(&m.mac) {
                    return Some(f);
                }
            }
            Stmt::Expr(Expr::Macro(m), _) => {
                if let Some(f) = ending_macro(&m.mac) {
                    return Some(f);
                }
            }
            Stmt::Expr(Expr::Return(r), _) => {
                return r
                    .expr
                    .as_deref()
                    .filter(|e| is_err(e))
                    .map(|_| Fails::ReturnsErr);
            }
            Stmt::Expr(e, semi)
                if is_err(e) && (semi.is_none() || matches!(strip(e), Expr::Try(_))) =>
            {
                return Some(Fails::ReturnsErr);
            }
            Stmt::Expr(_, None) => return None,
            _ => {}
        }
    }
    None
}

/// Whether what `visit` walks writes (or resets) the static `state`: the
/// statements of a path, or a condition (`INIT.swap(true, ..)`).
fn writes(state: &str, guards: &[(String, String)], visit: impl FnOnce(&mut States)) -> bool {
    let mut s = States {
        guards: guards.to_vec(),
        ..States::default()
    };
    visit(&mut s);
    s.writes.iter().any(|(w, _)| w == state) || s.mixed.iter().any(|w| w == state)
}

/// The statics an expression reads (`INIT.load(..)`, `g.is_some()`).
fn tested(cond: &Expr, states: &States) -> Option<String> {
    struct T<'s>(&'s States, Option<String>);
    impl<'a> Visit<'a> for T<'_> {
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            let name = m.method.to_string();
            let state = match name.as_str() {
                "load" | "swap" => static_of(&m.receiver),
                "is_some" | "is_none" => self.0.locked(&m.receiver),
                _ => None,
            };
            if self.1.is_none() {
                self.1 = state;
            }
            visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_let(&mut self, l: &'a syn::ExprLet) {
            if self.1.is_none() {
                self.1 = self.0.locked(&l.expr);
            }
            visit::visit_expr_let(self, l);
        }
    }
    let mut t = T(states, None);
    t.visit_expr(cond);
    t.1
}

/// A flag or cell on a static that the body tests, sets on one side and
/// fails on the other ([module docs](self)).
pub(super) fn flag(block: &syn::Block) -> Option<SingletonMechanism> {
    let states = States::of(block);
    if states.writes.is_empty() {
        return None;
    }
    let mut found = None;
    let mut ifs = Ifs(Vec::new());
    ifs.visit_block(block);
    for (stmts, i) in ifs.0 {
        let Stmt::Expr(Expr::If(e), _) = &stmts[i] else {
            continue;
        };
        let Some(state) = tested(&e.cond, &states) else {
            continue;
        };
        let (Some(second), Some(first)) =
            (eval(&e.cond, &states, true), eval(&e.cond, &states, false))
        else {
            continue;
        };
        if second == first {
            continue;
        }
        let branch = |taken: bool| -> Option<&[Stmt]> {
            match taken {
                true => Some(&e.then_branch.stmts),
                false => match e.else_branch.as_ref().map(|(_, b)| strip(b)) {
                    Some(Expr::Block(b)) => Some(&b.block.stmts),
                    _ => None,
                },
            }
        };
        let rest_stmts = &stmts[i + 1..];
        let second_path = path(branch(second), rest_stmts);
        let first_path = path(branch(first), rest_stmts);
        let Some(fails) = fails_directly(&second_path) else {
            continue;
        };
        // Set on the first call's way: in its branch or after it, or by
        // the test itself (`INIT.swap(true, ..)`).
        let guards = &states.guards;
        let sets = writes(&state, guards, |s| s.visit_expr(&e.cond))
            || writes(&state, guards, |s| {
                first_path.iter().for_each(|st| s.visit_stmt(st))
            });
        if fails_directly(&first_path).is_some() || !sets {
            continue;
        }
        let how = match states.held(&state) {
            Some(Held::Some) => format!("`{state}` tested to hold a value and set"),
            _ => format!("the flag `{state}` tested and set"),
        };
        found = Some(SingletonMechanism { fails, how, state });
        break;
    }
    found
}

/// Every `if` statement of a body (not in closures or items), with the
/// statements of its block and its index there.
struct Ifs<'a>(Vec<(&'a [Stmt], usize)>);

impl<'a> Visit<'a> for Ifs<'a> {
    fn visit_block(&mut self, b: &'a syn::Block) {
        for (i, s) in b.stmts.iter().enumerate() {
            if let Stmt::Expr(Expr::If(_), _) = s {
                self.0.push((&b.stmts, i));
            }
        }
        visit::visit_block(self, b);
    }
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    fn visit_item(&mut self, _: &'a syn::Item) {}
}

/// Whether `e` is (or holds, through a `?`, parentheses or a method) the
/// exchange `call`.
fn holds(e: &Expr, call: &syn::ExprMethodCall) -> bool {
    match strip(e) {
        Expr::MethodCall(m) => std::ptr::eq(m, call) || holds(&m.receiver, call),
        Expr::Try(t) => holds(&t.expr, call),
        _ => false,
    }
}

/// Whether `cond` holds when the exchange `call` in it succeeds: `if let
/// Ok(..) = STATE.compare_exchange(..)`, `.is_ok()`, `.is_err()`, `!..`.
fn won_if(cond: &Expr, call: &syn::ExprMethodCall) -> Option<bool> {
    match strip(cond) {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => won_if(&u.expr, call).map(|v| !v),
        Expr::Let(l) if holds(&l.expr, call) => match &*l.pat {
            syn::Pat::TupleStruct(t) if t.path.is_ident("Ok") => Some(true),
            syn::Pat::TupleStruct(t) if t.path.is_ident("Err") => Some(false),
            _ => None,
        },
        Expr::MethodCall(m) if holds(&m.receiver, call) => match m.method.to_string().as_str() {
            "is_ok" => Some(true),
            "is_err" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// How the statement `stmts[i]` holding the exchange `call` fails when
/// the exchange loses: `Some(None)` it is an `if` or a `match` on the
/// exchange whose losing side does not fail; `None` the statement is no
/// such test (the caller reads it whole: `.map_err(..)?`, `.expect(..)`).
pub(super) fn losing_branch(
    stmts: &[Stmt],
    i: usize,
    call: &syn::ExprMethodCall,
) -> Option<Option<Fails>> {
    let s = &stmts[i];
    let e = match s {
        Stmt::Expr(e, _) => e,
        _ => return None,
    };
    match strip(e) {
        Expr::If(ifx) => {
            let won = won_if(&ifx.cond, call);
            let Some(won) = won else {
                // The exchange is in the condition, read another way: no
                // side is known to be the losing one.
                return (holds_anywhere(&ifx.cond, call)).then_some(None);
            };
            let losing: Option<&[Stmt]> = match won {
                false => Some(&ifx.then_branch.stmts),
                true => match ifx.else_branch.as_ref().map(|(_, b)| strip(b)) {
                    Some(Expr::Block(b)) => Some(&b.block.stmts),
                    _ => None,
                },
            };
            let mut fails = losing.and_then(Failing::of_stmts);
            if fails.is_none() {
                let after = path(losing, &stmts[i + 1..]);
                fails = fails_directly(&after);
            }
            Some(fails)
        }
        Expr::Match(m) if holds(&m.expr, call) => {
            let losing = (m.arms.iter())
                .filter(|a| matches!(&a.pat, syn::Pat::TupleStruct(t) if t.path.is_ident("Err")));
            let mut fails = None;
            for arm in losing {
                let mut f = Failing::default();
                f.visit_expr(&arm.body);
                fails = fails.or(match (f.err, f.panic) {
                    (true, _) => Some(Fails::ReturnsErr),
                    (false, true) => Some(Fails::Panics),
                    _ => None,
                });
            }
            Some(fails)
        }
        _ => None,
    }
}

fn holds_anywhere(e: &Expr, call: &syn::ExprMethodCall) -> bool {
    struct H<'c>(&'c syn::ExprMethodCall, bool);
    impl<'a> Visit<'a> for H<'_> {
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            self.1 |= std::ptr::eq(m, self.0);
            visit::visit_expr_method_call(self, m);
        }
    }
    let mut h = H(call, false);
    h.visit_expr(e);
    h.1
}
