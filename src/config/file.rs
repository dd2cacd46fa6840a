//! The file format: what `backend-lint.toml` (or a `Cargo.toml`'s metadata
//! table) may say, how it becomes a [`Config`] (the built-in one is what
//! an empty file gives), and the effective configuration written back as
//! TOML for `backend-lint config`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::error::{ConfigError, describe_toml_error};
use super::names::{NameSet, Pattern};
use super::resolved::{Config, Origin, Overrides, PerFileIgnore, unknown_lint_message};
use super::vocab::{ALIASES, CANONICAL, CallReceiver, Function, Vocabulary};
use crate::model::lint_id::{Level, LintId};

type NameList = Option<Vec<Spanned<String>>>;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawConfig {
    pub(super) exclude: NameList,
    pub(super) per_file_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    pub(super) lints: Option<BTreeMap<Spanned<String>, Level>>,
    pub(super) platforms: Option<RawPlatforms>,
    pub(super) registration: Option<RawRegistration>,
    pub(super) lowering: Option<RawLowering>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawPlatforms {
    pub(super) canonical: NameList,
    pub(super) extend_canonical: NameList,
    pub(super) aliases: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    pub(super) extend_aliases: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    pub(super) canonicalizers: NameList,
    pub(super) extend_canonicalizers: NameList,
    pub(super) sources: NameList,
    pub(super) extend_sources: NameList,
    pub(super) check_tests: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawRegistration {
    pub(super) functions: Option<Vec<RawFunction>>,
    pub(super) extend_functions: Option<Vec<RawFunction>>,
    pub(super) lowering: NameList,
    pub(super) extend_lowering: NameList,
    pub(super) backends: NameList,
    pub(super) extend_backends: NameList,
    pub(super) guards: NameList,
    pub(super) extend_guards: NameList,
    pub(super) unregister: NameList,
    pub(super) extend_unregister: NameList,
    pub(super) run_once: NameList,
    pub(super) extend_run_once: NameList,
    pub(super) check_tests: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFunction {
    name: Spanned<String>,
    #[serde(default)]
    key: Option<Spanned<KeySpec>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum KeySpec {
    One(usize),
    Many(Vec<usize>),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawLowering {
    pub(super) calls: NameList,
    pub(super) extend_calls: NameList,
    pub(super) backend_setters: NameList,
    pub(super) extend_backend_setters: NameList,
    pub(super) backend_requests: NameList,
    pub(super) extend_backend_requests: NameList,
}

/// `Cargo.toml`, read only for our metadata tables.
#[derive(Debug, Deserialize)]
struct Manifest {
    package: Option<MetadataHolder>,
    workspace: Option<MetadataHolder>,
}

#[derive(Debug, Deserialize)]
struct MetadataHolder {
    metadata: Option<Metadata>,
}

#[derive(Debug, Deserialize)]
struct Metadata {
    #[serde(rename = "backend-lint")]
    backend_lint: Option<RawConfig>,
}

impl Default for Config {
    fn default() -> Self {
        Config::from_raw(RawConfig::default(), Origin::Builtin, &Overrides::default())
            .expect("the built-in configuration is valid")
    }
}

impl Config {
    /// Built-in defaults with command-line levels.
    pub fn builtin(overrides: &Overrides) -> Config {
        Config::from_raw(RawConfig::default(), Origin::Builtin, overrides)
            .expect("the built-in configuration is valid")
    }

    /// Read one configuration file (`backend-lint.toml` or a `Cargo.toml`
    /// with our metadata). `Ok(None)`: a `Cargo.toml` without it.
    pub fn load(path: &Path, overrides: &Overrides) -> Result<Option<Config>, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            text: String::new(),
            span: None,
            message: format!("cannot read the configuration: {e}"),
        })?;
        let error = |span: Option<std::ops::Range<usize>>, message: String| ConfigError {
            path: path.to_path_buf(),
            text: text.clone(),
            span,
            message,
        };
        let is_manifest = path.file_name().is_some_and(|n| n == "Cargo.toml");
        let (raw, origin) = if is_manifest {
            let manifest: Manifest = match toml::from_str(&text) {
                Ok(m) => m,
                // A manifest we cannot read without our table is cargo's business.
                Err(_) if !text.contains("backend-lint") => return Ok(None),
                Err(e) => return Err(error(e.span(), describe_toml_error(&e, &text))),
            };
            let package = manifest
                .package
                .and_then(|p| p.metadata)
                .and_then(|m| m.backend_lint);
            let workspace = manifest
                .workspace
                .and_then(|p| p.metadata)
                .and_then(|m| m.backend_lint);
            match (package, workspace) {
                (Some(raw), _) => (raw, Origin::PackageMetadata(path.to_path_buf())),
                (None, Some(raw)) => (raw, Origin::WorkspaceMetadata(path.to_path_buf())),
                (None, None) => return Ok(None),
            }
        } else {
            let raw: RawConfig = toml::from_str(&text)
                .map_err(|e| error(e.span(), describe_toml_error(&e, &text)))?;
            (raw, Origin::File(path.to_path_buf()))
        };
        Config::from_raw(raw, origin, overrides)
            .map(Some)
            .map_err(|(span, message)| error(span, message))
    }

    pub(super) fn from_raw(
        raw: RawConfig,
        origin: Origin,
        overrides: &Overrides,
    ) -> Result<Config, Invalid> {
        let mut levels = LintId::ALL.map(LintId::default_level);
        for (name, level) in raw.lints.unwrap_or_default() {
            let Some(id) = LintId::from_name(name.get_ref()) else {
                return Err((Some(name.span()), unknown_lint_message(name.get_ref())));
            };
            levels[id.index()] = level;
        }
        // `--select` asks for its lints, as ruff's enables its rules: one
        // the configuration allows runs at its default level. Then -A/-W/-D
        // set the levels, and the lints not selected are off whatever they
        // say.
        let selected = overrides.selected();
        for &id in selected.iter().flatten() {
            if levels[id.index()] == Level::Allow {
                levels[id.index()] = id.default_level();
            }
        }
        let mut warnings = None;
        for (name, level) in &overrides.levels {
            if name == "warnings" {
                warnings = Some(*level);
            } else if let Some(id) = LintId::from_written(name) {
                levels[id.index()] = *level;
            }
        }
        if let Some(w) = warnings {
            for slot in levels.iter_mut().filter(|l| **l == Level::Warn) {
                *slot = w;
            }
        }
        if let Some(selected) = &selected {
            for id in LintId::ALL.into_iter().filter(|id| !selected.contains(id)) {
                levels[id.index()] = Level::Allow;
            }
        }

        let platforms = raw.platforms.unwrap_or_default();
        let registration = raw.registration.unwrap_or_default();
        let lowering = raw.lowering.unwrap_or_default();
        let defaults = Vocabulary::default();
        let canonical = words(platforms.canonical, platforms.extend_canonical, CANONICAL)?;
        let aliases = aliases(platforms.aliases, platforms.extend_aliases, &canonical)?;
        let vocab = Vocabulary {
            platform_variants: super::vocab::platform_variants(
                canonical.iter().map(String::as_str),
            ),
            canonical,
            aliases,
            canonicalizers: names(
                platforms.canonicalizers,
                platforms.extend_canonicalizers,
                &defaults.canonicalizers,
            )?,
            sources: names(
                platforms.sources,
                platforms.extend_sources,
                &defaults.sources,
            )?,
            functions: functions(
                registration.functions,
                registration.extend_functions,
                &defaults.functions,
            )?,
            lowering_registrations: names(
                registration.lowering,
                registration.extend_lowering,
                &defaults.lowering_registrations,
            )?,
            backends: names(
                registration.backends,
                registration.extend_backends,
                &defaults.backends,
            )?,
            guards: names(
                registration.guards,
                registration.extend_guards,
                &defaults.guards,
            )?,
            unregister: names(
                registration.unregister,
                registration.extend_unregister,
                &defaults.unregister,
            )?,
            run_once: names(
                registration.run_once,
                registration.extend_run_once,
                &defaults.run_once,
            )?,
            lowering_calls: names(
                lowering.calls,
                lowering.extend_calls,
                &defaults.lowering_calls,
            )?,
            backend_setters: names(
                lowering.backend_setters,
                lowering.extend_backend_setters,
                &defaults.backend_setters,
            )?,
            backend_requests: names(
                lowering.backend_requests,
                lowering.extend_backend_requests,
                &defaults.backend_requests,
            )?,
            check_tests: platforms.check_tests.unwrap_or(defaults.check_tests),
            check_test_registrations: registration
                .check_tests
                .unwrap_or(defaults.check_test_registrations),
            ..defaults.clone()
        };
        let mut exclude = Vec::new();
        for pattern in raw.exclude.unwrap_or_default() {
            exclude.push((pattern.get_ref().clone(), glob(&pattern)?));
        }
        let mut per_file_ignores = Vec::new();
        for (pattern, names) in raw.per_file_ignores.unwrap_or_default() {
            let mut lints = Vec::new();
            for name in names {
                let Some(id) = LintId::from_name(name.get_ref()) else {
                    return Err((Some(name.span()), unknown_lint_message(name.get_ref())));
                };
                lints.push(id);
            }
            per_file_ignores.push(PerFileIgnore {
                glob: glob(&pattern)?,
                name_too: !pattern.get_ref().contains('/'),
                pattern: pattern.into_inner(),
                lints,
            });
        }
        Ok(Config {
            vocab,
            levels,
            exclude,
            per_file_ignores,
            origin,
        })
    }

    /// The effective configuration as TOML, for `backend-lint config`.
    pub fn to_toml(&self) -> String {
        let effective = Effective {
            exclude: self.exclude.iter().map(|(p, _)| p.clone()).collect(),
            per_file_ignores: (self.per_file_ignores.iter())
                .map(|p| {
                    let lints = p.lints.iter().map(|l| l.name().to_string()).collect();
                    (p.pattern.clone(), lints)
                })
                .collect(),
            lints: LintId::ALL
                .iter()
                .map(|&id| (id.name().to_string(), self.level(id)))
                .collect(),
            platforms: EffectivePlatforms {
                canonical: self.vocab.canonical.clone(),
                aliases: self.vocab.aliases.iter().cloned().collect(),
                canonicalizers: self.vocab.canonicalizers.texts(),
                sources: self.vocab.sources.texts(),
                check_tests: self.vocab.check_tests,
            },
            registration: EffectiveRegistration {
                functions: (self.vocab.functions.iter())
                    .chain(self.vocab.learned.list())
                    .map(|f| EffectiveFunction {
                        name: f.pattern.text.clone(),
                        key: (!f.pattern.exclude).then(|| f.key.clone()),
                    })
                    .collect(),
                lowering: self.vocab.lowering_registrations.texts(),
                backends: self.vocab.backends.texts(),
                guards: self.vocab.guards.texts(),
                unregister: self.vocab.unregister.texts(),
                run_once: self.vocab.run_once.texts(),
                check_tests: self.vocab.check_test_registrations,
            },
            lowering: EffectiveLowering {
                calls: self.vocab.lowering_calls.texts(),
                backend_setters: self.vocab.backend_setters.texts(),
                backend_requests: self.vocab.backend_requests.texts(),
            },
        };
        let body = toml::to_string_pretty(&effective).unwrap_or_default();
        format!(
            "# from: {}\n\n{body}",
            crate::model::text::visible(&self.origin.describe())
        )
    }
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct Effective {
    exclude: Vec<String>,
    per_file_ignores: BTreeMap<String, Vec<String>>,
    lints: BTreeMap<String, Level>,
    platforms: EffectivePlatforms,
    registration: EffectiveRegistration,
    lowering: EffectiveLowering,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct EffectivePlatforms {
    canonical: Vec<String>,
    aliases: BTreeMap<String, Vec<String>>,
    canonicalizers: Vec<String>,
    sources: Vec<String>,
    check_tests: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct EffectiveRegistration {
    functions: Vec<EffectiveFunction>,
    lowering: Vec<String>,
    backends: Vec<String>,
    guards: Vec<String>,
    unregister: Vec<String>,
    run_once: Vec<String>,
    check_tests: bool,
}

#[derive(Serialize)]
struct EffectiveFunction {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<Vec<usize>>,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct EffectiveLowering {
    calls: Vec<String>,
    backend_setters: Vec<String>,
    backend_requests: Vec<String>,
}

type Invalid = (Option<std::ops::Range<usize>>, String);

/// A glob of `exclude` or `[per-file-ignores]`: `*` stops at `/`.
fn glob(pattern: &Spanned<String>) -> Result<globset::GlobMatcher, Invalid> {
    let glob = globset::GlobBuilder::new(pattern.get_ref())
        .literal_separator(true)
        .build()
        .map_err(|e| {
            (
                Some(pattern.span()),
                format!("`{}` is not a glob: {}", pattern.get_ref(), e.kind()),
            )
        })?;
    Ok(glob.compile_matcher())
}

/// `x` replaces the built-in list, `extend-x` adds to it.
fn names(replace: NameList, extend: NameList, default: &NameSet) -> Result<NameSet, Invalid> {
    let mut patterns = match replace {
        Some(list) => parse_patterns(list)?,
        None => default.patterns.clone(),
    };
    patterns.extend(parse_patterns(extend.unwrap_or_default())?);
    Ok(NameSet::new(patterns))
}

fn parse_patterns(list: Vec<Spanned<String>>) -> Result<Vec<Pattern>, Invalid> {
    list.into_iter()
        .map(|s| Pattern::parse(s.get_ref()).map_err(|m| (Some(s.span()), m)))
        .collect()
}

/// Platform names: plain lower-case names, no patterns.
fn words(replace: NameList, extend: NameList, default: &[&str]) -> Result<Vec<String>, Invalid> {
    let mut out: Vec<String> = match replace {
        Some(list) => list.into_iter().map(Spanned::into_inner).collect(),
        None => default.iter().map(|s| s.to_string()).collect(),
    };
    out.extend(
        extend
            .unwrap_or_default()
            .into_iter()
            .map(Spanned::into_inner),
    );
    out.dedup();
    Ok(out)
}

type RawAliases = Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>;

fn aliases(
    replace: RawAliases,
    extend: RawAliases,
    canonical: &[String],
) -> Result<Vec<(String, Vec<String>)>, Invalid> {
    let mut out: Vec<(String, Vec<String>)> = match replace {
        Some(_) => Vec::new(),
        None => ALIASES
            .iter()
            .map(|(a, t)| (a.to_string(), t.iter().map(|s| s.to_string()).collect()))
            .collect(),
    };
    for (alias, targets) in replace.into_iter().chain(extend).flatten() {
        if canonical
            .iter()
            .any(|c| c.eq_ignore_ascii_case(alias.get_ref()))
        {
            return Err((
                Some(alias.span()),
                format!(
                    "`{}` is a canonical platform and cannot also be an alias",
                    alias.get_ref()
                ),
            ));
        }
        let mut names = Vec::new();
        for t in targets {
            if !canonical.contains(t.get_ref()) {
                return Err((
                    Some(t.span()),
                    format!(
                        "alias `{}` stands for `{}`, which is not a canonical platform (add it to `platforms.canonical` or `platforms.extend-canonical`)",
                        alias.get_ref(),
                        t.get_ref()
                    ),
                ));
            }
            names.push(t.into_inner());
        }
        let alias = alias.into_inner().to_ascii_lowercase();
        out.retain(|(a, _)| *a != alias);
        out.push((alias, names));
    }
    // Only aliases of platforms that are still canonical.
    for (_, targets) in &mut out {
        targets.retain(|t| canonical.contains(t));
    }
    out.retain(|(_, t)| !t.is_empty());
    Ok(out)
}

fn functions(
    replace: Option<Vec<RawFunction>>,
    extend: Option<Vec<RawFunction>>,
    default: &[Function],
) -> Result<Vec<Function>, Invalid> {
    let convert = |list: Vec<RawFunction>| -> Result<Vec<Function>, Invalid> {
        list.into_iter()
            .map(|f| {
                let pattern =
                    Pattern::parse(f.name.get_ref()).map_err(|m| (Some(f.name.span()), m))?;
                let key = match f.key.map(Spanned::into_inner) {
                    None => vec![0],
                    Some(KeySpec::One(i)) => vec![i],
                    Some(KeySpec::Many(list)) => list,
                };
                Ok(Function {
                    pattern,
                    key,
                    receiver: CallReceiver::Written,
                    arity: None,
                    switch: None,
                    constants: Vec::new(),
                    returns_self: false,
                    key_field: None,
                    wraps: None,
                })
            })
            .collect()
    };
    let mut out = match replace {
        Some(list) => convert(list)?,
        None => default.to_vec(),
    };
    out.extend(convert(extend.unwrap_or_default())?);
    Ok(out)
}
