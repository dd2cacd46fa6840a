//! `uncanonicalized_platform_comparison`: a device's raw platform string
//! compared without going through `canonicalize_platform`.

use crate::analysis::CrateFacts;
use crate::config::Names;
use crate::lints::non_canonical_platform_literal::{Subject, comparison_fix};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Diagnostic, Edit};
use crate::model::facts::{
    Comparison, ComparisonKind, FieldKey, FnDef, HandedCall, NormalizerFn, Operand, ScopeSegment,
    Side, StrKind,
};
use crate::model::lint_id::LintId;
use crate::model::source::FileId;
use crate::model::source::Span;
use std::collections::{HashMap, HashSet};

pub const LINT: Lint = Lint {
    id: LintId::UncanonicalizedPlatformComparison,
    summary: "a raw platform string is compared without canonicalization",
    docs: include_str!("../../lints/uncanonicalized_platform_comparison/README.md"),
    check: Check::Crate(check),
    fixes: true,
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    handed_to_normalizers(krate, out);
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
        let compared: Vec<usize> = (cmp.sides.iter().enumerate())
            .filter(|&(i, s)| i != raw && compares_as_platform(krate, file, s))
            .map(|(i, _)| i)
            .collect();
        if compared.is_empty() || only_unaliased(krate, file, cmp, &compared) {
            continue;
        }
        // No canonicalizer resolves here: the fix calls the configured name
        // and is only shown.
        let (call, extra, def) = match canonicalizer_at(krate, file, cmp) {
            Some((call, extra, def)) => (call, extra, Some(def)),
            None => (canonicalizer(krate).to_string(), Vec::new(), None),
        };
        // Compared with `Some("cuda")`: the raw value is an `Option` (or a
        // `Result`), which no canonicalizer takes.
        let wrapped = (compared.iter()).any(|&i| {
            let text = cmp.sides[i].text.trim_start_matches('&');
            text.starts_with("Some(") || text.starts_with("Ok(")
        });
        let literals: Vec<usize> = (compared.iter().copied())
            .filter(|&i| matches!(cmp.sides[i].operand, Operand::Str(_)))
            .collect();
        let subject = Subject::Wrapped {
            call: &call,
            side: raw,
            extra,
            returns: def.filter(|_| !wrapped).map(|d| d.returns),
            borrow: def.is_some_and(|d| d.takes == StrKind::Str)
                && may_be_owned(krate, &cmp.sides[raw]),
        };
        let fix = comparison_fix(krate.vocab, cmp, &literals, &subject)
            .filter(|_| !part_of_alias(krate, file, cmp, &literals));
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
        .with_help(match &fix {
            // The fix says what to compare, literals respelled included.
            Some(fix) => format!("{} instead", fix.message),
            None => format!("compare `{}({})` instead", canonicalizer(krate), raw.text),
        });
        for other in compared {
            d = d.with_secondary(cmp.sides[other].span, "compared with this");
        }
        if let Some(fix) = fix {
            d = d.with_fix(fix);
        }
        out.push(d);
    }
}

/// A value compared as written with a platform name and handed to a
/// normalizer the code defines (`runtime_for_name` taking `"default"` for
/// `"cpu"`): a local in the same function, or a field of a named type
/// anywhere in the crate (unless some code assigns it). The comparison
/// misses the spellings the normalizer takes for the same thing.
fn handed_to_normalizers(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    let files = || krate.files.iter().map(|(id, f)| (*id, *f));
    // Each field's first call of a normalizer, unless some code assigns
    // the field: one per field, so that a field compared and handed many
    // times costs their sum, not their product.
    let mut assigned: HashSet<&FieldKey> = HashSet::new();
    for (_, f) in files() {
        assigned.extend(&f.field_uses.assigned);
        // A struct literal whose field a normalizer makes: it may hold the
        // normalized value (`Manifest { os: canonical_os(raw) }`).
        let built = (f.field_uses.built.iter())
            .filter(|(_, call)| krate.normalizer(call).is_some())
            .map(|(key, _)| key);
        assigned.extend(built);
    }
    let mut normalized: HashMap<&FieldKey, (FileId, &HandedCall)> = HashMap::new();
    for (file, f) in files() {
        for (key, call) in &f.field_uses.handed {
            if assigned.contains(key) || normalized.contains_key(key) {
                continue;
            }
            if krate
                .normalizer(&call.callee)
                .is_some_and(|(_, n)| n.param == call.arg)
            {
                normalized.insert(key, (file, call));
            }
        }
    }
    let locals = files().flat_map(|(file, f)| {
        (f.handoffs.iter()).map(move |h| (file, &h.comparison, h.subject, (file, &h.call)))
    });
    let normalized = &normalized;
    let fields = files().flat_map(|(file, f)| {
        (f.field_uses.compared.iter()).filter_map(move |(key, cmp, subject)| {
            Some((file, cmp, *subject, *normalized.get(key)?))
        })
    });
    let mut reported: HashSet<Span> = HashSet::new();
    for (file, cmp, subject, (call_file, call)) in locals.chain(fields) {
        if (cmp.in_test || krate.place(file).test) && !krate.vocab.check_tests {
            continue;
        }
        let Some((defined_in, normalizer)) = krate.normalizer(&call.callee) else {
            continue;
        };
        let subject = &cmp.sides[subject];
        if call.arg != normalizer.param || reported.contains(&subject.span) {
            continue;
        }
        let Some(d) = normalized_elsewhere(
            krate,
            file,
            cmp,
            subject,
            (call_file, call),
            (defined_in, normalizer),
        ) else {
            continue;
        };
        reported.insert(subject.span);
        out.push(d);
    }
}

/// The finding of [`handed_to_normalizers`] for one comparison, if the
/// normalizer takes another spelling of a name compared.
fn normalized_elsewhere(
    krate: &CrateFacts<'_>,
    file: FileId,
    cmp: &Comparison,
    subject: &Side,
    (call_file, call): (FileId, &HandedCall),
    (defined_in, normalizer): (FileId, &NormalizerFn),
) -> Option<Diagnostic> {
    // Each literal compared, with the spellings the comparison misses.
    let mut missed: Vec<(&Side, String, Vec<String>)> = Vec::new();
    for side in cmp.sides.iter().filter(|s| s.span != subject.span) {
        let Operand::Str(s) = &side.operand else {
            continue;
        };
        let Some(value) = krate.resolve(file, s) else {
            continue;
        };
        // A name that is no platform's counts where it is a spelling the
        // normalizer gives (`"macos"` of `canonical_os`, `"in_memory"` of
        // a lowercasing one): the code compares its normalized value so.
        let platform = !matches!(
            crate::config::platform::classify_literal(krate.vocab, &value),
            crate::config::platform::LiteralKind::Unknown
        );
        if !platform && !normalizer.gives(&value) {
            continue;
        }
        let mut other = normalizer.missed(&value);
        if cmp.how == ComparisonKind::EqIgnoreAsciiCase {
            other.retain(|o| !o.eq_ignore_ascii_case(&value));
        }
        if !other.is_empty() {
            missed.push((side, value, other));
        }
    }
    let (first, value, other) = missed.first()?;
    let name = normalizer.call.to_string();
    let spelled = crate::config::platform::quoted_list(other, "and");
    let mut d = Diagnostic::new(
        LINT.id,
        subject.span,
        format!(
            "`{}` is compared with `{}` as written, but `{name}` normalizes it",
            subject.text,
            written(cmp.how)
        ),
    )
    .with_label(format!(
        "raw: `{name}` takes {spelled} for `\"{value}\"` too, which this misses"
    ))
    .with_secondary(first.span, "compared with this");
    for (side, _, _) in missed.iter().skip(1) {
        d = d.with_secondary(side.span, "compared with this too");
    }
    let class = (normalizer.classes.iter())
        .find(|c| c.spelled.iter().chain(&c.stands_for).any(|v| v == value));
    let taught = match class {
        Some(c) => format!(
            "`{name}` takes {} alike",
            crate::config::platform::quoted_list(&c.spelled, "and")
        ),
        None => format!("`{name}` folds the case"),
    };
    // A place is shown in the file of the comparison (held: it may be
    // reported); elsewhere it is told.
    let mut told = Vec::new();
    match call_file == file {
        true => d = d.with_secondary(call.span, format!("normalized here: `{}`", call.text)),
        false => told.push(format!("it is normalized elsewhere: `{}`", call.text)),
    }
    match defined_in == file {
        true => d = d.with_secondary(normalizer.span, taught),
        false => told.push(taught),
    }
    told.push(format!(
        "compare what `{name}` makes of `{}`, or normalize it once and compare that",
        subject.text
    ));
    Some(d.with_help(told.join("; ")))
}

/// Whether the raw side may be a `String` (a field, any binding, a copy
/// made by `.to_lowercase()`), which a canonicalizer taking `&str` takes
/// as `&side`; a call of a source written in place (`d.platform()`) gives
/// a `&str`.
fn may_be_owned(krate: &CrateFacts<'_>, side: &Side) -> bool {
    const OWNED: &[&str] = &[
        ".to_lowercase()",
        ".to_ascii_lowercase()",
        ".to_uppercase()",
        ".to_ascii_uppercase()",
        ".to_string()",
        ".to_owned()",
        ".clone()",
        ".into()",
    ];
    // Written otherwise than its text (`&*p`, `p.as_str()` for a binding
    // `p`): already a reference, or a `&str` made of one.
    if side.text.starts_with('&') || side.text.len() != side.span.end - side.span.start {
        return false;
    }
    if [".as_str()", ".as_ref()", ".as_deref()"]
        .iter()
        .any(|m| side.text.ends_with(m))
    {
        return false;
    }
    // A call of the package's own function: as it declares.
    if let Operand::Call(call) = &side.operand
        && let Some(ty) = krate.returns(call)
    {
        return ty != StrKind::Str;
    }
    // A binding is borrowed whatever made it: `let p = self.platform_name()`
    // may hold a `String` (a method of the crate declared so), and `&p`
    // compiles for a `&str` too (deref coercion), where `p` does not for a
    // `String`. A call written in place keeps its form: a source gives `&str`.
    side.origin.is_some()
        || OWNED.iter().any(|m| side.text.ends_with(m))
        || !side.text.ends_with(')')
}

/// A part compared with a name that is not canonical (`.contains("gpu")`):
/// no canonical value has that part, so wrapping the value in the
/// canonicalizer is no fix.
fn part_of_alias(
    krate: &CrateFacts<'_>,
    file: FileId,
    cmp: &Comparison,
    literals: &[usize],
) -> bool {
    let part = matches!(
        cmp.how,
        ComparisonKind::StartsWith | ComparisonKind::EndsWith | ComparisonKind::StrContains
    );
    part && literals.iter().any(|&i| match &cmp.sides[i].operand {
        Operand::Str(s) => krate
            .resolve(file, s)
            .is_none_or(|v| !crate::config::platform::is_canonical(krate.vocab, &v)),
        _ => true,
    })
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

/// Whether every side `compared` with the raw value is a literal naming a
/// canonical platform that no alias stands for, compared without regard to
/// case (`name.eq_ignore_ascii_case("cpu")`): canonicalizing first changes
/// nothing there. Compared exactly, the raw value may still differ in case
/// (`"CPU"`), which canonicalization lowers.
fn only_unaliased(
    krate: &CrateFacts<'_>,
    file: FileId,
    cmp: &Comparison,
    compared: &[usize],
) -> bool {
    cmp.how == ComparisonKind::EqIgnoreAsciiCase
        && compared.iter().all(|&i| match &cmp.sides[i].operand {
            Operand::Str(s) => krate
                .resolve(file, s)
                .is_some_and(|v| crate::config::platform::is_unaliased_canonical(krate.vocab, &v)),
            _ => false,
        })
}

/// The canonicalizer the configuration names first.
fn canonicalizer<'v>(krate: &CrateFacts<'v>) -> &'v str {
    (krate.vocab.first_name(Names::Canonicalizers)).unwrap_or("canonicalize_platform")
}

/// The canonicalizer a fix of `cmp` calls, as the code there can call it,
/// the edits that let it (a `use`) and what it returns: one of the crate's
/// canonicalizers (configured or learned, of one parameter) that its name
/// already names where the comparison is; else one the code there may name
/// by its path (public, or of a module around the comparison), imported
/// at the top of the file when the comparison is in the file's own module
/// and the name is free there, else written out in full. `None` when the
/// crate defines none the comparison can call: the fix would name what
/// does not exist.
fn canonicalizer_at<'a>(
    krate: &CrateFacts<'a>,
    file: FileId,
    cmp: &Comparison,
) -> Option<(String, Vec<Edit>, &'a FnDef)> {
    let facts = krate.facts(file)?;
    let mut defs = krate.canonicalizers(file);
    // The configured names first, in the crate's order of files.
    defs.sort_by_key(|(_, d)| !krate.vocab.has(Names::Canonicalizers, &d.name));
    for (_, def) in &defs {
        let named = krate.canonicalizer_named(file, cmp.scope, std::slice::from_ref(&def.name));
        if named.is_some_and(|n| std::ptr::eq(n, *def)) {
            return Some((def.name.clone(), Vec::new(), def));
        }
    }
    let place = krate.place(file);
    let here = &facts.scopes[cmp.scope as usize];
    let module: Vec<&str> = (place.module.iter().chain(here))
        .filter_map(ScopeSegment::module)
        .collect();
    let (path, def) = defs.iter().find_map(|(path, def)| {
        let around = module.starts_with(&path.iter().map(String::as_str).collect::<Vec<_>>());
        (def.public || around).then_some((path, *def))
    })?;
    let mut full = vec!["crate"];
    full.extend(path.iter().map(String::as_str));
    full.push(&def.name);
    let full = full.join("::");
    // The name is free where the comparison is: it means this module's own
    // item of that name, and the module has none.
    let own = (module.iter().copied())
        .chain([def.name.as_str()])
        .collect::<Vec<_>>()
        .join("::");
    let free = krate.item_path(file, std::slice::from_ref(&def.name), cmp.scope)
        == Some(format!("{}:{own}", place.root));
    match facts.first_item {
        Some(at) if free && here.iter().all(ScopeSegment::is_block) => {
            let edit = Edit::insert(file, at, format!("use {full};\n"));
            Some((def.name.clone(), vec![edit], def))
        }
        _ => Some((full, Vec::new(), def)),
    }
}
