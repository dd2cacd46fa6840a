//! `lowering_backend_mismatch`: a lowering context given a backend for one
//! platform and lowered for others.

use crate::analysis::CrateFacts;
use crate::analysis::facts::StrExpr;
use crate::diagnostic::{Diagnostic, Severity};
use crate::lints::Lint;
use crate::platform;

pub const LINT: Lint = Lint {
    name: "lowering_backend_mismatch",
    default_severity: Severity::Error,
    summary: "a lowering context's backend is for a platform it is not lowered for",
    docs: include_str!("../../lints/lowering_backend_mismatch/README.md"),
    check,
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
        for (backend, backend_span) in &ctx.backends {
            let Some(backend) = krate.resolve(file, backend) else {
                continue;
            };
            let backend = backend.as_str();
            for (list, span) in &ctx.platforms {
                let Some(platforms) = resolve_all(list) else {
                    continue;
                };
                if platforms.iter().any(|p| platform::overlaps(backend, p)) {
                    continue;
                }
                let shown = quoted(&platforms);
                out.push(
                    Diagnostic::new(
                        LINT.name,
                        LINT.default_severity,
                        *span,
                        format!("lowering for {shown} with a backend for `{backend}`"),
                    )
                    .with_label(format!("lowered for {shown}"))
                    .with_secondary(*backend_span, format!("backend for `{backend}`"))
                    .with_help(format!(
                        "get the backend for a lowering platform (`get_backend(\"{}\")`) or lower for `{backend}`; at run time this fails with \"the platform for the specified backend {backend} is different from the lowering platform {}\"",
                        first_canonical(&platforms[0]),
                        first_canonical(&platforms[0]),
                    )),
                );
            }
            for (list, span) in &ctx.loop_platforms {
                let Some(platforms) = resolve_all(list) else {
                    continue;
                };
                let other: Vec<String> = platforms
                    .iter()
                    .filter(|p| !platform::overlaps(backend, p))
                    .cloned()
                    .collect();
                if other.is_empty() {
                    continue;
                }
                out.push(
                    Diagnostic::new(
                        LINT.name,
                        LINT.default_severity,
                        *span,
                        format!(
                            "a context with a backend for `{backend}` is lowered in a loop over {}",
                            quoted(&platforms)
                        ),
                    )
                    .with_label(format!("includes {}", quoted(&other)))
                    .with_secondary(*backend_span, format!("backend for `{backend}`, fixed outside the loop"))
                    .with_help("build the context inside the loop, with `get_backend(platform)` for the platform being lowered"),
                );
            }
        }
        // One finding per `get_backend()`, however many lists the context has.
        let multi = ctx
            .platforms
            .iter()
            .chain(&ctx.loop_platforms)
            .find(|(list, _)| list.len() >= 2);
        for read in &ctx.backend_reads {
            if let Some((_, span)) = multi {
                out.push(
                    Diagnostic::new(
                        LINT.name,
                        LINT.default_severity,
                        *read,
                        "`get_backend()` on a context lowered for several platforms",
                    )
                    .with_label("which backend? the context has one per platform")
                    .with_secondary(*span, "lowered for these platforms")
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

fn first_canonical(p: &str) -> String {
    platform::expand(p)
        .into_iter()
        .next()
        .unwrap_or_else(|| p.to_string())
}
