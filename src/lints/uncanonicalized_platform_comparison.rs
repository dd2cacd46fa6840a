//! `uncanonicalized_platform_comparison`: a device's raw platform string
//! compared without going through `canonicalize_platform`.

use crate::analysis::CrateFacts;
use crate::lints::{Check, Lint};
use crate::model::diagnostic::Diagnostic;
use crate::model::facts::{ComparisonKind, Operand, Side};
use crate::model::lint_id::LintId;
use crate::model::source::FileId;

pub const LINT: Lint = Lint {
    id: LintId::UncanonicalizedPlatformComparison,
    summary: "a raw platform string is compared without canonicalization",
    docs: include_str!("../../lints/uncanonicalized_platform_comparison/README.md"),
    check: Check::Crate(check),
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    for (file, cmp) in krate
        .files
        .iter()
        .flat_map(|(id, f)| f.comparisons.iter().map(move |c| (*id, c)))
    {
        // A test that checks what a client reports compares the raw string
        // on purpose.
        if (cmp.in_test || krate.place(file).test) && !krate.vocab.check_tests {
            continue;
        }
        let Some(raw) = (cmp.sides.iter()).position(|s| krate.holds(&s.operand) == Operand::Raw)
        else {
            continue;
        };
        let compared: Vec<&Side> = cmp
            .sides
            .iter()
            .enumerate()
            .filter(|&(i, s)| i != raw && compares_as_platform(krate, file, s))
            .map(|(_, s)| s)
            .collect();
        if compared.is_empty() {
            continue;
        }
        let raw = &cmp.sides[raw];
        let mut d = Diagnostic::new(
            LINT.id,
            raw.span,
            format!(
                "platform {} is compared with `{}` before canonicalization",
                quoted(raw),
                written(cmp.how)
            ),
        )
        .with_label(match krate.why(&raw.operand) {
            Some(why) => {
                format!("raw platform ({why}): may be an alias like `gpu` or differ in case")
            }
            None => "raw platform: may be an alias like `gpu` or differ in case".to_string(),
        })
        .with_help(format!(
            "compare `{}({})` instead",
            krate
                .vocab
                .canonicalizers
                .first_name()
                .unwrap_or("canonicalize_platform"),
            raw.text
        ));
        for other in compared {
            d = d.with_secondary(other.span, "compared with this");
        }
        out.push(d);
    }
}

/// A side as the message quotes it: "`dev.platform()`", or
/// "`p` (from `dev.platform()`)" for a binding.
fn quoted(side: &Side) -> String {
    match &side.origin {
        Some(origin) => format!("`{}` (from `{origin}`)", side.text),
        None => format!("`{}`", side.text),
    }
}

/// A comparison as the message quotes it.
fn written(how: ComparisonKind) -> &'static str {
    match how {
        ComparisonKind::Eq => "==",
        ComparisonKind::Ne => "!=",
        ComparisonKind::EqMethod => ".eq()",
        ComparisonKind::NeMethod => ".ne()",
        ComparisonKind::EqIgnoreAsciiCase => ".eq_ignore_ascii_case()",
        ComparisonKind::Contains | ComparisonKind::StrContains => ".contains()",
        ComparisonKind::StartsWith => ".starts_with()",
        ComparisonKind::EndsWith => ".ends_with()",
        ComparisonKind::Match => "match",
        ComparisonKind::IfLet => "if let",
        ComparisonKind::LetElse => "let-else",
        ComparisonKind::Matches => "matches!",
        ComparisonKind::AssertMatches => "assert_matches!",
        ComparisonKind::DebugAssertMatches => "debug_assert_matches!",
        ComparisonKind::AssertEq => "assert_eq!",
        ComparisonKind::AssertNe => "assert_ne!",
        ComparisonKind::DebugAssertEq => "debug_assert_eq!",
        ComparisonKind::DebugAssertNe => "debug_assert_ne!",
    }
}

/// Literals, string constants and other platform values; not enums or unknowns.
fn compares_as_platform(krate: &CrateFacts<'_>, file: FileId, side: &Side) -> bool {
    match &side.operand {
        Operand::Raw | Operand::Canonical => true,
        // A platform name (canonical, alias or mis-cased): `platform()` of an
        // OS or build target compared with "linux" or "wasm32" is not ours.
        Operand::Str(s) => krate.resolve(file, s).is_some_and(|v| {
            crate::config::platform::classify_literal(krate.vocab, &v)
                != crate::config::platform::LiteralKind::Unknown
        }),
        Operand::Call(_) => krate.holds(&side.operand) != Operand::Other,
        Operand::Other => false,
    }
}
