//! `duplicate_registration`: the same key registered twice on one registry.

use std::collections::HashMap;

use crate::analysis::callees::Callees;
use crate::analysis::modules::Program;
use crate::analysis::{CrateFacts, last_segment};
use crate::config::platform;
use crate::lints::{Check, Lint};
use crate::model::cfg;
use crate::model::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::model::facts::{FileFacts, Registration, Registry, RegistryKind};
use crate::model::lint_id::LintId;
use crate::model::source::FileId;

pub const LINT: Lint = Lint {
    id: LintId::DuplicateRegistration,
    summary: "the same backend, plugin or lowering is registered twice",
    docs: include_str!("../../lints/duplicate_registration/README.md"),
    check: Check::Crate(check),
    fixes: true,
};

/// A registration with what the crate tells about it.
struct Resolved<'a> {
    file: FileId,
    reg: &'a Registration,
    /// The registration its callee ends in: a learned wrapper's calls and
    /// those of what it wraps (`add_scale(g, name)` of `g.add_node(..)`)
    /// register in one table.
    table: &'a str,
    key: String,
    /// The other key arguments, resolved; `None` where left out.
    also: Vec<Option<String>>,
    /// Keys proven absent by guards around it.
    guards: Vec<String>,
    /// `cfg`s of the code and of the `mod` declarations leading to its file.
    cfgs: Vec<cfg::Cfg>,
    /// Test code: (file, test function); each test builds its own registry.
    test_scope: Option<(FileId, u32)>,
    /// The crate root and what it is compiled into.
    program: (usize, Program),
    /// The item a [`Registry::Item`] names, when the module tree tells.
    item: Option<String>,
    /// Whether the body the call reaches rejects a second key, when one is
    /// in the crate.
    rejects: Option<bool>,
    /// Every body the call may reach replaces a key's value.
    replaces: bool,
    /// Every body the call may reach is read and shows no rejection.
    silent: bool,
    /// How a learned method was matched to the call
    /// ([`crate::analysis::callees::Verdict::rule`]).
    rule: Option<String>,
}

/// Whether `reg` calls a wrapper the learning found of a built-in name
/// (`register*`) whose every body read shows no rejection
/// ([`Callees::all_silent`]), and that does not reject itself; or is a
/// helper's registration (`register_casts(&mut registry)` registering
/// `"to_float64"`) by such a name.
fn wraps_silent(krate: &CrateFacts<'_>, callees: &Callees<'_>, reg: &Registration) -> bool {
    if reg.via_helper.is_some() {
        return krate.vocab.registration_is_builtin(&reg.callee, None)
            && callees.all_silent(krate, &reg.callee);
    }
    let Some(learned) = krate.learned else {
        return false;
    };
    let mut wrapped = (learned.functions.iter())
        .filter(|f| f.name == reg.callee && f.arity == reg.arity)
        .map(|f| f.wraps.as_deref());
    let Some(Some(inner)) = wrapped.next() else {
        return false;
    };
    wrapped.all(|w| w == Some(inner))
        && !learned.rejects(&reg.callee)
        && krate.vocab.registration_is_builtin(inner, None)
        && callees.all_silent(krate, inner)
}

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    let mut regs: Vec<Resolved> = Vec::new();
    let callees = Callees::new(krate);
    for &(file, facts) in &krate.files {
        let place = krate.place(file);
        for reg in &facts.registrations {
            // A call asserted to fail registers nothing: it is the test of the guard.
            if reg.expects_failure {
                continue;
            }
            // The body the call reaches decides: one that keeps both keys
            // (appends, merges) registers nothing twice, and a learned
            // method on a receiver of another type is that type's.
            let key_args = (krate.vocab)
                .registration_key_with(&reg.callee, Some(reg.arity))
                .unwrap_or(&[0]);
            let verdict = callees.verdict(krate, reg, key_args);
            // Every body it reaches is read, hands the key on, and none
            // rejects as far as the code read shows: a built-in name
            // (`register*`) says no more (databend's `register_1_arg`
            // overloads, through a builder).
            let builtin = || {
                krate
                    .vocab
                    .registration_is_builtin(&reg.callee, Some(reg.arity))
            };
            if verdict.keeps_both || verdict.other_type || verdict.forwards && builtin() {
                continue;
            }
            // A wrapper learned of such a name is no more a registration.
            if wraps_silent(krate, &callees, reg) {
                continue;
            }
            let Some(key) = krate.resolve(file, &reg.key) else {
                continue;
            };
            let Some(also) = reg
                .also_keyed_by
                .iter()
                .map(|k| match k {
                    Some(k) => krate.resolve(file, k).map(Some),
                    None => Some(None),
                })
                .collect::<Option<Vec<Option<String>>>>()
            else {
                continue;
            };
            let mut also = also;
            also.extend(verdict.more_key.into_iter().map(Some));
            let mut cfgs = place.cfgs.clone();
            cfgs.extend(reg.context.cfgs.iter().cloned());
            let test_scope = match reg.context.test_scope {
                Some(t) => Some((file, t)),
                None if place.test => Some((file, reg.context.function)),
                None => None,
            };
            let table = (krate.learned.into_iter().flat_map(|l| l.functions.iter()))
                .find(|f| f.name == reg.callee)
                .and_then(|f| f.wraps.as_deref())
                .unwrap_or(&reg.callee);
            regs.push(Resolved {
                file,
                reg,
                table,
                rejects: verdict.rejects,
                replaces: verdict.replaces,
                silent: verdict.silent,
                rule: verdict.rule,
                guards: reg
                    .context
                    .guards
                    .iter()
                    .filter_map(|g| krate.resolve(file, g))
                    .collect(),
                key,
                also,
                cfgs,
                test_scope,
                program: (place.root, place.program),
                item: match &reg.registry {
                    Registry::Item { path, scope, rest } => {
                        (krate.item_path(file, path, *scope)).map(|p| format!("{p}{rest}"))
                    }
                    _ => None,
                },
            });
        }
    }
    after_initialization(krate, &callees, out);
    let candidates = Candidates::new(krate, &regs);
    // A helper called twice on one registry (`link_spectest(&mut l)`) clashes
    // on each of its keys: one finding a pair of calls, naming the keys.
    let mut helper_pairs: Vec<(HelperCalls, usize, Vec<String>)> = Vec::new();
    for (j, reg) in regs.iter().enumerate() {
        if guarded(reg) {
            continue;
        }
        // A test that registers a key twice is exercising the registry (that
        // the second call replaces, or fails), unless it asserts that the
        // second call succeeds (`.unwrap()`, `?`): then the test itself is
        // wrong, and passes only while the registry silently replaces. Test
        // code registers on registries of its own (`collide` compares test
        // scopes), so nothing here can clash with the library.
        if reg.test_scope.is_some()
            && !krate.vocab.check_test_registrations
            && !(reg.reg.expects_success
                && reg
                    .rejects
                    .unwrap_or_else(|| may_reject(krate, &reg.reg.callee)))
        {
            continue;
        }
        // Any earlier registration of the key; or a guarded one in another
        // function, which may run first whatever the order of the source.
        let earlier = candidates.first(j, false, |other| {
            collide(krate, other, reg)
                && !(unregistered_between(krate, other, reg)
                    || reg.test_scope.is_some() && used_between(krate, other, reg)
                    || overrides(other, reg)
                    // `return r.register(..)`: the function is over after it.
                    || (same_function(other, reg)
                        && other.reg.returns_at.is_some_and(|r| r < reg.reg.call_span.start)))
        });
        let guarded_elsewhere = || {
            candidates.first(j, true, |other| {
                collide(krate, other, reg) && guarded(other) && !same_function(other, reg)
            })
        };
        let Some(first) = earlier.or_else(guarded_elsewhere) else {
            continue;
        };
        let (a, b) = (&regs[first], reg);
        if a.reg.via_helper.is_some() && b.reg.via_helper.is_some() {
            let calls = (a.file, a.reg.call_span.start, b.file, b.reg.call_span.start);
            if let Some((_, _, keys)) = helper_pairs.iter_mut().find(|(c, _, _)| *c == calls) {
                keys.push(key_text(b));
                continue;
            }
            helper_pairs.push((calls, out.len(), vec![key_text(b)]));
        }
        out.push(diagnostic(krate, a, b));
    }
    for (_, at, keys) in helper_pairs.into_iter().filter(|(_, _, k)| k.len() > 1) {
        let helper = regs.iter().find_map(|r| {
            (r.reg.key_span == out[at].span)
                .then_some(r.reg.via_helper.as_deref())
                .flatten()
        });
        let shown: Vec<&str> = keys.iter().take(6).map(String::as_str).collect();
        let more = match keys.len() - shown.len() {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        out[at].message = format!(
            "{} keys are registered twice by `{}`: {}{more}",
            keys.len(),
            helper.unwrap_or("a helper"),
            shown.join(", ")
        );
    }
}

/// Two helper calls (file and offset of each): the first, the later.
type HelperCalls = (u32, usize, u32, usize);

/// A key as a message quotes it: `"cpu"`, or `("spectest", "print")` with
/// the other arguments that key it.
fn key_text(r: &Resolved) -> String {
    let also = r
        .also
        .iter()
        .map(|k| format!("\"{}\"", k.as_deref().unwrap_or("..")));
    let parts: Vec<String> = std::iter::once(format!("\"{}\"", r.key))
        .chain(also)
        .collect();
    match parts.len() {
        1 => parts[0].clone(),
        _ => format!("({})", parts.join(", ")),
    }
}

/// Whether a second call of `callee` can fail: a registration by name or
/// configuration (which rejects or replaces), or a learned function known to
/// reject. A learned wrapper of a registration by name may pass it a policy
/// that replaces (`load(alias, dir, Policy::Upsert)`): a test asserting its
/// second call succeeds may be testing just that.
fn may_reject(krate: &CrateFacts<'_>, callee: &str) -> bool {
    match krate.learned {
        Some(learned) if learned.why(callee).is_some() => learned.rejects(callee),
        _ => true,
    }
}

/// What two registrations that [`collide`] surely share: the registry
/// (callee and receiver) and the key, ASCII case ignored, with the other key
/// arguments; for a lowering, its primitive and one of the platforms its
/// key names. A registration has one bucket, a lowering one per platform.
#[derive(PartialEq, Eq, Hash)]
struct Bucket<'a> {
    callee: &'a str,
    /// For a [`Registry::Item`], its last segment and what follows it: two
    /// spellings of one item share them.
    registry: Result<&'a Registry, (&'a str, &'a str)>,
    /// The file of a registry made in a function, or of a closure run once.
    file: Option<FileId>,
    /// Test code builds registries of its own, per test.
    test_scope: Option<(FileId, u32)>,
    once_scope: Option<u32>,
    primitive: Option<&'a str>,
    key: Vec<Option<String>>,
}

/// The registrations that may collide with each: those of its buckets, by
/// place in the list. Comparing each with all those before it cost the
/// square of their number (50,000 keys in one function ran for minutes).
struct Candidates<'r, 'a> {
    regs: &'r [Resolved<'a>],
    buckets: Vec<Vec<usize>>,
    /// Which buckets each registration is in.
    of: Vec<Vec<usize>>,
}

impl<'r, 'a> Candidates<'r, 'a> {
    fn new(krate: &CrateFacts<'_>, regs: &'r [Resolved<'a>]) -> Self {
        let mut index = std::collections::HashMap::new();
        let mut buckets: Vec<Vec<usize>> = Vec::new();
        let of = (regs.iter().enumerate())
            .map(|(i, reg)| {
                (bucket_keys(krate, reg).into_iter())
                    .map(|key| {
                        let b = *index.entry(key).or_insert_with(|| {
                            buckets.push(Vec::new());
                            buckets.len() - 1
                        });
                        buckets[b].push(i);
                        b
                    })
                    .collect()
            })
            .collect();
        Candidates { regs, buckets, of }
    }

    /// The first registration before the `j`-th (after it, with `after`)
    /// that shares a bucket with it and passes `test`.
    fn first(&self, j: usize, after: bool, test: impl Fn(&Resolved) -> bool) -> Option<usize> {
        (self.of[j].iter())
            .filter_map(|&b| {
                let bucket = &self.buckets[b];
                let side = match after {
                    false => &bucket[..bucket.partition_point(|&i| i < j)],
                    true => &bucket[bucket.partition_point(|&i| i <= j)..],
                };
                // A bucket of registrations whose conditions exclude each
                // other (`#[cfg(target_os = "..")]` on each) compares every
                // pair: past `MAX_COMPARED` on a side, only its first and
                // last ones (10,000 such registrations took 28 s).
                let near = match side.len() > 2 * MAX_COMPARED {
                    true => [&side[..MAX_COMPARED], &side[side.len() - MAX_COMPARED..]],
                    false => [side, &[][..]],
                };
                near.into_iter()
                    .flatten()
                    .copied()
                    .find(|&i| test(&self.regs[i]))
            })
            .min()
    }
}

/// How many registrations of one bucket, from each end of a side, one is
/// compared with (see [`Candidates::first`]).
const MAX_COMPARED: usize = 32;

fn bucket_keys<'a>(krate: &CrateFacts<'_>, r: &'a Resolved) -> Vec<Bucket<'a>> {
    // Only what `collide` requires to be equal, so that registrations that
    // can never collide (tests, other files' local registries) do not fill
    // a bucket's `MAX_COMPARED`.
    let once_scope = r.reg.context.once_scope;
    let local = r.reg.registry.is_local() || once_scope.is_some();
    let registry = match &r.reg.registry {
        Registry::Item { path, rest, .. } => {
            Err((path.last().map_or("", String::as_str), rest.as_str()))
        }
        other => Ok(other),
    };
    let bucket = |primitive: Option<&'a str>, key: Vec<Option<String>>| Bucket {
        callee: r.table,
        registry,
        file: local.then_some(r.file),
        test_scope: r.test_scope,
        once_scope,
        primitive,
        key,
    };
    match &r.reg.lowering_primitive {
        Some(primitive) => {
            let mut platforms = platform::expand(krate.vocab, &r.key);
            platforms.sort_unstable();
            platforms.dedup();
            (platforms.into_iter())
                .map(|p| bucket(Some(primitive), vec![Some(p)]))
                .collect()
        }
        None => {
            let lower = |k: &str| Some(k.to_ascii_lowercase());
            let also = r.also.iter().map(|k| k.as_deref().and_then(lower));
            vec![bucket(
                None,
                std::iter::once(lower(&r.key)).chain(also).collect(),
            )]
        }
    }
}

/// Two registrations that would clash if both ran.
fn collide(krate: &CrateFacts<'_>, a: &Resolved, b: &Resolved) -> bool {
    let (ra, rb) = (a.reg, b.reg);
    // A registry made in a function is that function's: ids are per file.
    let same_registry = a.table == b.table
        && same_item_or_registry(a, b)
        && (!ra.registry.is_local() || a.file == b.file);
    let same_key = match (&ra.lowering_primitive, &rb.lowering_primitive) {
        (Some(pa), Some(pb)) => pa == pb && platform::overlaps(krate.vocab, &a.key, &b.key),
        (None, None) => {
            a.key.eq_ignore_ascii_case(&b.key)
                && a.also.len() == b.also.len()
                && a.also.iter().zip(&b.also).all(|(x, y)| match (x, y) {
                    (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
                    (x, y) => x == y,
                })
        }
        _ => false,
    };
    same_registry
        && same_key
        // Two binaries (examples, integration tests) never share a process.
        && Program::shares_process(a.program, b.program)
        && a.test_scope == b.test_scope
        // A closure run once (`get_or_init`) builds its own registry.
        && (ra.context.once_scope == rb.context.once_scope && (ra.context.once_scope.is_none() || a.file == b.file))
        && !branches_diverge(a, b)
        && !cfg::exclusive(&a.cfgs, &b.cfgs)
}

/// One registry: for two reached through paths, the item both name (as
/// written when the module tree cannot tell for one of them, a glob import).
fn same_item_or_registry(a: &Resolved, b: &Resolved) -> bool {
    match (&a.item, &b.item) {
        (Some(x), Some(y)) => x == y,
        _ => match (a.reg.registry.item_text(), b.reg.registry.item_text()) {
            (Some(x), Some(y)) => x == y,
            _ => a.reg.registry == b.reg.registry,
        },
    }
}

fn branches_diverge(a: &Resolved, b: &Resolved) -> bool {
    a.file == b.file && diverge(&a.reg.context.branches, &b.reg.context.branches)
}

fn same_function(a: &Resolved, b: &Resolved) -> bool {
    a.file == b.file && a.reg.context.function == b.reg.context.function
}

/// A default, then an override of it: on a registry whose body replaces a
/// key's value (or shows no rejection), a later registration of the key in the same function under
/// a condition the first is not under (`if let Some(fused) = fused`) is
/// meant to replace it. Not on one that keeps the first (the override
/// would be lost) or rejects (it would fail).
fn overrides(first: &Resolved, later: &Resolved) -> bool {
    (first.replaces || first.silent)
        && (later.replaces || later.silent)
        && same_function(first, later)
        && first.reg.call_span.start < later.reg.call_span.start
        && (later.reg.context.branches.iter()).any(|b| !first.reg.context.branches.contains(b))
}

/// `if !is_registered(key) { register(key) }`: never the failing call.
fn guarded(r: &Resolved) -> bool {
    r.guards.iter().any(|g| g.eq_ignore_ascii_case(&r.key))
}

/// `r.unregister(key)` on the same receiver, in the same function, between the two.
fn unregistered_between(krate: &CrateFacts<'_>, first: &Resolved, later: &Resolved) -> bool {
    if !same_function(first, later) {
        return false;
    }
    let Some(facts) = krate.facts(later.file) else {
        return false;
    };
    facts.unregistrations.iter().any(|u| {
        between(first, later, (u.function, &u.registry, u.span))
            && krate
                .resolve(later.file, &u.key)
                .is_some_and(|k| k.eq_ignore_ascii_case(&later.key))
    })
}

/// Methods of a registry that only read it: calling one between two
/// registrations frees no key.
const QUERIES: &[&str] = &[
    "get",
    "get_mut",
    "contains",
    "contains_key",
    "len",
    "is_empty",
    "iter",
    "keys",
    "values",
    "names",
    "list",
    "clone",
    "find",
    "lookup",
    "count",
    "has",
    "is_registered",
];

/// A method of the registry called between the two registrations in the
/// same function, other than a query (`set.poll_next(cx)` completing the
/// future keyed `"a"`, `table.clear()`, `set.cancel(&"a")`): in a test,
/// what it does may free the key, and the second registration is the
/// test of that (tonic's `test_reuse_key_after_completion`).
fn used_between(krate: &CrateFacts<'_>, first: &Resolved, later: &Resolved) -> bool {
    if !same_function(first, later) {
        return false;
    }
    let Some(facts) = krate.facts(later.file) else {
        return false;
    };
    facts.registry_calls.iter().any(|c| {
        between(first, later, (c.context.function, &c.registry, c.span))
            && !QUERIES.contains(&c.method.as_str())
    })
}

/// Whether a call (its function, registry and place) on the registry of two
/// registrations of one function stands between them.
fn between(
    first: &Resolved,
    later: &Resolved,
    (function, registry, span): (u32, &Registry, crate::model::source::Span),
) -> bool {
    function == later.reg.context.function
        && *registry == later.reg.registry
        && first.reg.call_span.end <= span.start
        && span.end <= later.reg.call_span.start
}

/// The label of the later call; for a function learned from the code, why
/// it counts as a registration ("`define` registers: it rejects a second
/// key at src/linker.rs:40 (..)"): no configuration named it.
fn again_label(krate: &CrateFacts<'_>, reg: &Registration, rule: Option<&str>) -> String {
    let by = match &reg.via_macro {
        Some(name) => format!(" by `{name}!`"),
        None => String::new(),
    };
    // By a helper (`add_cpu(&mut registry)`): why the helper registers.
    let (callee, by) = match &reg.via_helper {
        Some(helper) => (helper, format!(" by `{helper}`{by}")),
        None => (&reg.callee, by),
    };
    match krate.learned.and_then(|l| l.why(callee)) {
        Some(inferred) => format!(
            "registered again here{by}; `{callee}` registers: {}{}",
            inferred.why,
            rule.map(|r| format!(" ({r})")).unwrap_or_default()
        ),
        None => format!("registered again here{by}"),
    }
}

fn diagnostic(krate: &CrateFacts<'_>, first: &Resolved, later: &Resolved) -> Diagnostic {
    let reg = later.reg;
    let (message, label, help) = if let Some(prim) = &reg.lowering_primitive {
        let shared: Vec<String> = platform::expand(krate.vocab, &later.key)
            .into_iter()
            .filter(|p| platform::expand(krate.vocab, &first.key).contains(p))
            .collect();
        (
            format!(
                "lowering of `{prim}` for `{}` is registered twice",
                shared.join("`, `")
            ),
            format!("registered again for `{}`", later.key),
            format!(
                "the later registration silently replaces the one for `{}`; keep one, or register each for disjoint platforms",
                first.key
            ),
        )
    } else {
        let case_note = if first.key != later.key {
            format!(" (`{}` and `{}` differ only in case)", first.key, later.key)
        } else {
            String::new()
        };
        let given: Vec<&str> = later.also.iter().flatten().map(String::as_str).collect();
        let with = if given.is_empty() {
            String::new()
        } else {
            format!(" (with `{}`)", given.join("`, `"))
        };
        (
            format!(
                "`{}`{with} is registered twice with `{}`{case_note}",
                later.key, reg.callee
            ),
            again_label(krate, reg, later.rule.as_deref()),
            format!(
                "remove one registration, or make them mutually exclusive (`#[cfg(..)]`/`#[cfg(not(..))]`, `if`/`else`, or guard with `if !is_registered(..)`); {}",
                match reg.registry_kind {
                    _ if later.replaces => format!(
                        "`{}` replaces the value of a key registered before (its body inserts with no check): the first registration never takes effect",
                        reg.callee
                    ),
                    _ if later.rejects == Some(true) => format!(
                        "`{}` rejects a key registered before: the second call fails",
                        reg.callee
                    ),
                    RegistryKind::Map =>
                        "the registry is a map: the second call replaces the first".to_string(),
                    RegistryKind::List =>
                        "the registry is a list: the second call adds another entry, and lookups find the first".to_string(),
                    RegistryKind::Unknown =>
                        "the second call fails with \"already initialized\" or replaces the first".to_string(),
                }
            ),
        )
    };
    let first_is_before =
        (first.file, first.reg.key_span.start) < (later.file, later.reg.key_span.start);
    let first_label = if first_is_before {
        "first registered here"
    } else {
        "also registered here, when not yet registered: if this runs first, the other call fails"
    };
    // By a helper or a factory (`let mut codecs = standard()?`): which.
    let first_label = match &first.reg.via_helper {
        Some(helper) => format!("{first_label}, by `{helper}`"),
        None => first_label.to_string(),
    };
    let d = Diagnostic::new(LINT.id, reg.key_span, message)
        .with_label(label)
        .with_secondary(first.reg.key_span, first_label)
        .with_help(help);
    match removal(first, later, first_is_before) {
        Some(fix) => d.with_fix(fix),
        None => d,
    }
}

/// Removing the later registration's statement. Unsafe when it repeats the
/// first one exactly (same receiver, key and value, as written): the code
/// then registers what it did, once, but a registry that fails on a second
/// key no longer fails there. Display only otherwise: which of two
/// different values was meant is the user's choice.
fn removal(first: &Resolved, later: &Resolved, first_is_before: bool) -> Option<Fix> {
    let statement = later.reg.statement.as_ref()?;
    let same =
        first_is_before && (first.reg.statement.as_ref()).is_some_and(|f| f.text == statement.text);
    let (applicability, message) = match same {
        true => (Applicability::Unsafe, "remove the repeated registration"),
        false => (
            Applicability::DisplayOnly,
            "remove one of the registrations",
        ),
    };
    Some(Fix::new(
        applicability,
        message,
        [Edit::delete(statement.removal)],
    ))
}

/// A registration that follows an initialization of its registry on one
/// path (issue 29, the seed's "Backend cuda already initialized"): the
/// body it reaches fails once a state of its receiver is set (`if
/// self.initialized { return Err(..) }`), and an earlier call in the same
/// function, on the same registry, is a method of that type setting that
/// state (`self.initialized = true`). Both are learned from the code.
fn after_initialization(krate: &CrateFacts<'_>, callees: &Callees<'_>, out: &mut Vec<Diagnostic>) {
    // The methods setting each state: (type, field) -> methods.
    let mut setters: HashMap<(&str, &str), Vec<&str>> = HashMap::new();
    for &(_, facts) in &krate.files {
        for w in &facts.state_writes {
            let ty = w.self_type.as_deref().map(last_segment).unwrap_or("");
            (setters.entry((ty, w.field.as_str())).or_default()).push(w.method.as_str());
        }
    }
    if setters.is_empty() {
        return;
    }
    // Every registration, whatever its body does with a second key (one
    // that appends fails here too): the state fails the call.
    for &(file, facts) in &krate.files {
        let test_file = krate.place(file).test;
        for reg in &facts.registrations {
            after_initialization_of(krate, callees, &setters, (file, facts, test_file), reg, out);
        }
    }
}

/// [`after_initialization`] of one registration.
fn after_initialization_of(
    krate: &CrateFacts<'_>,
    callees: &Callees<'_>,
    setters: &HashMap<(&str, &str), Vec<&str>>,
    (file, facts, test_file): (FileId, &FileFacts, bool),
    reg: &Registration,
    out: &mut Vec<Diagnostic>,
) {
    // A test calls it late to see it fail, unless it asserts success.
    if reg.expects_failure
        || ((reg.context.test_scope.is_some() || test_file) && !reg.expects_success)
    {
        return;
    }
    let Some((body, check)) = callees.rejecting_after(reg) else {
        return;
    };
    let ty = body.self_type.as_deref().map(last_segment).unwrap_or("");
    let Some(methods) = setters.get(&(ty, check.field.as_str())) else {
        return;
    };
    let init = facts.registry_calls.iter().find(|c| {
        c.context.function == reg.context.function
            && c.registry == reg.registry
            && c.span.end <= reg.call_span.start
            && methods.contains(&c.method.as_str())
            // A `return` after it ends the path before the registration.
            && c.returns_at.is_none_or(|at| at > reg.call_span.start)
            && !diverge(&c.context.branches, &reg.context.branches)
            && !cfg::exclusive(&c.context.cfgs, &reg.context.cfgs)
    });
    let Some(init) = init else {
        return;
    };
    let key = krate
        .resolve(file, &reg.key)
        .unwrap_or_else(|| reg.args.first().cloned().unwrap_or_default());
    let callee = &reg.callee;
    let owner = match ty {
        "" => String::new(),
        ty => format!("{ty}::"),
    };
    let message = format!(
        "`{}` is registered with `{callee}` after `{}()` initialized the registry",
        key, init.method
    );
    let label = format!(
        "registered after the initialization: `{owner}{callee}` fails once `{}` is set",
        check.check
    );
    let help = format!(
        "register every backend before `{}()`, or make the two exclusive; `{}()` sets `self.{}`, and `{callee}` then fails for any key",
        init.method, init.method, check.field
    );
    out.push(
        Diagnostic::new(LINT.id, reg.key_span, message)
            .with_label(label)
            .with_secondary(
                init.span,
                format!("`{}()` initializes it here", init.method),
            )
            .with_help(help),
    );
}

/// Two places in different arms of one `if`/`match` of a function.
fn diverge(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter()
        .any(|(id, arm)| b.iter().any(|(id2, arm2)| id == id2 && arm != arm2))
}
