//! `impossible_value_comparison`: the result of a function that returns only
//! string literals (a backend enum's `as_str`, a `Display` that writes one
//! name per variant) compared with a string it never returns.

use crate::analysis::{CrateFacts, Decided, quoted_list};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::Diagnostic;
use crate::model::facts::{ComparisonKind, Operand, Side, ValueCall, ValueSet};
use crate::model::lint_id::LintId;

pub const LINT: Lint = Lint {
    id: LintId::ImpossibleValueComparison,
    summary: "a function's result is compared with a string it never returns",
    docs: include_str!("../../lints/impossible_value_comparison/README.md"),
    check: Check::Crate(check),
    fixes: false,
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    for (file, cmp) in krate
        .files
        .iter()
        .flat_map(|(id, f)| f.comparisons.iter().map(move |c| (*id, c)))
    {
        // `assert_ne!(b.as_str(), "gpu")` states the impossibility on purpose;
        // tests are skipped as the other comparison lints skip them.
        let asserts_ne = matches!(
            cmp.how,
            ComparisonKind::AssertNe | ComparisonKind::DebugAssertNe
        );
        if asserts_ne || (cmp.in_test || krate.place(file).test) && !krate.vocab.check_tests {
            continue;
        }
        // The call is the subject; either side only of `a == b`.
        let callers = if cmp.how.is_symmetric() {
            cmp.sides.len()
        } else {
            1
        };
        for (at, subject) in cmp.sides.iter().enumerate().take(callers) {
            let Operand::Call(call) = &subject.operand else {
                continue;
            };
            let Some((defined_in, set)) = krate.value_set(file, call) else {
                continue;
            };
            for side in cmp
                .sides
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != at)
                .map(|(_, s)| s)
            {
                let Operand::Str(s) = &side.operand else {
                    continue;
                };
                let Some(value) = krate.resolve(file, s) else {
                    continue;
                };
                if !returns(set, &value, cmp.how) {
                    let here = (defined_in == file).then_some(set);
                    let found = (subject, side.span, cmp.how);
                    let by_name = krate.decided(call) == Decided::ByName;
                    out.push(diagnostic(&set.call, found, &value, set, (here, by_name)));
                }
            }
        }
    }
}

/// Whether `set` may give `value`, compared as `how` compares.
fn returns(set: &ValueSet, value: &str, how: ComparisonKind) -> bool {
    let matches: fn(&str, &str) -> bool = match how {
        ComparisonKind::EqIgnoreAsciiCase => |v, s| v.eq_ignore_ascii_case(s),
        ComparisonKind::StartsWith => |v, s| v.starts_with(s),
        ComparisonKind::EndsWith => |v, s| v.ends_with(s),
        ComparisonKind::StrContains => |v, s| v.contains(s),
        _ => |v, s| v == s,
    };
    set.values.iter().any(|v| matches(v, value))
}

/// `found`: the call's side, the literal's place and how they are compared.
fn diagnostic(
    call: &ValueCall,
    (subject, at, how): (&Side, crate::model::source::Span, ComparisonKind),
    value: &str,
    set: &ValueSet,
    (here, by_name): (Option<&ValueSet>, bool),
) -> Diagnostic {
    // What the comparison asks of a value, for the ones that are no equality.
    let asked = match how {
        ComparisonKind::StartsWith => Some("starts with"),
        ComparisonKind::EndsWith => Some("ends with"),
        ComparisonKind::StrContains => Some("contains"),
        _ => None,
    };
    let message = match asked {
        Some(asked) => format!(
            "`{}` is tested for `\"{value}\"`, and no value `{call}` returns {asked} it",
            subject.text
        ),
        None => format!(
            "`{}` is compared with `\"{value}\"`, which `{call}` never returns",
            subject.text
        ),
    };
    let label = match asked {
        Some(asked) => format!("no returned value {asked} this"),
        None => "never returned".to_string(),
    };
    let mut d = Diagnostic::new(LINT.id, at, message)
        .with_label(label)
        .with_secondary(
            subject.span,
            format!(
                "`{call}` returns only {}{}",
                quoted_list(&set.values),
                match by_name {
                    true => " (the call matched by name)",
                    false => " (the call resolves to it)",
                }
            ),
        )
        .with_help(format!(
            "compare with a value `{call}` returns, or make it return `\"{value}\"`"
        ));
    if let Some(set) = here {
        d = d.with_secondary(set.span, "its values are decided here");
    }
    d
}
