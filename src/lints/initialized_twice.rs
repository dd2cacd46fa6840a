//! `initialized_twice`: a singleton (a function that fails or panics on its
//! second call whatever its arguments, learned from its body or a
//! dependency's, [`crate::analysis::infer::LearnedSingleton`]) reached
//! twice on one execution path of a function: two calls, a loop, or two
//! helpers reaching it.

use std::borrow::Cow;
use std::collections::HashSet;

use super::{Check, Lint};
use crate::analysis::CrateFacts;
use crate::analysis::infer::{Learned, LearnedSingleton};
use crate::analysis::modules::Program;
use crate::model::diagnostic::Diagnostic;
use crate::model::facts::{CallUse, Fails, SingletonCall};
use crate::model::lint_id::LintId;

pub const LINT: Lint = Lint {
    id: LintId::InitializedTwice,
    summary: "a global initialization reached twice on one execution path",
    docs: include_str!("../../lints/initialized_twice/README.md"),
    check: Check::Crate(check),
    fixes: false,
};

fn check(krate: &CrateFacts<'_>, out: &mut Vec<Diagnostic>) {
    let none = Learned::default();
    let learned = krate.learned.unwrap_or(&none);
    let mut seen: HashSet<(u32, usize)> = HashSet::new();
    for &(file, facts) in &krate.files {
        if facts.functions.iter().all(|f| f.singleton_calls.is_empty()) {
            continue;
        }
        // The package's singletons this file may call: not those of another
        // binary (two examples' `main_`), which never share its process.
        let place = krate.place(file);
        let reachable: Vec<&LearnedSingleton> = (learned.singletons.iter())
            .filter(|s| {
                s.file.is_none_or(|at| {
                    let theirs = krate.place(at);
                    Program::shares_process(
                        (place.root, place.program),
                        (theirs.root, theirs.program),
                    )
                })
            })
            .collect();
        for f in facts
            .functions
            .iter()
            .filter(|f| !f.singleton_calls.is_empty())
        {
            let calls: Vec<(&SingletonCall, Cow<LearnedSingleton>)> = (f.singleton_calls.iter())
                // In a closure or an `async` block: against the calls of
                // the same one only (below).
                .filter(|c| !c.uncertain || c.region.is_some())
                .filter_map(|c| Some((c, LearnedSingleton::of_call(reachable.iter().copied(), c)?)))
                .collect();
            for (k, (second, l)) in calls.iter().enumerate() {
                let (second, l) = (*second, &**l);
                if !surfaces(second, l) {
                    continue;
                }
                let guard = guard(second, l);
                // A guarded call after one under the same guard runs nothing.
                let ran = |(c, o): &&(&SingletonCall, Cow<LearnedSingleton>)| {
                    guard.is_some() && self::guard(c, o) == guard && !exclusive(c, second)
                };
                if calls[..k].iter().any(|c| ran(&c)) {
                    continue;
                }
                let first = calls[..k].iter().find(|(c, o)| {
                    !o.maybe
                        && c.region == second.region
                        && o.state == l.state
                        && !exclusive(c, second)
                        && (guard.is_none() || self::guard(c, o) != guard)
                });
                let d = match first {
                    Some((first, o)) => twice(learned, &f.name, (first, o), (second, l)),
                    None if second.in_loop
                        && second.region.is_none()
                        && guard.is_none()
                        && !l.maybe =>
                    {
                        in_loop(&f.name, second, l)
                    }
                    None => continue,
                };
                if seen.insert((d.span.file, d.span.start)) {
                    out.push(d.with_help(help(root(learned, l))));
                }
            }
        }
    }
}

/// The static whose run-once closure makes the call (`SHARED.call_once(||
/// set_handler(..))`, or a helper doing so): two calls under one such
/// guard run the singleton once.
fn guard<'c>(c: &'c SingletonCall, l: &'c LearnedSingleton) -> Option<&'c str> {
    c.once.as_deref().or(l.guarded.as_deref())
}

/// Whether the failure of a second call shows: it panics, or its `Err` is
/// passed on or unwrapped (not `let _ =`, `.ok()`, `if let Err(_)`).
fn surfaces(c: &SingletonCall, l: &LearnedSingleton) -> bool {
    l.fails == Fails::Panics || c.result != CallUse::Ignored
}

/// Two calls no run of the function makes both: other arms of one `if` or
/// `match`, or the first in a branch that ended the function.
fn exclusive(a: &SingletonCall, b: &SingletonCall) -> bool {
    let arms = (a.branches.iter())
        .any(|(id, arm)| (b.branches.iter()).any(|(id2, arm2)| id == id2 && arm != arm2));
    let exited = (a.branches.iter()).any(|(id, arm)| *arm == 0 && b.after_exits.contains(id));
    arms || exited
}

/// The singleton whose mechanism `l` reaches, through the wrappers
/// between.
fn root<'l>(learned: &'l Learned, mut l: &'l LearnedSingleton) -> &'l LearnedSingleton {
    for _ in 0..crate::analysis::infer::MAX_SINGLETON_DEPTH {
        let Some((callee, _, ty)) = &l.via else { break };
        match (learned.singletons.iter())
            .find(|s| s.name == *callee && s.self_type == *ty && s.state == l.state)
        {
            Some(next) => l = next,
            None => break,
        }
    }
    l
}

/// What the second call does, and why the callee is a singleton.
fn help(l: &LearnedSingleton) -> String {
    let from = match l.imported {
        true => format!("learned from {}: {}", l.place, l.why),
        false => l.why.clone(),
    };
    format!(
        "`{}` succeeds once per process ({from}): call it once, from the entry point, or ignore the error of the calls after the first (`let _ = ..`)",
        l.name
    )
}

fn twice(
    learned: &Learned,
    caller: &str,
    (first, o): (&SingletonCall, &LearnedSingleton),
    (second, l): (&SingletonCall, &LearnedSingleton),
) -> Diagnostic {
    // Where the second path reaches the function the first call is: the
    // call inside the helper (`server::start` → `init_logging`).
    // Else the deepest call of the crate's own code on the way (`run`'s
    // `Builder::init()` when the first call was `init_logs`).
    let mut at = None;
    let mut deepest = (second.span, 1);
    let mut path = vec![format!("`{}`", l.name)];
    // Each call on the second path, for the labels: the caller's own, then
    // each helper's on the way.
    let mut steps = vec![(second.span, l.name.clone())];
    let mut now = l;
    // The same function called twice: the second call is the place.
    let same = o.name == l.name && o.self_type == l.self_type;
    for _ in 0..crate::analysis::infer::MAX_SINGLETON_DEPTH * u32::from(!same) {
        let Some((callee, span, ty)) = now.via.as_ref().filter(|_| !now.imported) else {
            break;
        };
        path.push(format!("`{callee}`"));
        steps.push((*span, callee.clone()));
        if *callee == o.name {
            at = Some(*span);
            break;
        }
        deepest = (*span, path.len());
        // Singletons are told apart by name: of two `main`s (the bin's,
        // and `setup_mode::main`), the one whose call is the first call is
        // on the first path, not this one.
        let next = (learned.singletons.iter()).find(|s| {
            s.name == *callee
                && s.self_type == *ty
                && s.state == l.state
                && s.via.as_ref().is_none_or(|(_, at, _)| *at != first.span)
        });
        match next {
            Some(next) => now = next,
            None => break,
        }
    }
    let at = match at {
        Some(at) => at,
        None => {
            path.truncate(deepest.1);
            deepest.0
        }
    };
    let does = match (l.fails, second.result, l.maybe) {
        (Fails::ReturnsErr, CallUse::Propagated, false) => "returns Err",
        (Fails::ReturnsErr, CallUse::Propagated, true) => "returns Err where its branch is taken",
        (_, _, false) => "panics",
        (_, _, true) => "panics where its branch is taken",
    };
    let root = &root(learned, l).name;
    let message = match path.len() == 1 && o.name == l.name {
        true if *root == l.name => {
            format!("`{root}` is called twice in `{caller}`: the second call {does}")
        }
        true => format!(
            "`{}` is called twice in `{caller}` (it calls `{root}`): the second call {does}",
            l.name
        ),
        false => format!(
            "`{root}` is reached twice from `{caller}` (first through `{}`, then through {}): the second call {does}",
            o.name,
            path.join(" → ")
        ),
    };
    let mut d = Diagnostic::new(LINT.id, at, message)
        .with_label(format!("second call: {does}"))
        .with_secondary(first.span, "first call");
    for (span, callee) in steps.iter().filter(|(s, _)| *s != at) {
        d = d.with_secondary(*span, format!("on the second path: `{callee}`"));
    }
    d
}

fn in_loop(caller: &str, c: &SingletonCall, l: &LearnedSingleton) -> Diagnostic {
    let does = l.fails.words();
    let message = format!(
        "`{}` is called in a loop in `{caller}`: its second call {does}",
        l.name
    );
    Diagnostic::new(LINT.id, c.span, message)
        .with_label(format!("reached again on the next iteration; {does} then"))
}
