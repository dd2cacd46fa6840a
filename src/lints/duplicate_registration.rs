//! `duplicate_registration`: the same key registered twice on one registry.

use crate::analysis::CrateFacts;
use crate::analysis::facts::Registration;
use crate::diagnostic::{Diagnostic, Severity};
use crate::lints::Lint;
use crate::platform;

pub const LINT: Lint = Lint {
    name: "duplicate_registration",
    default_severity: Severity::Error,
    summary: "the same backend, plugin or lowering is registered twice",
    docs: include_str!("../../lints/duplicate_registration/README.md"),
    check,
};

struct Resolved<'a> {
    reg: &'a Registration,
    key: &'a str,
}

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    let regs: Vec<Resolved> = krate
        .files
        .iter()
        .flat_map(|(_, f)| &f.registrations)
        .filter_map(|reg| {
            Some(Resolved {
                reg,
                key: krate.resolve(&reg.key)?,
            })
        })
        .collect();
    for (j, reg) in regs.iter().enumerate() {
        if guarded(krate, reg) {
            continue;
        }
        // Any earlier registration of the key; or a guarded one in another
        // function, which may run first whatever the order of the source.
        let earlier = regs[..j].iter().find(|other| collide(other, reg));
        let guarded_elsewhere = || {
            regs[j + 1..].iter().find(|other| {
                collide(other, reg) && guarded(krate, other) && !same_function(other, reg)
            })
        };
        let Some(first) = earlier.or_else(guarded_elsewhere) else {
            continue;
        };
        out.push(diagnostic(first, reg));
    }
}

fn same_function(a: &Resolved, b: &Resolved) -> bool {
    a.reg.key_span.file == b.reg.key_span.file && a.reg.context.function == b.reg.context.function
}

/// Two registrations that would clash if both ran.
fn collide(a: &Resolved, b: &Resolved) -> bool {
    let (ra, rb) = (a.reg, b.reg);
    let same_registry = ra.callee == rb.callee && ra.receiver == rb.receiver;
    let same_key = match (&ra.lowering_primitive, &rb.lowering_primitive) {
        (Some(pa), Some(pb)) => pa == pb && platform::overlaps(a.key, b.key),
        (None, None) => a.key.eq_ignore_ascii_case(b.key),
        _ => false,
    };
    same_registry
        && same_key
        // Each test builds its own registry; tests never clash with production code.
        && ra.context.test_scope == rb.context.test_scope
        && !ra.context.exclusive_with(&rb.context)
}

/// `if !is_registered(key) { register(key) }`: never the failing call.
fn guarded(krate: &CrateFacts<'_>, r: &Resolved) -> bool {
    r.reg
        .context
        .guards
        .iter()
        .filter_map(|g| krate.resolve(g))
        .any(|g| g.eq_ignore_ascii_case(r.key))
}

fn diagnostic(first: &Resolved, later: &Resolved) -> Diagnostic {
    let reg = later.reg;
    let (message, label, help) = if let Some(prim) = &reg.lowering_primitive {
        let shared: Vec<String> = platform::expand(later.key)
            .into_iter()
            .filter(|p| platform::expand(first.key).contains(p))
            .collect();
        (
            format!(
                "lowering of `{prim}` for `{}` is registered twice",
                shared.join("`, `")
            ),
            format!("registered again for `{}`", later.key),
            format!(
                "the later registration silently replaces the one for `{}`; keep one, or register each for disjoint platforms",
                first.key
            ),
        )
    } else {
        let case_note = if first.key != later.key {
            format!(
                " (`{}` and `{}` differ only in case, and names are lowercased)",
                first.key, later.key
            )
        } else {
            String::new()
        };
        (
            format!("`{}` is registered twice with `{}`{case_note}", later.key, reg.callee),
            "registered again here".to_string(),
            "remove one registration, or make them mutually exclusive (`#[cfg(..)]`/`#[cfg(not(..))]`, `if`/`else`, or guard with `if !is_registered(..)`); the second call fails with \"already initialized\" or replaces the first".to_string(),
        )
    };
    Diagnostic::new(LINT.name, LINT.default_severity, reg.key_span, message)
        .with_label(label)
        .with_secondary(
            first.reg.key_span,
            if first.reg.key_span < reg.key_span {
                "first registered here"
            } else {
                "also registered here, when not yet registered: if this runs first, the other call fails"
            },
        )
        .with_help(help)
}
