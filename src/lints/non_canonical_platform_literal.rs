//! `non_canonical_platform_literal`: a platform name that canonical values
//! never carry: an alias or a wrong case compared with a canonical value, a
//! backend registered under an alias, a lowering platform misspelled.

use crate::analysis::CrateFacts;
use crate::config::Vocabulary;
use crate::config::platform::{self, LiteralKind};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Diagnostic, Span};
use crate::model::facts::{ComparisonKind, Operand};
use crate::model::lint_id::LintId;
use crate::model::source::FileId;

pub const LINT: Lint = Lint {
    id: LintId::NonCanonicalPlatformLiteral,
    summary: "a platform literal is an alias or mis-cased where only canonical names can match",
    docs: include_str!("../../lints/non_canonical_platform_literal/README.md"),
    check: Check::Crate(check),
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    let vocab = krate.vocab;
    for &(file, facts) in &krate.files {
        comparisons(krate, file, facts, out);
        for reg in &facts.registrations {
            // `registration.backends`: their key is a platform name.
            if !vocab.backends.contains(&reg.callee) {
                continue;
            }
            // No lowering platform is ever `gpu`: a backend registered under it is never found.
            let Some(key) = krate.resolve(file, &reg.key) else {
                continue;
            };
            if let LiteralKind::Alias { alias, targets } = platform::classify_literal(vocab, &key) {
                out.push(
                    Diagnostic::new(
                        LINT.id,
                        reg.key_span,
                        format!("backend registered under the alias `\"{key}\"`"),
                    )
                    .with_label("lowering platforms are canonical: nothing looks this name up")
                    .with_help(format!(
                        "register the backend under the platform it serves: {} (`{alias}` is not a platform)",
                        platform::quoted_list(targets, "or")
                    )),
                );
            }
        }
        for (sure, list) in &facts.lowering_platforms {
            let values: Vec<(Option<String>, Span)> = list
                .iter()
                .map(|(p, span)| (krate.resolve(file, p), *span))
                .collect();
            // A `platforms:` field with no platform name we know is some
            // other list (release targets, OS names): not ours.
            let about_platforms = *sure
                || values.iter().any(|(v, _)| {
                    v.as_deref().is_some_and(|v| {
                        platform::classify_literal(vocab, v) != LiteralKind::Unknown
                    })
                });
            if !about_platforms {
                continue;
            }
            for (value, span) in &values {
                let Some(value) = value else { continue };
                out.extend(lowering_platform(vocab, value, *span));
            }
        }
    }
}

/// The finding for a misspelled lowering platform, if it is one.
fn lowering_platform(vocab: &Vocabulary, value: &str, span: Span) -> Option<Diagnostic> {
    let misspelled = |what: &str, label: &str, help: String| {
        Diagnostic::new(LINT.id, span, format!("`\"{value}\"` is not {what}"))
            .with_label(label)
            .with_help(help)
    };
    let mis_cased = |spelling: &str| {
        misspelled(
            "a canonical platform name",
            "lowering platforms are lower case",
            format!("write `\"{spelling}\"`"),
        )
    };
    match platform::classify_literal(vocab, value) {
        LiteralKind::WrongCase { canonical } => Some(mis_cased(canonical)),
        // Only lower-case `gpu` expands to the GPU platforms.
        LiteralKind::Alias { alias, .. } if value != alias => Some(mis_cased(alias)),
        LiteralKind::Unknown => Some(misspelled(
            "a platform name",
            "unknown lowering platform",
            match vocab.aliases.first() {
                Some((alias, targets)) => format!(
                    "lower for one of {} (or `\"{alias}\"` for {})",
                    platform::quoted_list(&vocab.canonical, "or"),
                    platform::quoted_list(targets, "and")
                ),
                None => format!(
                    "lower for one of {}",
                    platform::quoted_list(&vocab.canonical, "or")
                ),
            },
        )),
        LiteralKind::Canonical | LiteralKind::Alias { .. } => None,
    }
}

fn comparisons(
    krate: &CrateFacts<'_>,
    file: FileId,
    facts: &crate::model::facts::FileFacts,
    out: &mut Vec<Diagnostic>,
) {
    for cmp in &facts.comparisons {
        // A raw side is `uncanonicalized_platform_comparison`'s finding: fixing
        // that first is what the user must do, one finding is enough.
        let holds = |kind: Operand| cmp.sides.iter().any(|s| krate.holds(&s.operand) == kind);
        if !holds(Operand::Canonical) || holds(Operand::Raw) {
            continue;
        }
        // `.eq_ignore_ascii_case("CUDA")` does match "cuda": only an alias is a bug there.
        let ignores_case = cmp.how == ComparisonKind::EqIgnoreAsciiCase;
        for side in &cmp.sides {
            let Operand::Str(s) = &side.operand else {
                continue;
            };
            let Some(value) = krate.resolve(file, s) else {
                continue;
            };
            if ignores_case
                && matches!(
                    platform::classify_literal(krate.vocab, &value),
                    LiteralKind::WrongCase { .. }
                )
            {
                continue;
            }
            out.extend(diagnostic(
                krate.vocab,
                &value,
                side.span,
                "canonical platform values never equal this",
            ));
        }
    }
}

/// The finding for a literal that is not a canonical name, if it is one we know.
fn diagnostic(vocab: &Vocabulary, value: &str, span: Span, label: &str) -> Option<Diagnostic> {
    let (message, help) = match platform::classify_literal(vocab, value) {
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
        Diagnostic::new(LINT.id, span, message)
            .with_label(label)
            .with_help(help),
    )
}
