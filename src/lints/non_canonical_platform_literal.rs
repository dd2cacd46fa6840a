//! `non_canonical_platform_literal`: a canonical platform value compared with
//! a literal it can never equal (an alias, a wrong case).

use crate::analysis::CrateFacts;
use crate::analysis::facts::Operand;
use crate::diagnostic::{Diagnostic, Severity, Span};
use crate::lints::Lint;
use crate::platform::{self, LiteralKind};

pub const LINT: Lint = Lint {
    name: "non_canonical_platform_literal",
    default_severity: Severity::Error,
    summary: "a canonical platform value is compared with an alias or a mis-cased name",
    docs: include_str!("../../lints/non_canonical_platform_literal/README.md"),
    check,
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    for cmp in krate.files.iter().flat_map(|(_, f)| &f.comparisons) {
        // A raw side is `uncanonicalized_platform_comparison`'s finding: fixing
        // that first is what the user must do, one finding is enough.
        let canonical = cmp.sides.iter().any(|s| s.operand == Operand::Canonical);
        if !canonical || cmp.sides.iter().any(|s| s.operand == Operand::Raw) {
            continue;
        }
        // `.eq_ignore_ascii_case("CUDA")` does match "cuda": only an alias is a bug there.
        let ignores_case = cmp.how == ".eq_ignore_ascii_case()";
        for side in &cmp.sides {
            let Operand::Str(s) = &side.operand else {
                continue;
            };
            let Some(value) = krate.resolve(s) else {
                continue;
            };
            if ignores_case
                && matches!(
                    platform::classify_literal(value),
                    LiteralKind::WrongCase { .. }
                )
            {
                continue;
            }
            if let Some(d) = diagnostic(
                value,
                side.span,
                "canonical platform values never equal this",
            ) {
                out.push(d);
            }
        }
    }
}

/// The finding for a literal that is not a canonical name, if it is one we know.
pub fn diagnostic(value: &str, span: Span, label: &str) -> Option<Diagnostic> {
    let (message, help) = match platform::classify_literal(value) {
        LiteralKind::Alias { alias, targets } => (
            format!("`\"{value}\"` is an alias, not a canonical platform name"),
            format!(
                "`{alias}` stands for {}: compare with those, e.g. `matches!(platform, {})`",
                platform::quoted_list(targets, "and"),
                targets
                    .iter()
                    .map(|t| format!("\"{t}\""))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
        ),
        LiteralKind::WrongCase { canonical } => (
            format!("`\"{value}\"` is not a canonical platform name"),
            format!("write `\"{canonical}\"`: canonical platform names are lower case"),
        ),
        LiteralKind::Canonical | LiteralKind::Unknown => return None,
    };
    Some(
        Diagnostic::new(LINT.name, LINT.default_severity, span, message)
            .with_label(label)
            .with_help(help),
    )
}
