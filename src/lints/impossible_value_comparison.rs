//! `impossible_value_comparison`: the result of a function that returns only
//! string literals (a backend enum's `as_str`, a `Display` that writes one
//! name per variant) compared with a string it never returns.

use crate::analysis::{CrateFacts, Decided, quoted_list};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::model::facts::{
    ComparisonKind, Excluded, NormalizedComparison, Operand, Side, StrExpr, ValueCall, ValueSet,
};
use crate::model::lint_id::LintId;

pub const LINT: Lint = Lint {
    id: LintId::ImpossibleValueComparison,
    summary: "a function's result is compared with a string it never returns",
    docs: include_str!("../../lints/impossible_value_comparison/README.md"),
    check: Check::Crate(check),
    fixes: true,
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    value_sets(krate, out);
    normalized(krate, out);
}

/// Calls of a function returning only literals compared with another.
fn value_sets(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
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
                if !returns(call, set, &value, cmp.how) {
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
fn returns(call: &ValueCall, set: &ValueSet, value: &str, how: ComparisonKind) -> bool {
    let matches: fn(&str, &str) -> bool = match how {
        ComparisonKind::EqIgnoreAsciiCase => |v, s| v.eq_ignore_ascii_case(s),
        ComparisonKind::StartsWith => |v, s| v.starts_with(s),
        ComparisonKind::EndsWith => |v, s| v.ends_with(s),
        ComparisonKind::StrContains => |v, s| v.contains(s),
        _ => |v, s| v == s,
    };
    set.values.iter().any(|v| matches(&call.seen(v), value))
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

/// A std normalizer's output (`name.to_lowercase()`, a local set from
/// `triple.replace("darwin", "macos")`) compared with a string it can
/// never be, start or hold.
fn normalized(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    // A value set's finding says it already (`b.as_str().to_lowercase()`).
    let found: std::collections::HashSet<_> = (out.iter())
        .filter(|d| d.lint == LINT.id)
        .map(|d| d.span)
        .collect();
    for (file, cmp) in
        (krate.files.iter()).flat_map(|(id, f)| f.normalized.iter().map(move |c| (*id, c)))
    {
        if (cmp.in_test || krate.place(file).test) && !krate.vocab.check_tests {
            continue;
        }
        let Operand::Str(s) = &cmp.other.operand else {
            continue;
        };
        let Some(value) = krate.resolve(file, s) else {
            continue;
        };
        if let Some(why) = cmp.shape.excludes(&value, cmp.how)
            && !found.contains(&cmp.other.span)
        {
            out.push(normalized_diagnostic(cmp, s, &value, &why));
        }
    }
}

fn normalized_diagnostic(
    cmp: &NormalizedComparison,
    written: &StrExpr,
    value: &str,
    why: &Excluded,
) -> Diagnostic {
    let subject = &cmp.subject;
    let made_by = &cmp.made_by;
    let (lacks, fixed) = match why {
        Excluded::Upper => (
            "an ASCII uppercase letter".to_string(),
            Some(value.to_ascii_lowercase()),
        ),
        Excluded::Lower => (
            "an ASCII lowercase letter".to_string(),
            Some(value.to_ascii_uppercase()),
        ),
        Excluded::Whitespace => ("whitespace at either end".to_string(), None),
        Excluded::Removed(gone) => (format!("`\"{gone}\"` (it is replaced)"), None),
    };
    let asked = match cmp.how {
        ComparisonKind::StartsWith => "start with",
        ComparisonKind::EndsWith => "end with",
        ComparisonKind::StrContains => "contain",
        _ => "equal",
    };
    let maker = match subject.text == *made_by {
        true => "it".to_string(),
        false => format!("`{made_by}`"),
    };
    let message = format!(
        "`{}` is compared with `\"{value}\"`, which it can never {asked}: {maker} never holds {lacks}",
        subject.text
    );
    let mut d = Diagnostic::new(LINT.id, cmp.other.span, message)
        .with_label("never matches")
        .with_secondary(
            subject.span,
            match subject.text == *made_by {
                true => "normalized here".to_string(),
                false => format!("made by `{made_by}`"),
            },
        );
    d = match &fixed {
        Some(fixed) => d.with_help(format!("compare with `\"{fixed}\"`")),
        None => d.with_help(format!(
            "compare with a value `{made_by}` can give, or compare before normalizing"
        )),
    };
    // Only a literal written plainly (no escape, no raw string) is
    // rewritten: its text is its value.
    if let (Some(fixed), StrExpr::Lit(_)) = (fixed, written)
        && cmp.other.text == format!("\"{value}\"")
        && !value.contains('\\')
    {
        d = d.with_fix(Fix::new(
            Applicability::Unsafe,
            format!("replace `\"{value}\"` with `\"{fixed}\"`"),
            [Edit {
                span: cmp.other.span,
                replacement: format!("\"{fixed}\""),
            }],
        ));
    }
    d
}
