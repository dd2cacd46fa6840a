//! `lowering_backend_mismatch`: a lowering context given a backend for one
//! platform and lowered for others.

use crate::analysis::CrateFacts;
use crate::config::platform;
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Applicability, Diagnostic, Edit, Fix, Span};
use crate::model::facts::{BackendRequest, Site, StrExpr};
use crate::model::lint_id::LintId;

pub const LINT: Lint = Lint {
    id: LintId::LoweringBackendMismatch,
    summary: "a lowering context's backend is for a platform it is not lowered for",
    docs: include_str!("../../lints/lowering_backend_mismatch/README.md"),
    check: Check::Crate(check),
    fixes: true,
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    for (file, ctx) in krate
        .files
        .iter()
        .flat_map(|(id, f)| f.lowering.iter().map(move |c| (*id, c)))
    {
        let resolve_all = |list: &[StrExpr]| -> Option<Vec<String>> {
            list.iter().map(|p| krate.resolve(file, p)).collect()
        };
        // The backend a lowering uses: the one set last before it, on a path
        // that reaches it (else the first one set after it, e.g. a context
        // literal listing `platforms:` before `backend:`).
        // The request is `None` for a backend given by the function that
        // made the context: its literal is that function's to fix.
        let backend_for =
            |site: &Site<Vec<StrExpr>>| -> Option<(String, Span, String, Option<&BackendRequest>)> {
                let reaching = || ctx.backends.iter().filter(|b| b.meets(site));
                let before = reaching()
                    .filter(|b| b.span.start < site.span.start)
                    .max_by_key(|b| b.span.start);
                let after = || {
                    reaching()
                        .filter(|b| b.span.start >= site.span.start)
                        .min_by_key(|b| b.span.start)
                };
                if let Some(b) = before.or_else(after) {
                    let backend = krate.resolve(file, &b.value.platform)?;
                    let label = format!("backend for `{backend}`");
                    return Some((backend, b.span, label, Some(&b.value)));
                }
                // None set here: the one the function that made the context gave it.
                let made = ctx.made_by.iter().find(|m| m.meets(site))?;
                let (backend, f) = krate.context_backend(&made.value)?;
                let label = format!(
                    "made by `{}`, which gives it a backend for `{backend}`",
                    f.call
                );
                Some((backend, made.span, label, None))
            };
        for site in &ctx.platforms {
            let (Some((backend, backend_span, backend_label, request)), Some(platforms)) =
                (backend_for(site), resolve_all(&site.value))
            else {
                continue;
            };
            if platforms
                .iter()
                .any(|p| platform::overlaps(krate.vocab, &backend, p))
            {
                continue;
            }
            let shown = quoted(&platforms);
            let mut d = Diagnostic::new(
                    LINT.id,
                    site.span,
                    format!("lowering for {shown} with a backend for `{backend}`"),
                )
                .with_label(format!("lowered for {shown}"))
                .with_secondary(backend_span, backend_label)
                .with_help(format!(
                    "get the backend for a lowering platform (`get_backend(\"{}\")`) or lower for `{backend}`; at run time this fails with \"the platform for the specified backend {backend} is different from the lowering platform {}\"",
                    first_canonical(krate, &platforms[0]),
                    first_canonical(krate, &platforms[0]),
                ));
            // A backend every lowering of which is for this one platform:
            // a backend shared by lowerings for two platforms has no single
            // right value (the fix would swing between them).
            let shared_with_others = (ctx.platforms.iter().chain(&ctx.loop_platforms))
                .filter(|other| backend_for(other).is_some_and(|(_, s, _, _)| s == backend_span))
                .any(|other| resolve_all(&other.value) != Some(platforms.clone()));
            if !shared_with_others
                && let Some(request) = request
                && let Some(fix) = fix(krate, request, &platforms)
            {
                d = d.with_fix(fix);
            }
            out.push(d);
        }
        for site in &ctx.loop_platforms {
            let (Some((backend, backend_span, _, _)), Some(platforms)) =
                (backend_for(site), resolve_all(&site.value))
            else {
                continue;
            };
            let other: Vec<String> = platforms
                .iter()
                .filter(|p| !platform::overlaps(krate.vocab, &backend, p))
                .cloned()
                .collect();
            if other.is_empty() {
                continue;
            }
            out.push(
                Diagnostic::new(
                    LINT.id,
                    site.span,
                    format!(
                        "a context with a backend for `{backend}` is lowered in a loop over {}",
                        quoted(&platforms)
                    ),
                )
                .with_label(format!("includes {}", quoted(&other)))
                .with_secondary(backend_span, format!("backend for `{backend}`, fixed outside the loop"))
                .with_help("build the context inside the loop, with `get_backend(platform)` for the platform being lowered"),
            );
        }
        // One finding per `get_backend()`, however many lists the context has.
        let multi = ctx
            .platforms
            .iter()
            .chain(&ctx.loop_platforms)
            .find(|site| site.value.len() >= 2);
        for read in &ctx.backend_reads {
            if let Some(site) = multi {
                out.push(
                    Diagnostic::new(
                        LINT.id,
                        *read,
                        "`get_backend()` on a context lowered for several platforms",
                    )
                    .with_label("which backend? the context has one per platform")
                    .with_secondary(site.span, "lowered for these platforms")
                    .with_help("ask for the backend of one platform (`get_backend(\"cuda\")`), or lower for a single platform; JAX raises \"accessing .backend in multi-lowering setting\""),
                );
            }
        }
    }
}

fn quoted(platforms: &[String]) -> String {
    platforms
        .iter()
        .map(|p| format!("`{p}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn first_canonical(krate: &CrateFacts<'_>, p: &str) -> String {
    platform::expand(krate.vocab, p)
        .into_iter()
        .next()
        .unwrap_or_else(|| p.to_string())
}

/// The backend asked for the lowering's one platform, when that is one
/// canonical platform and the request a literal: unsafe, the lowering's
/// platform may be what is wrong (the fix cannot tell which side to change).
fn fix(krate: &CrateFacts<'_>, request: &BackendRequest, platforms: &[String]) -> Option<Fix> {
    let ([platform], Some(literal)) = (platforms, request.literal) else {
        return None;
    };
    let [canonical] = platform::expand(krate.vocab, platform).try_into().ok()?;
    Some(Fix::new(
        Applicability::Unsafe,
        format!("get the backend for `{canonical}`"),
        [Edit::replace(literal, format!("\"{canonical}\""))],
    ))
}
