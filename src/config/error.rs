//! A configuration that cannot be used, shown with an excerpt of its TOML.

use std::path::PathBuf;
use std::sync::Arc;

/// A configuration that cannot be used: the run stops with exit code 2.
#[derive(Debug, Clone)]
pub struct ConfigError {
    pub path: PathBuf,
    pub text: String,
    pub span: Option<std::ops::Range<usize>>,
    pub message: String,
}

impl ConfigError {
    /// `path:line:col: message`, then a miette excerpt of the TOML.
    pub fn render(&self, color: bool) -> String {
        use crate::model::text::{Excerpt, excerpt_fits, visible};
        use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
        // The file comes from the checkout: its name, its text and the
        // parser's message quoting it are shown visibly.
        let shown = crate::model::source::display_path(
            &self.path,
            &std::env::current_dir().unwrap_or_default(),
        );
        let shown = visible(&shown).into_owned();
        let message = visible(&self.message);
        let Some(span) = self.span.clone() else {
            return format!("error: {shown}: {message}\n");
        };
        let file = crate::model::source::SourceFile::new(
            self.path.clone(),
            shown.clone(),
            Arc::from(self.text.as_str()),
        );
        let at = file.line_col(span.start);
        if !excerpt_fits(&file, span.start, span.end) {
            return format!("error: {shown}:{}:{}: {message}\n", at.line, at.column);
        }
        let excerpt = Excerpt::new(&file.text);
        let span = excerpt.offset(span.start)..excerpt.offset(span.end);
        let report = miette::MietteDiagnostic::new(format!("invalid configuration: {message}"))
            .with_labels(vec![LabeledSpan::at(span, "here")])
            .with_help("see `backend-lint config` and the README's Configuration section");
        let report =
            miette::Report::new(report).with_source_code(NamedSource::new(&shown, excerpt.text));
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let mut out = format!("error: {shown}:{}:{}: {message}\n", at.line, at.column);
        let _ = GraphicalReportHandler::new_themed(theme)
            .with_width(100)
            .render_report(&mut out, report.as_ref());
        out
    }
}

/// toml's message, naming the key it is about (`platforms.canonical`).
pub(super) fn describe_toml_error(e: &toml::de::Error, text: &str) -> String {
    let message = e.message().trim().to_string();
    let message = if message.contains("untagged enum KeySpec") {
        "expected an argument index (0-based) or a list of them".to_string()
    } else {
        message
    };
    match e.span().and_then(|s| key_at(text, s.start)) {
        // "unknown field `x`" names the key already.
        Some(key) if !message.contains(&format!("`{}`", key.rsplit('.').next().unwrap_or(""))) => {
            format!("`{key}`: {message}")
        }
        _ => message,
    }
}

/// The dotted key whose value is at `offset`: the last `[table]` header
/// before it, and the key on its line.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let before = text.get(..offset)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string())
        .filter(|k| !k.is_empty() && !k.starts_with('['))?;
    let table = before[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(['[', ']']).trim().to_string());
    Some(match table {
        Some(t) if !t.is_empty() => format!("{t}.{key}"),
        _ => key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_of_an_error_is_named() {
        let text = "[platforms]\ncanonical = \"cpu\"\n";
        assert_eq!(
            key_at(text, text.find("\"cpu\"").unwrap()).as_deref(),
            Some("platforms.canonical")
        );
    }
}
