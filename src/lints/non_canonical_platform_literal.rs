//! `non_canonical_platform_literal`: a platform name that canonical values
//! never carry: an alias or a wrong case compared with a canonical value, a
//! backend registered under an alias, a lowering platform misspelled.

use crate::analysis::CrateFacts;
use crate::config::platform::{self, LiteralKind};
use crate::config::{Names, Vocabulary};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Applicability, Diagnostic, Edit, Fix, Span};
use crate::model::facts::{Comparison, ComparisonKind, Operand, Side, StrExpr};
use crate::model::fix::merge_touching;
use crate::model::lint_id::LintId;
use crate::model::source::FileId;

pub const LINT: Lint = Lint {
    id: LintId::NonCanonicalPlatformLiteral,
    summary: "a platform literal is an alias or mis-cased where only canonical names can match",
    docs: include_str!("../../lints/non_canonical_platform_literal/README.md"),
    check: Check::Crate(check),
    fixes: true,
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    let vocab = krate.vocab;
    for &(file, facts) in &krate.files {
        comparisons(krate, file, facts, out);
        for reg in &facts.registrations {
            // `registration.backends`: their key is a platform name.
            // A helper's key (`add_gpu(&mut registry)`) is reported in the
            // helper, where the literal is written.
            if !vocab.has(Names::Backends, &reg.callee) || reg.via_helper.is_some() {
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
            for ((value, span), (written, _)) in values.iter().zip(list) {
                let Some(value) = value else { continue };
                let fix = respelled(vocab, written, *span);
                out.extend(lowering_platform(vocab, value, *span).map(|d| with_fix(d, fix)));
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
        for (at, side) in cmp.sides.iter().enumerate() {
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
            let fix = comparison_fix(krate.vocab, cmp, &[at], &Subject::AsWritten);
            out.extend(
                diagnostic(
                    krate.vocab,
                    &value,
                    side.span,
                    "canonical platform values never equal this",
                )
                .map(|d| with_fix(d, fix)),
            );
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

fn with_fix(d: Diagnostic, fix: Option<Fix>) -> Diagnostic {
    match fix {
        Some(fix) => d.with_fix(fix),
        None => d,
    }
}

/// A mis-cased lowering platform written as a literal, respelled: safe, a
/// lowering platform in another case is found by nothing.
fn respelled(vocab: &Vocabulary, written: &StrExpr, span: Span) -> Option<Fix> {
    let StrExpr::Lit(value) = written else {
        return None;
    };
    let right = match platform::classify_literal(vocab, value) {
        LiteralKind::WrongCase { canonical } => canonical,
        LiteralKind::Alias { alias, .. } if alias != value => alias,
        _ => return None,
    };
    plain_literal(value, span).then(|| {
        Fix::new(
            Applicability::Safe,
            format!("write `\"{right}\"`"),
            [Edit::replace(span, format!("\"{right}\""))],
        )
    })
}

/// A literal written plainly (`"CUDA"`, not `r"CUDA"`, `"\x43UDA"` or
/// `String::from("CUDA")`): its span is its text, quotes included. Escapes
/// only lengthen a literal, so the length tells.
fn plain_literal(value: &str, span: Span) -> bool {
    span.end - span.start == value.len() + 2
}

/// What the subject of a comparison a fix rewrites becomes.
pub(crate) enum Subject<'a> {
    /// Left as it is.
    AsWritten,
    /// Side `side` wrapped in a call of `call` (the canonicalizer), with
    /// the edits the call needs elsewhere (a `use`).
    Wrapped {
        call: &'a str,
        side: usize,
        extra: Vec<Edit>,
    },
}

/// The fix that makes the literal sides `literals` of `cmp` ones that can
/// equal a canonical value, the subject as `subject` says: a mis-cased name
/// respelled (safe: the comparison could never hold, and the name says
/// which platform was meant), an alias replaced by the platforms it stands
/// for (unsafe: the code may have meant only one of them). `None` when
/// there is nothing to edit, or a literal has no sound edit (`assert_eq!`,
/// a constant, a literal not written plainly) and the subject is kept.
pub(crate) fn comparison_fix(
    vocab: &Vocabulary,
    cmp: &Comparison,
    literals: &[usize],
    subject: &Subject<'_>,
) -> Option<Fix> {
    let call = match subject {
        Subject::AsWritten => None,
        Subject::Wrapped { call, .. } => Some(*call),
    };
    let mut edits = Vec::new();
    let mut applicability = Applicability::Safe;
    // What each literal becomes, for the message: "`"cuda"` for `"CUDA"`".
    let mut respelled = Vec::new();
    for &at in literals {
        match literal_edits(vocab, cmp, at, call) {
            Some((more, how, says)) => {
                edits.extend(more);
                applicability = applicability.min(how);
                respelled.extend(says);
            }
            None if call.is_none() => return None,
            None => {}
        }
    }
    let respelled = respelled.join(", ");
    let Subject::Wrapped { call, side, extra } = subject else {
        let message = format!("compare with {respelled}");
        return (!edits.is_empty()).then(|| Fix::new(applicability, message, edits));
    };
    // `as_matches` wrote the call itself.
    if !edits.iter().any(|e| e.replacement.contains("matches!(")) {
        edits.extend(wrap(&cmp.sides[*side], call));
    }
    edits.extend(extra.iter().cloned());
    // Wrapping changes what the code compares: never safe.
    let mut message = format!("compare `{call}({})`", cmp.sides[*side].text);
    if !respelled.is_empty() {
        message.push_str(&format!(" with {respelled}"));
    }
    Some(Fix::new(
        Applicability::Unsafe,
        message,
        merge_touching(edits),
    ))
}

/// The edits of literal side `at`, `None` when it is not a literal written
/// plainly or has no sound edit; no edit when it is canonical.
fn literal_edits(
    vocab: &Vocabulary,
    cmp: &Comparison,
    at: usize,
    call: Option<&str>,
) -> Option<(Vec<Edit>, Applicability, Option<String>)> {
    let side = &cmp.sides[at];
    let Operand::Str(StrExpr::Lit(value)) = &side.operand else {
        return None;
    };
    if !plain_literal(value, side.span) {
        return None;
    }
    let targets = match platform::classify_literal(vocab, value) {
        LiteralKind::WrongCase { canonical } => {
            let edit = Edit::replace(side.span, format!("\"{canonical}\""));
            let says = format!("`\"{canonical}\"` for `\"{value}\"`");
            return Some((vec![edit], Applicability::Safe, Some(says)));
        }
        LiteralKind::Alias { targets, .. } => targets,
        LiteralKind::Canonical => return Some((Vec::new(), Applicability::Safe, None)),
        LiteralKind::Unknown => return None,
    };
    // A platform another pattern names keeps going where it went: `"gpu" =>
    // a, "cuda" => b` becomes `"rocm" | "oneapi" => a`, not a `"cuda"` that
    // would take `b`'s case. Nor is one written twice (`"gpu" | "GPU"`).
    let named_elsewhere = |t: &String| {
        (cmp.sides.iter().enumerate()).any(|(i, other)| {
            let Operand::Str(StrExpr::Lit(v)) = &other.operand else {
                return false;
            };
            i != at && (v == t || i < at && platform::expand(vocab, v).contains(t))
        })
    };
    let quoted: Vec<String> = (targets.iter())
        .filter(|t| !named_elsewhere(t))
        .map(|t| format!("\"{t}\""))
        .collect();
    if quoted.is_empty() {
        return None;
    }
    let edits = match cmp.how {
        ComparisonKind::Match
        | ComparisonKind::Matches
        | ComparisonKind::AssertMatches
        | ComparisonKind::DebugAssertMatches => {
            vec![Edit::replace(side.span, quoted.join(" | "))]
        }
        ComparisonKind::Contains => vec![Edit::replace(side.span, quoted.join(", "))],
        ComparisonKind::Eq
        | ComparisonKind::Ne
        | ComparisonKind::EqMethod
        | ComparisonKind::NeMethod
        | ComparisonKind::EqIgnoreAsciiCase => as_matches(cmp, at, &quoted.join(" | "), call)?,
        _ => return None,
    };
    let says = format!("`{}` for `\"{value}\"`", quoted.join(" | "));
    Some((edits, Applicability::Unsafe, Some(says)))
}

/// `call(` before `side` and `)` after it.
pub(crate) fn wrap(side: &Side, call: &str) -> [Edit; 2] {
    let file = side.span.file;
    [
        Edit::insert(file, side.span.start, format!("{call}(")),
        Edit::insert(file, side.span.end, ")"),
    ]
}

/// `p == "gpu"` as `matches!(p, "cuda" | "rocm" | "oneapi")` (`!matches!`
/// for `!=`), the subject wrapped in `call` if given; `None` for other
/// shapes (three sides, a literal receiver of `.eq()`).
fn as_matches(cmp: &Comparison, at: usize, pattern: &str, call: Option<&str>) -> Option<Vec<Edit>> {
    let [left, right] = cmp.sides.as_slice() else {
        return None;
    };
    let negated = matches!(cmp.how, ComparisonKind::Ne | ComparisonKind::NeMethod);
    let open = format!(
        "{}matches!({}",
        if negated { "!" } else { "" },
        call.map_or(String::new(), |c| format!("{c}("))
    );
    let close_call = if call.is_some() { ")" } else { "" };
    let file = left.span.file;
    let between = |a: &Side, b: &Side| Span {
        file,
        start: a.span.end,
        end: b.span.start,
    };
    let binary = matches!(cmp.how, ComparisonKind::Eq | ComparisonKind::Ne);
    match (at, binary) {
        // `p == "gpu"`, `p.eq("gpu")`: the method's `)` closes `matches!(`.
        (1, _) => Some(vec![
            Edit::insert(file, left.span.start, open),
            Edit::replace(between(left, right), format!("{close_call}, ")),
            Edit::replace(
                right.span,
                if binary {
                    format!("{pattern})")
                } else {
                    pattern.to_string()
                },
            ),
        ]),
        // `"gpu" == p`.
        (0, true) => Some(vec![
            Edit::replace(
                Span {
                    file,
                    start: left.span.start,
                    end: right.span.start,
                },
                open,
            ),
            Edit::insert(file, right.span.end, format!("{close_call}, {pattern})")),
        ]),
        _ => None,
    }
}
