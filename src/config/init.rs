//! The `backend-lint.toml` that `backend-lint init` writes: every key of the
//! file format, commented out at its built-in value, and what the code
//! taught (`backend-lint config` lists it) as commented suggestions beside
//! the key that would keep it.
//!
//! Settings are written `# key = value` and prose `# text` with no ` = `
//! after a first word, so that a reader (and a test) can tell them apart:
//! uncommenting every setting gives a valid configuration.

use std::fmt::Write;

use super::names::Pattern;
use super::vocab::{
    ALIASES, BACKEND_REQUESTS, BACKEND_SETTERS, BACKENDS, CANONICAL, CANONICALIZERS, FUNCTIONS,
    GUARDS, LOWERING_CALLS, LOWERING_REGISTRATIONS, RUN_ONCE, SOURCES, UNREGISTER,
};
use crate::model::facts::{Inferred, InferredKind};
use crate::model::lint_id::{LintId, REPOSITORY_URL};
use crate::model::text::visible;

/// What was learned, each with the place (`file:line`) that taught it.
pub type Learned = [(Inferred, String)];

/// The commented configuration, with `learned` as suggestions.
pub fn template(learned: &Learned) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = write!(
        w,
        "\
# backend-lint.toml, written by `backend-lint init` (backend-lint {version}).
#
# backend-lint works without configuration: every key is optional, and a key
# commented out keeps the built-in value shown. `x` replaces a built-in list,
# `extend-x` adds to it. Names are exact (`add_kernel`), prefixes (`register*`)
# or exclusions (`!registered*`). What applies here, and what is learned from
# the code: `backend-lint config`. Every key, and the lints that read it:
# {REPOSITORY_URL}/blob/main/docs/configuration.md

# Files not checked: globs relative to this file; a folder excludes what is in it.
# exclude = []

# Lints not reported in some files: a glob relative to this file (without `/`,
# a file name anywhere), and the lints it turns off there.
[per-file-ignores]
# \"tests/**\" = [\"duplicate_registration\"]

# Each lint's level: \"allow\" (not run), \"warn\" (reported; exit 0) or \"deny\"
# (reported; exit 1). `backend-lint lints` lists them, `explain NAME` says more.
[lints]
",
        version = env!("CARGO_PKG_VERSION")
    );
    for id in LintId::ALL {
        let _ = writeln!(w, "# {} = \"{}\"", id.name(), id.default_level().as_str());
    }

    w.push_str("\n[platforms]\n");
    w.push_str("# The names platforms have once canonicalized.\n");
    setting(w, "canonical", &list(CANONICAL));
    setting(w, "extend-canonical", "[]");
    w.push_str("# Names that stand for several canonical platforms.\n");
    let aliases: Vec<String> = (ALIASES.iter())
        .map(|(alias, targets)| format!("{alias} = {}", list(targets)))
        .collect();
    setting(w, "aliases", &format!("{{ {} }}", aliases.join(", ")));
    setting(w, "extend-aliases", "{}");
    w.push_str("# Functions and methods whose result is a canonical platform.\n");
    setting(w, "canonicalizers", &list(CANONICALIZERS));
    names_learned(
        w,
        "extend-canonicalizers",
        learned,
        InferredKind::Canonicalizer,
    );
    w.push_str("# Methods (no arguments), fields and functions giving a raw platform name.\n");
    setting(w, "sources", &list(SOURCES));
    names_learned(w, "extend-sources", learned, InferredKind::Source);
    w.push_str("# Report raw platform comparisons in test code too.\n");
    setting(w, "check-tests", "false");
    value_sets(w, learned);

    w.push_str("\n[registration]\n");
    w.push_str(
        "# Registration functions; `key`: the index (0-based) of the key argument, or a list.\n",
    );
    let builtin: Vec<String> = FUNCTIONS
        .iter()
        .map(|(name, key)| function(name, key))
        .collect();
    setting(w, "functions", &format!("[{}]", builtin.join(", ")));
    functions_learned(w, learned);
    w.push_str("# `register_lowering(primitive, rule, platform)`-shaped registrations.\n");
    pair(w, "lowering", LOWERING_REGISTRATIONS);
    w.push_str("# Registrations keyed by the platform a backend serves.\n");
    pair(w, "backends", BACKENDS);
    w.push_str(
        "# Checks that make a registration conditional: `if !has_kernel(k) { add_kernel(k) }`.\n",
    );
    pair(w, "guards", GUARDS);
    w.push_str("# Calls that remove a registration.\n");
    pair(w, "unregister", UNREGISTER);
    w.push_str("# Methods whose closure runs at most once (`get_or_init`).\n");
    pair(w, "run-once", RUN_ONCE);
    w.push_str("# Report duplicate registrations within test code too.\n");
    setting(w, "check-tests", "false");

    w.push_str("\n[lowering]\n");
    w.push_str("# Lowering calls (`lower(&ctx, &[\"cuda\"])`).\n");
    pair(w, "calls", LOWERING_CALLS);
    w.push_str("# Methods that give a lowering context its backend.\n");
    pair(w, "backend-setters", BACKEND_SETTERS);
    w.push_str("# Calls that ask for a platform's backend (`get_backend(\"cpu\")`).\n");
    pair(w, "backend-requests", BACKEND_REQUESTS);
    out
}

/// `# key = value`.
fn setting(w: &mut String, key: &str, value: &str) {
    let _ = writeln!(w, "# {key} = {value}");
}

/// `x` at its built-in value, and `extend-x` empty.
fn pair(w: &mut String, key: &str, builtin: &[&str]) {
    setting(w, key, &list(builtin));
    setting(w, &format!("extend-{key}"), "[]");
}

/// A TOML array of strings.
fn list<S: AsRef<str>>(names: &[S]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| quote(n.as_ref())).collect();
    format!("[{}]", quoted.join(", "))
}

/// A TOML string: quoted and escaped, whatever the checkout wrote.
fn quote(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// `{ name = "register_handler", key = [0, 1] }`; an exclusion has no key.
fn function(name: &str, key: &[usize]) -> String {
    let key = match key {
        [] => return format!("{{ name = {} }}", quote(name)),
        [one] => one.to_string(),
        many => format!(
            "[{}]",
            many.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!("{{ name = {}, key = {key} }}", quote(name))
}

/// The name a configuration can list for a learned one: its last segment
/// (`Device::platform_of` -> `platform_of`), when that is a plain name.
fn configurable(name: &str) -> Option<&str> {
    let last = name.rsplit("::").next()?;
    Pattern::parse(last)
        .ok()
        .filter(|p| !p.prefix && !p.exclude)
        .map(|_| last)
}

/// The learned names of `kind`, each with where and why, in a comment.
fn describe(w: &mut String, learned: &Learned, kind: InferredKind) {
    for (i, place) in learned.iter().filter(|(i, _)| i.kind == kind) {
        // A learned registration's reason names its place for the
        // findings' labels; here the place is shown once, first.
        let why = i.why.replace(&format!(" at {place}"), "");
        let _ = writeln!(
            w,
            "#   `{}` ({}): {}",
            visible(&i.name),
            visible(place),
            visible(&why)
        );
    }
}

const LEARNED: &str = "\
# Learned from the code, and used as if listed here; listing them keeps them
# whatever the code becomes:
";

/// `extend-x` with the learned names of `kind`, or empty when none was.
fn names_learned(w: &mut String, key: &str, learned: &Learned, kind: InferredKind) {
    let mut names: Vec<&str> = (learned.iter())
        .filter(|(i, _)| i.kind == kind)
        .filter_map(|(i, _)| configurable(&i.name))
        .collect();
    names.dedup();
    if names.is_empty() {
        return setting(w, key, "[]");
    }
    w.push_str(LEARNED);
    describe(w, learned, kind);
    setting(w, key, &list(&names));
}

/// `extend-functions` with the learned registration functions and their
/// keys; a helper registering constant keys has none to write, and is only
/// described.
fn functions_learned(w: &mut String, learned: &Learned) {
    let mut entries: Vec<String> = (learned.iter())
        .filter(|(i, _)| i.kind == InferredKind::Registration && !i.key.is_empty())
        .filter_map(|(i, _)| Some(function(configurable(&i.name)?, &i.key)))
        .collect();
    entries.dedup();
    if !learned
        .iter()
        .any(|(i, _)| i.kind == InferredKind::Registration)
    {
        return setting(w, "extend-functions", "[]");
    }
    w.push_str(LEARNED);
    describe(w, learned, InferredKind::Registration);
    w.push_str(
        "# Below, those a configuration can say as learned (a name listed counts at\n\
         # every call of that name; a learned one, only where it was learned):\n",
    );
    setting(w, "extend-functions", &format!("[{}]", entries.join(", ")));
}

/// The learned closed sets of values: no key configures them.
fn value_sets(w: &mut String, learned: &Learned) {
    if !learned
        .iter()
        .any(|(i, _)| i.kind == InferredKind::ValueSet)
    {
        return;
    }
    w.push_str("# Learned from the code, with no key to configure them: closed sets of values\n");
    describe(w, learned, InferredKind::ValueSet);
}

#[cfg(test)]
mod tests {
    use super::super::file::{RawConfig, RawLowering, RawPlatforms, RawRegistration};
    use super::*;

    /// Every `# key = value` line uncommented.
    fn uncommented(text: &str) -> String {
        let setting = |rest: &str| {
            rest.split_once(" = ").is_some_and(|(key, _)| {
                !key.is_empty()
                    && (key.chars()).all(|c| c.is_ascii_alphanumeric() || "_-\"*/.".contains(c))
            })
        };
        (text.lines())
            .map(|l| match l.strip_prefix("# ") {
                Some(rest) if setting(rest) => rest,
                _ => l,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every key of the file format is in the template: the fields are
    /// named without `..`, so a new key fails to compile here until the
    /// template has it.
    #[test]
    fn the_template_has_every_key_at_its_builtin_value() {
        let text = uncommented(&template(&[]));
        let raw: RawConfig = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let RawConfig {
            exclude,
            per_file_ignores,
            lints,
            platforms,
            registration,
            lowering,
        } = raw;
        assert!(exclude.is_some() && per_file_ignores.is_some());
        assert_eq!(lints.unwrap().len(), LintId::COUNT);
        let RawPlatforms {
            canonical,
            extend_canonical,
            aliases,
            extend_aliases,
            canonicalizers,
            extend_canonicalizers,
            sources,
            extend_sources,
            check_tests,
        } = platforms.unwrap();
        assert!(canonical.is_some() && extend_canonical.is_some());
        assert!(aliases.is_some() && extend_aliases.is_some());
        assert!(canonicalizers.is_some() && extend_canonicalizers.is_some());
        assert!(sources.is_some() && extend_sources.is_some() && check_tests.is_some());
        let RawRegistration {
            functions,
            extend_functions,
            lowering: lowering_registrations,
            extend_lowering,
            backends,
            extend_backends,
            guards,
            extend_guards,
            unregister,
            extend_unregister,
            run_once,
            extend_run_once,
            check_tests,
        } = registration.unwrap();
        assert!(functions.is_some() && extend_functions.is_some());
        assert!(lowering_registrations.is_some() && extend_lowering.is_some());
        assert!(backends.is_some() && extend_backends.is_some());
        assert!(guards.is_some() && extend_guards.is_some());
        assert!(unregister.is_some() && extend_unregister.is_some());
        assert!(run_once.is_some() && extend_run_once.is_some() && check_tests.is_some());
        let RawLowering {
            calls,
            extend_calls,
            backend_setters,
            extend_backend_setters,
            backend_requests,
            extend_backend_requests,
        } = lowering.unwrap();
        assert!(calls.is_some() && extend_calls.is_some());
        assert!(backend_setters.is_some() && extend_backend_setters.is_some());
        assert!(backend_requests.is_some() && extend_backend_requests.is_some());
    }

    /// Uncommented, the built-in values give the built-in configuration.
    #[test]
    fn the_builtin_values_written_are_the_builtin_configuration() {
        let text = uncommented(&template(&[]))
            // The example entry is no built-in value.
            .replace("\"tests/**\" = [\"duplicate_registration\"]", "");
        let raw: RawConfig = toml::from_str(&text).unwrap();
        let origin = super::super::Origin::Builtin;
        let written = super::super::Config::from_raw(raw, origin, &Default::default()).unwrap();
        let builtin = super::super::Config::default();
        assert_eq!(written.to_toml(), builtin.to_toml());
    }
}
