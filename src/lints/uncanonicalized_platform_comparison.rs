//! `uncanonicalized_platform_comparison`: a device's raw platform string
//! compared without going through `canonicalize_platform`.

use crate::analysis::CrateFacts;
use crate::config::Names;
use crate::lints::non_canonical_platform_literal::{Subject, comparison_fix};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Diagnostic, Edit};
use crate::model::facts::{Comparison, ComparisonKind, FileFacts, Operand, ScopeSegment, Side};
use crate::model::lint_id::LintId;
use crate::model::source::FileId;

pub const LINT: Lint = Lint {
    id: LintId::UncanonicalizedPlatformComparison,
    summary: "a raw platform string is compared without canonicalization",
    docs: include_str!("../../lints/uncanonicalized_platform_comparison/README.md"),
    check: Check::Crate(check),
    fixes: true,
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
        let compared: Vec<usize> = (cmp.sides.iter().enumerate())
            .filter(|&(i, s)| i != raw && compares_as_platform(krate, file, s))
            .map(|(i, _)| i)
            .collect();
        if compared.is_empty() {
            continue;
        }
        let (call, extra) = canonicalizer_call(krate, file, cmp);
        let literals: Vec<usize> = (compared.iter().copied())
            .filter(|&i| matches!(cmp.sides[i].operand, Operand::Str(_)))
            .collect();
        let subject = Subject::Wrapped {
            call: &call,
            side: raw,
            extra,
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

/// The canonicalizer the configuration names first.
fn canonicalizer<'v>(krate: &CrateFacts<'v>) -> &'v str {
    (krate.vocab.first_name(Names::Canonicalizers)).unwrap_or("canonicalize_platform")
}

/// How the comparison's code calls the canonicalizer, and the edits that
/// lets it: its name where a `use` of the file brings it in (or may: a
/// glob) or where no file of the package imports it (defined here, or not
/// known), else the path another file imports it by, with a `use` of it
/// added at the top of the file when the comparison is in the file's own
/// module, written out in full in an inline module.
fn canonicalizer_call(
    krate: &CrateFacts<'_>,
    file: FileId,
    cmp: &Comparison,
) -> (String, Vec<Edit>) {
    let name = canonicalizer(krate);
    let Some(facts) = krate.facts(file) else {
        return (name.to_string(), Vec::new());
    };
    let here = &facts.scopes[cmp.scope as usize];
    let visible = facts.uses.iter().any(|u| {
        u.alias.as_deref().is_none_or(|a| a == name)
            && seen_from(&facts.scopes[u.scope as usize], here)
    });
    let Some(path) = (!visible)
        .then(|| imported_path(krate, file, name))
        .flatten()
    else {
        return (name.to_string(), Vec::new());
    };
    // Defined in this very module: its name is in scope (a `use` of it
    // would define it twice).
    let module: Vec<&str> = (krate.place(file).module.iter().chain(here))
        .filter_map(ScopeSegment::module)
        .collect();
    if path[1..path.len() - 1] == module[..] {
        return (name.to_string(), Vec::new());
    }
    let path = path.join("::");
    match facts.first_item {
        Some(at) if here.iter().all(ScopeSegment::is_block) => {
            let edit = Edit::insert(file, at, format!("use {path};\n"));
            (name.to_string(), vec![edit])
        }
        _ => (path, Vec::new()),
    }
}

/// A name declared in scope `decl` is seen from scope `from`: `from` is
/// `decl` or a function body within it (a module below it is not).
fn seen_from(decl: &[ScopeSegment], from: &[ScopeSegment]) -> bool {
    from.starts_with(decl) && from[decl.len()..].iter().all(ScopeSegment::is_block)
}

/// The path from the crate root (`crate::platform::canonicalize_platform`)
/// by which a file of the same crate root imports `name`.
fn imported_path(krate: &CrateFacts<'_>, file: FileId, name: &str) -> Option<Vec<String>> {
    let root = krate.place(file).root;
    krate
        .files
        .iter()
        .find_map(|&(other, facts): &(FileId, &FileFacts)| {
            let place = krate.place(other);
            if place.root != root {
                return None;
            }
            facts.uses.iter().find_map(|u| {
                if u.alias.as_deref() != Some(name)
                    || u.target.last().map(String::as_str) != Some(name)
                {
                    return None;
                }
                let mut module: Vec<String> =
                    (place.module.iter().chain(&facts.scopes[u.scope as usize]))
                        .filter_map(|s| s.module().map(str::to_string))
                        .collect();
                let mut target = u.target.iter();
                match target.next()?.as_str() {
                    "crate" => module.clear(),
                    "self" => {}
                    "super" => {
                        module.pop()?;
                        while target.as_slice().first().is_some_and(|s| s == "super") {
                            target.next();
                            module.pop()?;
                        }
                    }
                    // A path from another crate, or relative to the module.
                    _ => return None,
                }
                let mut path = vec!["crate".to_string()];
                path.extend(module);
                path.extend(target.cloned());
                Some(path)
            })
        })
}
