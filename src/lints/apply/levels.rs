//! Levels applied to a crate's findings: each gets the severity of its
//! lint's level in the crate's configuration, and allowed ones are dropped.

use crate::config::Config;
use crate::model::diagnostic::Diagnostic;

/// Give findings the severity of their lint's level; drop allowed ones.
pub fn apply_levels(diagnostics: &mut Vec<Diagnostic>, config: &Config) {
    diagnostics.retain_mut(|d| match config.level(d.lint).severity() {
        Some(severity) => {
            d.severity = severity;
            true
        }
        None => false,
    });
}
