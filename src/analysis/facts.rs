//! What the per-file pass extracts from a file: small, owned facts with byte
//! spans. The syntax tree is dropped once these are built.

use crate::analysis::cfg::Cfg;
use crate::diagnostic::Span;

/// A string-valued expression whose value may only be known crate-wide.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StrExpr {
    /// A string literal (possibly behind `String::from`, `.to_string()`, `&` ...).
    Lit(String),
    /// A path that may name a `const`/`static` string item: its segments.
    Path(Vec<String>),
}

/// A `const`/`static` item whose value is a string.
#[derive(Debug, Clone)]
pub struct ConstDef {
    pub name: String,
    pub value: String,
}

/// Where a piece of code sits: which `cfg`s must hold, which branches were
/// taken to reach it, which guards protect it.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Every `#[cfg]` (and `if cfg!()`) predicate on the way, to be and-ed.
    pub cfgs: Vec<Cfg>,
    /// (branch point, arm) for every `if`/`else` and `match` on the way.
    pub branches: Vec<(u32, u32)>,
    /// Keys tested to be absent (`if !is_registered(key)`) on the way.
    pub guards: Vec<StrExpr>,
    /// `Some(id)` inside test code: each test function builds its own registry.
    pub test_scope: Option<u32>,
    /// The function (or item, for code outside functions) this is in; unique
    /// within a file.
    pub function: u32,
}

impl Context {
    /// `true` when the two places can never both run in one build.
    pub fn exclusive_with(&self, other: &Context) -> bool {
        let diverge = self.branches.iter().any(|(id, arm)| {
            other
                .branches
                .iter()
                .any(|(id2, arm2)| id == id2 && arm != arm2)
        });
        diverge || crate::analysis::cfg::exclusive(&self.cfgs, &other.cfgs)
    }
}

/// A call that registers something under a key.
#[derive(Debug, Clone)]
pub struct Registration {
    /// Last segment of the callee: `register_backend`.
    pub callee: String,
    /// Receiver of a method call, as written (whitespace removed); empty for a
    /// free function.
    pub receiver: String,
    pub key: StrExpr,
    /// For `register_lowering(prim, rule, platform)`: the primitive, as written.
    pub lowering_primitive: Option<String>,
    pub key_span: Span,
    pub call_span: Span,
    pub context: Context,
}

/// What an operand of a comparison is, as far as platforms go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    /// A device's own platform string, not canonicalized.
    Raw,
    /// A canonicalized platform value (not a literal).
    Canonical,
    /// A string literal, or a path that may name a string const.
    Str(StrExpr),
    /// Anything else: unknown, enum, integer...
    Other,
}

#[derive(Debug, Clone)]
pub struct Side {
    pub operand: Operand,
    pub span: Span,
    /// How the raw side was obtained, e.g. "`dev.platform()`", for messages.
    pub text: String,
}

/// A comparison in which at least one side is a platform value.
/// `sides[0]` is the subject (left side, `match` scrutinee); the rest are
/// what it is compared with (right side, literal patterns).
#[derive(Debug, Clone)]
pub struct Comparison {
    pub sides: Vec<Side>,
    /// `==`, `.eq_ignore_ascii_case(..)`, `match`, `assert_eq!` ...
    pub how: String,
}

/// A lowering context: the backend it is given and the platforms it is
/// lowered for, within one function.
#[derive(Debug, Clone, Default)]
pub struct LoweringContext {
    /// `get_backend("cpu")` passed to the context: platform and span of the call.
    pub backends: Vec<(StrExpr, Span)>,
    /// Literal platform lists the context is lowered for.
    pub platforms: Vec<(Vec<StrExpr>, Span)>,
    /// `ctx.get_backend()` calls on the context (only an error with several platforms).
    pub backend_reads: Vec<Span>,
    /// Literal platform lists of `for` loops in which the context is lowered.
    pub loop_platforms: Vec<(Vec<StrExpr>, Span)>,
}

/// Everything the per-file pass learns from one file.
#[derive(Debug, Clone, Default)]
pub struct FileFacts {
    pub consts: Vec<ConstDef>,
    pub registrations: Vec<Registration>,
    pub comparisons: Vec<Comparison>,
    pub lowering: Vec<LoweringContext>,
}
