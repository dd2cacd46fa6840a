//! `non_canonical_platform_literal`: a platform name that canonical values
//! never carry: an alias or a wrong case compared with a canonical value, a
//! backend registered under an alias, a lowering platform misspelled.

use crate::analysis::CrateFacts;
use crate::config::platform::{self, LiteralKind};
use crate::config::{Names, Vocabulary};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Applicability, Diagnostic, Edit, Fix, Span};
use crate::model::facts::{
    Comparison, ComparisonKind, Operand, PatternPlace, Side, StrExpr, StrKind,
};
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
            // The value compared with the literal: `matches!` needs it as a `&str`.
            let kind = match cmp.sides.as_slice() {
                [a, b] => side_kind(krate, file, cmp, if at == 0 { b } else { a }),
                _ => None,
            };
            let fix = comparison_fix(krate.vocab, cmp, &[at], &Subject::AsWritten { kind });
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
    /// Left as it is; of `kind` when that is known (a call of one of the
    /// crate's canonicalizers).
    AsWritten { kind: Option<StrKind> },
    /// Side `side` wrapped in a call of `call` (the canonicalizer), with
    /// the edits the call needs elsewhere (a `use`) and what it returns;
    /// `returns` is `None` when no canonicalizer of the crate resolves
    /// where the comparison is: the fix is only shown.
    Wrapped {
        call: &'a str,
        side: usize,
        extra: Vec<Edit>,
        returns: Option<StrKind>,
        /// The side is passed as `&side`: the canonicalizer takes a `&str`
        /// and the side may be a `String`.
        borrow: bool,
    },
}

/// How a value of `kind` is written where a `&str` is needed (a pattern,
/// `matches!`, a slice of `&str` it is looked up in): before and after it.
/// `None` when the kind does not tell.
fn as_str(kind: Option<StrKind>) -> Option<(&'static str, &'static str)> {
    match kind? {
        StrKind::Str => Some(("", "")),
        StrKind::String => Some(("", ".as_str()")),
        StrKind::Cow => Some(("&*", "")),
        StrKind::Other => None,
    }
}

/// The comparisons that need a `&str` subject: its value is matched with
/// string patterns, or looked up in a slice of them.
fn needs_str(how: ComparisonKind) -> bool {
    matches!(
        how,
        ComparisonKind::Match
            | ComparisonKind::IfLet
            | ComparisonKind::LetElse
            | ComparisonKind::Matches
            | ComparisonKind::AssertMatches
            | ComparisonKind::DebugAssertMatches
            | ComparisonKind::Contains
    )
}

/// The kind of the value `side` holds when it is a call of one of the
/// crate's canonicalizers (`canonicalize_platform(d.platform())`, or a
/// binding set from one), or already a `&str` of one (`.as_str()`).
pub(crate) fn side_kind(
    krate: &CrateFacts<'_>,
    file: FileId,
    cmp: &Comparison,
    side: &Side,
) -> Option<StrKind> {
    let text = side.origin.as_deref().unwrap_or(&side.text);
    if text.ends_with("...") {
        return None;
    }
    if text.ends_with(".as_str()") && side.origin.is_none() {
        return Some(StrKind::Str);
    }
    let open = text.find('(')?;
    let callee = &text[..open];
    let segments: Vec<String> = callee.split("::").map(|s| s.trim().to_string()).collect();
    let simple = |s: &String| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    if !segments.iter().all(simple) || closing_paren(text, open) != Some(text.len() - 1) {
        return None;
    }
    let def = krate.canonicalizer_named(file, cmp.scope, &segments)?;
    Some(def.returns)
}

/// Where the `(` at `open` closes, outside strings.
fn closing_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_str = false;
    let mut prev = ' ';
    for (i, c) in text[open..].char_indices() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '(' if !in_str => depth += 1,
            ')' if !in_str => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
        prev = c;
    }
    None
}

/// The fix that makes the literal sides `literals` of `cmp` ones that can
/// equal a canonical value, the subject as `subject` says: a mis-cased name
/// respelled (safe: the comparison could never hold, and the name says
/// which platform was meant), an alias replaced by the platforms it stands
/// for (unsafe: the code may have meant only one of them). `None` when
/// there is nothing to edit, or a literal has no sound edit (`assert_eq!`,
/// a constant, a literal not written plainly) and the subject is kept.
/// A fix whose result would not compile for all the analysis knows (a
/// subject whose type it cannot read, now needed as a `&str`; a
/// canonicalizer that does not resolve) is only shown.
pub(crate) fn comparison_fix(
    vocab: &Vocabulary,
    cmp: &Comparison,
    literals: &[usize],
    subject: &Subject<'_>,
) -> Option<Fix> {
    let (call, kind) = match subject {
        Subject::AsWritten { kind } => (None, *kind),
        Subject::Wrapped {
            call,
            returns,
            borrow,
            ..
        } => (
            Some(format!("{call}({}", if *borrow { "&" } else { "" })),
            *returns,
        ),
    };
    let call = call.as_deref();
    // A subject of unknown type is written as a `&str` would be; the fix
    // is then display-only.
    let form = as_str(kind);
    let mut edits = Vec::new();
    let mut applicability = Applicability::Safe;
    // What each literal becomes, for the message: "`"cuda"` for `"CUDA"`".
    let mut respelled = Vec::new();
    let mut made_str = false;
    for &at in literals {
        match literal_edits(vocab, cmp, at, call, form) {
            Some((more, how, says)) => {
                made_str |= more.iter().any(|e| e.replacement.contains("matches!("));
                edits.extend(more);
                applicability = applicability.min(how);
                respelled.extend(says);
            }
            None if call.is_none() => return None,
            None => {}
        }
    }
    let respelled = respelled.join(", ");
    let Subject::Wrapped {
        call: name,
        side,
        extra,
        returns,
        ..
    } = subject
    else {
        if made_str && form.is_none() {
            applicability = Applicability::DisplayOnly;
        }
        let message = format!("compare with {respelled}");
        return (!edits.is_empty()).then(|| Fix::new(applicability, message, edits));
    };
    // `as_matches` wrote the call itself.
    if !made_str {
        let (prefix, suffix) = match needs_str(cmp.how) {
            true => form.unwrap_or(("", "")),
            false => ("", ""),
        };
        // `.contains(&p)` looks up a `&&str`: the `&` is inside the side.
        let prefix = match cmp.how {
            ComparisonKind::Contains => format!("&{prefix}"),
            _ => prefix.to_string(),
        };
        edits.extend(wrap(
            &cmp.sides[*side],
            call.unwrap_or(name),
            &prefix,
            suffix,
        ));
    }
    edits.extend(extra.iter().cloned());
    // Wrapping changes what the code compares: never safe.
    let mut message = format!("compare `{name}({})`", cmp.sides[*side].text);
    if !respelled.is_empty() {
        message.push_str(&format!(" with {respelled}"));
    }
    // `Some("cuda")` matched against an `Option`: no canonicalizer takes it.
    let option = (cmp.sides.iter()).any(|s| s.pattern == PatternPlace::Wrapped);
    let shown_only =
        returns.is_none() || option || (made_str || needs_str(cmp.how)) && form.is_none();
    Some(Fix::new(
        match shown_only {
            true => Applicability::DisplayOnly,
            false => Applicability::Unsafe,
        },
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
    form: Option<(&str, &str)>,
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
            // A sub-pattern (`x @ "gpu"`, `&"gpu"`) takes the alternatives
            // in parentheses: `x @ "cuda" | "rocm"` binds `x` in one only.
            let pattern = match side.pattern {
                PatternPlace::Bound => format!("({})", quoted.join(" | ")),
                PatternPlace::Alone | PatternPlace::Wrapped => quoted.join(" | "),
            };
            vec![Edit::replace(side.span, pattern)]
        }
        ComparisonKind::Contains => vec![Edit::replace(side.span, quoted.join(", "))],
        ComparisonKind::Eq
        | ComparisonKind::Ne
        | ComparisonKind::EqMethod
        | ComparisonKind::NeMethod
        | ComparisonKind::EqIgnoreAsciiCase => match (call, form) {
            // A value whose type is not known, compared as it is: one
            // comparison per platform compiles wherever the one did.
            // Else the fix is only shown (`comparison_fix`).
            (None, None) => as_comparisons(cmp, at, &quoted)
                .or_else(|| as_matches(cmp, at, &quoted.join(" | "), None, ("", "")))?,
            _ => as_matches(cmp, at, &quoted.join(" | "), call, form.unwrap_or(("", "")))?,
        },
        _ => return None,
    };
    let says = format!("`{}` for `\"{value}\"`", quoted.join(" | "));
    Some((edits, Applicability::Unsafe, Some(says)))
}

/// `open` (the call's name and `(`) before `side` and `)` after it, the
/// call's value written `prefix` and `suffix` around (`&*`, `.as_str()`).
pub(crate) fn wrap(side: &Side, open: &str, prefix: &str, suffix: &str) -> [Edit; 2] {
    let file = side.span.file;
    [
        Edit::insert(file, side.span.start, format!("{prefix}{open}")),
        Edit::insert(file, side.span.end, format!("){suffix}")),
    ]
}

/// `p == "gpu"` as `(p == "cuda" || p == "rocm" || p == "oneapi")` (`!=`
/// with `&&`), for a subject whose type is not known: each comparison has
/// the types of the one written, so it compiles as that did. Only for a
/// subject that is a place (`p`, `*p`, `ctx.platforms[0]`), which reading
/// again changes nothing; `None` for other shapes.
fn as_comparisons(cmp: &Comparison, at: usize, quoted: &[String]) -> Option<Vec<Edit>> {
    let [left, right] = cmp.sides.as_slice() else {
        return None;
    };
    let (op, join) = match cmp.how {
        ComparisonKind::Eq => ("==", " || "),
        ComparisonKind::Ne => ("!=", " && "),
        _ => return None,
    };
    let subject = if at == 1 { left } else { right };
    let place = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '*' | '[' | ']');
    if subject.text.is_empty() || subject.text.ends_with("...") || !subject.text.chars().all(place)
    {
        return None;
    }
    // The text is what is written at the side's span (a binding's side
    // is named by the binding, which `*p` is not).
    if subject.text.len() != subject.span.end - subject.span.start {
        return None;
    }
    let s = &subject.text;
    let each: Vec<String> = (quoted.iter())
        .map(|q| match at {
            1 => format!("{s} {op} {q}"),
            _ => format!("{q} {op} {s}"),
        })
        .collect();
    let span = Span {
        file: left.span.file,
        start: left.span.start,
        end: right.span.end,
    };
    Some(vec![Edit::replace(span, format!("({})", each.join(join)))])
}

/// `p == "gpu"` as `matches!(p, "cuda" | "rocm" | "oneapi")` (`!matches!`
/// for `!=`), the subject wrapped in `call` if given and written as a
/// `&str` with `form` around it; `None` for other shapes (three sides, a
/// literal receiver of `.eq()`).
fn as_matches(
    cmp: &Comparison,
    at: usize,
    pattern: &str,
    call: Option<&str>,
    (prefix, suffix): (&str, &str),
) -> Option<Vec<Edit>> {
    let [left, right] = cmp.sides.as_slice() else {
        return None;
    };
    let negated = matches!(cmp.how, ComparisonKind::Ne | ComparisonKind::NeMethod);
    let open = format!(
        "{}matches!({prefix}{}",
        if negated { "!" } else { "" },
        call.unwrap_or("")
    );
    let close_call = format!("{}{suffix}", if call.is_some() { ")" } else { "" });
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
