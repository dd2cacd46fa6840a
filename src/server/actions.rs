//! Code actions and hover over the findings last published.

use std::collections::HashMap;

use lsp_types as lsp;

use crate::lints;
use crate::model::diagnostic::{Applicability, Fix};
use crate::model::fix::non_overlapping;

use super::convert::{self, Lines};
use super::workspace::FileFindings;

/// The kind of "fix all": the safe fixes of the file, as ruff's
/// `source.fixAll.ruff` (editors run it on save when configured).
pub const FIX_ALL: &str = "source.fixAll.backend-lint";

/// The actions for `range` of a file: each finding's fix there (safe ones
/// preferred, unsafe ones marked), its suppression comment, and the fix of
/// every safe finding of the file, as `only` (the client's filter) allows.
pub fn code_actions(
    uri: &lsp::Uri,
    file: &FileFindings,
    range: lsp::Range,
    only: Option<&[lsp::CodeActionKind]>,
) -> Vec<lsp::CodeActionOrCommand> {
    let wants = |kind: &str| {
        only.is_none_or(|only| {
            only.iter()
                .any(|o| kind == o.as_str() || kind.starts_with(&format!("{}.", o.as_str())))
        })
    };
    let mut out = Vec::new();
    let touches = |r: &lsp::Range| r.start <= range.end && range.start <= r.end;
    if wants(lsp::CodeActionKind::QUICKFIX.as_str()) {
        for f in file
            .findings
            .iter()
            .filter(|f| touches(&f.diagnostic.range))
        {
            let lint = f.model.lint.name();
            if let (Some(fix), Some(edit)) = (&f.model.fix, &f.fix) {
                let safe = fix.applicability == Applicability::Safe;
                let title = match safe {
                    true => format!("{} ({lint})", fix.message),
                    false => format!("{} ({lint}, unsafe fix: may change behaviour)", fix.message),
                };
                out.push(action(title, lsp::CodeActionKind::QUICKFIX, f, edit, safe));
            }
            if let Some(edit) = &f.suppress {
                let title = format!("Suppress `{lint}` on this line");
                out.push(action(title, lsp::CodeActionKind::QUICKFIX, f, edit, false));
            }
        }
    }
    if wants(FIX_ALL)
        && let Some(edit) = fix_all(uri, file)
    {
        out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title: "Fix all safe backend-lint findings".to_string(),
            kind: Some(lsp::CodeActionKind::from(FIX_ALL)),
            edit: Some(edit),
            ..Default::default()
        }));
    }
    out
}

fn action(
    title: String,
    kind: lsp::CodeActionKind,
    finding: &super::workspace::Finding,
    edit: &lsp::WorkspaceEdit,
    preferred: bool,
) -> lsp::CodeActionOrCommand {
    lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
        title,
        kind: Some(kind),
        diagnostics: Some(vec![finding.diagnostic.clone()]),
        edit: Some(edit.clone()),
        is_preferred: Some(preferred),
        ..Default::default()
    })
}

/// The safe fixes of the file's findings that change only this file and
/// overlap none taken before, as one edit; `None` when there are none.
fn fix_all(uri: &lsp::Uri, file: &FileFindings) -> Option<lsp::WorkspaceEdit> {
    let own = |fix: &Fix, file_id| fix.edits.iter().all(|e| e.span.file == file_id);
    let safe: Vec<&Fix> = (file.findings.iter())
        .filter_map(|f| f.model.fix.as_ref().filter(|x| own(x, f.model.span.file)))
        .filter(|fix| fix.applicability == Applicability::Safe)
        .collect();
    let chosen = non_overlapping(safe);
    if chosen.is_empty() {
        return None;
    }
    let lines = Lines::new(&file.text);
    let mut edits: Vec<&crate::model::diagnostic::Edit> =
        chosen.iter().flat_map(|f| &f.edits).collect();
    edits.sort();
    edits.dedup();
    let edits = (edits.into_iter())
        .map(|e| lsp::TextEdit {
            range: lines.range(e.span.start, e.span.end),
            new_text: e.replacement.clone(),
        })
        .collect();
    Some(lsp::WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..Default::default()
    })
}

/// The explanation of the findings at `position`: each one's message and
/// help, then its lint's documentation (what `explain` prints).
pub fn hover(file: &FileFindings, position: lsp::Position) -> Option<lsp::Hover> {
    let offset = Lines::new(&file.text).offset(position);
    let here: Vec<_> = (file.findings.iter())
        .filter(|f| f.start <= offset && offset <= f.end)
        .collect();
    let first = here.first()?;
    let mut text = String::new();
    for f in &here {
        let lint = f.model.lint;
        text.push_str(&format!(
            "**{}** `{}`: {}\n\n",
            convert::SOURCE,
            lint.name(),
            f.model.message
        ));
        if let Some(help) = &f.model.help {
            text.push_str(&format!("help: {help}\n\n"));
        }
    }
    let mut lints_shown: Vec<_> = here.iter().map(|f| f.model.lint).collect();
    lints_shown.dedup();
    for lint in lints_shown {
        text.push_str("---\n\n");
        text.push_str(lints::lint(lint).docs);
        text.push('\n');
    }
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: text,
        }),
        range: Some(first.diagnostic.range),
    })
}
