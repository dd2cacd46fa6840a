//! Learning: what the packages of a run teach each other and themselves
//! (registration functions from their bodies, the dependencies' cached
//! summaries), in rounds, and the files read again for what was learned.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::analysis::infer;
use crate::config::Config;
use crate::model::facts::FileFacts;
use crate::model::facts::Operand;
use crate::prefilter;

use super::read::{input_text, kept, parse_and_extract, parsed};
use super::{
    Dependencies, FileOutcome, Input, Survey, Verdict, file_id, on_big_stack, retain_marked,
};
use super::{cache, deps, summary_cache, values};

/// Registration functions learned from the code (issue 19), in rounds:
/// learn from the functions of the files parsed so far, then parse again,
/// with the learned names as vocabulary, the files that name one (a caller,
/// or a wrapper the next round learns from), until a round learns nothing
/// new. With `--no-prefilter` every file was parsed already and one more
/// round reads the callers; in the default mode the prefilter finds the
/// learned names as it finds the configured ones (the files defining a
/// rejection are parsed for `contains_key` and `Occupied`), so both modes
/// parse the same calls with the same vocabulary.
///
/// Each package learns from its own files; what surely rejects a second key
/// ([`infer::Learned::exported`]) is also used by the other packages checked
/// with the same configuration that depend on it ([`deps::Reach`]), as a
/// linker defined in one package of a workspace is called from the others;
/// a package that cannot call it is not read again for its name. A name two
/// packages learned apart is used by neither of the others (which one they
/// call is not known).
/// Returned per crate number.
pub(super) fn learn(
    inputs: &mut [Input],
    groups: &[usize],
    surveys: &mut [Survey],
    outcomes: &mut Vec<(usize, FileOutcome)>,
    empty: &mut Vec<usize>,
    pool: Option<&rayon::ThreadPool>,
    cache: Option<&cache::FileCache>,
) -> (HashMap<usize, Arc<infer::Learned>>, Dependencies) {
    // Each input's configuration before learning; packages share what they
    // learn with those of the same group (`values::groups`).
    let base: Vec<Arc<Config>> = inputs.iter().map(|i| i.config.clone()).collect();
    let mut first: HashMap<usize, usize> = HashMap::new();
    for (i, input) in inputs.iter().enumerate() {
        first.entry(input.krate).or_insert(i);
    }
    let group = |krate: usize| groups[first[&krate]];
    let mut learned: HashMap<usize, Arc<infer::Learned>> = HashMap::new();
    // Who may call whom, read from the manifests once something is exported.
    let mut reach: Option<deps::Reach> = None;
    // What the dependencies whose summary was cached teach (issue 29): no
    // file of theirs is read.
    let cached: HashMap<usize, infer::Learned> = (inputs.iter())
        .filter_map(|i| Some((i.krate, i.dependency.as_ref()?.summary.as_ref()?.learned())))
        .collect();
    // What each dependency read teaches, as of the last round.
    let mut dependency_own: HashMap<usize, infer::Learned> = HashMap::new();
    // The files read again so far for the calls of singletons alone
    // (`singleton_facts_only`).
    let mut singletons_only: std::collections::HashSet<usize> = Default::default();
    // Each round reads again the files naming what is new: a chain of
    // wrappers as long as the files are many would read them all that many
    // times. Both modes stop at the same round.
    read_reexports(inputs, surveys, outcomes);
    for _ in 0..MAX_LEARNING_ROUNDS {
        let mut own = learned_by_crate(inputs, &base, outcomes, &learned);
        dependency_own = (own.iter())
            .filter(|(krate, _)| inputs[first[*krate]].dependency.is_some())
            .map(|(krate, l)| (*krate, l.exported()))
            .collect();
        own.extend(cached.iter().map(|(k, l)| (*k, l.clone())));
        if own.is_empty() {
            break;
        }
        let mut exports = exported_by_group(&own, group, |k| {
            first
                .get(&k)
                .is_some_and(|&i| inputs[i].dependency.is_none())
        });
        if !exports.is_empty() && reach.is_none() {
            reach = Some(deps::Reach::new(inputs));
        }
        // A package's singletons are reached by paths through its crate
        // (`pq_core::driver::install`), as a dependency's are through the
        // crate its folder names.
        if let Some(reach) = &reach {
            for (from, exported) in exports.values_mut().flatten() {
                let Some(name) = reach.crate_name(*from) else {
                    continue;
                };
                for s in exported.singletons.iter_mut().filter(|s| !s.of_crate(name)) {
                    s.krates.push(name.to_string());
                    s.krates.sort();
                }
            }
        }
        let may_call = |caller: usize, callee: usize| {
            caller != callee && reach.as_ref().is_some_and(|r| r.may_call(caller, callee))
        };
        // Each crate with something new, and the names new to it: those
        // that learned something, and those depending on one exporting.
        let mut news: HashMap<usize, (Arc<infer::Learned>, Vec<String>)> = HashMap::new();
        let mut krates: Vec<usize> = match exports.is_empty() {
            true => own.keys().copied().collect(),
            false => first.keys().copied().collect(),
        };
        krates.sort_unstable();
        for krate in krates {
            let mut now = own.get(&krate).cloned().unwrap_or_default();
            let callees = (exports.get(&group(krate)).into_iter().flatten())
                .filter(|(from, _)| may_call(krate, *from))
                .map(|(_, exported)| exported);
            for exported in unique_exports(callees) {
                now.import(&exported);
            }
            let new = now.new_names(learned.get(&krate).map(|l| &**l));
            if !new.is_empty() {
                news.insert(krate, (Arc::new(now), new));
            }
        }
        if news.is_empty() {
            break;
        }
        // The files that may name a new name where a fact can start: a
        // function, switch or singleton where it is called, as the survey
        // saw them (a switch field, set and not called, wherever named).
        // A crate none of whose files calls one keeps its configuration:
        // parsed with the new names, its files would tell the same.
        let todo: Vec<usize> = (0..inputs.len())
            .filter(|&i| {
                let Some((now, names)) = news.get(&inputs[i].krate) else {
                    return false;
                };
                let field = |n: &String| now.switch_fields.contains(n);
                !matches!(surveys[i].verdict, Verdict::Unreadable(_))
                    && (surveys[i].called.as_ref())
                        .is_none_or(|c| names.iter().any(|n| field(n) || c.may_call(n)))
            })
            .collect();
        let active: std::collections::HashSet<usize> =
            todo.iter().map(|&i| inputs[i].krate).collect();
        let mut configs: HashMap<usize, Arc<Config>> = HashMap::new();
        for i in 0..inputs.len() {
            if !active.contains(&inputs[i].krate) {
                continue;
            }
            let (now, _) = &news[&inputs[i].krate];
            let config = configs.entry(inputs[i].krate).or_insert_with(|| {
                let make = || {
                    let mut config = (*base[i]).clone();
                    config.vocab = (config.vocab).with_learned(
                        &now.functions,
                        &now.switch_fields,
                        &now.switches,
                    );
                    let (singletons, everyday) = now.singleton_names();
                    config.vocab = config.vocab.with_singletons(&singletons, &everyday);
                    Arc::new(config)
                };
                match cache {
                    Some(cache) => cache.learned_config(&base[i], now, make),
                    None => make(),
                }
            });
            inputs[i].config = config.clone();
        }
        // A file is parsed again where a new name may start a fact (a call,
        // a switch field set), as the prefilter finds one: not where it is
        // only declared (`fn define(`), written in a comment or a string.
        let prepared: HashMap<usize, prefilter::Prepared> = (configs.iter())
            .map(|(krate, config)| (*krate, prefilter::Prepared::new(&config.vocab)))
            .collect();
        // A file the survey found quiet, read again (in this round and any
        // before) for calls of singletons alone (the other names new to
        // its crate it calls none): what else its parse finds cannot yield
        // a finding, as the prefilter said (the walker records comparisons the prefilter
        // rules out, in the bodies a singleton's call keeps). Kept, it
        // made its crate read again for its structure.
        let for_singletons: std::collections::HashSet<usize> = (todo.iter().copied())
            .filter(|&i| {
                let (now, names) = &news[&inputs[i].krate];
                let Some(called) = &surveys[i].called else {
                    return false;
                };
                let quiet = matches!(surveys[i].verdict, Verdict::Lexed | Verdict::Analyze);
                (quiet || singletons_only.contains(&i))
                    && (names.iter())
                        .filter(|n| now.switch_fields.contains(*n) || called.may_call(n))
                        .all(|n| now.only_a_singleton(n))
            })
            .collect();
        let (read, news) = (&*inputs, &news);
        let mut redone = read_again_naming(
            pool,
            read,
            &todo,
            |krate| &news[&krate].1,
            |i, text| {
                let parse = || {
                    let starts_fact =
                        !prefilter::survey_with(&text, &prepared[&read[i].krate]).lexes;
                    starts_fact.then(|| parsed(file_id(i), &read[i], text.clone()))
                };
                match cache {
                    Some(cache) => {
                        cache.maybe_outcome(cache::Step::Learn, file_id(i), &read[i], parse)
                    }
                    None => parse(),
                }
            },
            cache,
        );
        for (i, outcome) in &mut redone {
            if for_singletons.contains(i) {
                singleton_facts_only(outcome);
            }
        }
        let again: std::collections::HashSet<usize> = redone.iter().map(|(i, _)| *i).collect();
        for &i in &again {
            match for_singletons.contains(&i) {
                true => singletons_only.insert(i),
                false => singletons_only.remove(&i),
            };
        }
        for &i in &again {
            surveys[i].verdict = Verdict::Parse;
        }
        empty.retain(|e| !again.contains(e));
        outcomes.retain(|(at, _)| !again.contains(at));
        outcomes.extend(redone);
        read_reexports(inputs, surveys, outcomes);
        for (krate, (now, _)) in news.iter() {
            learned.insert(*krate, now.clone());
        }
    }
    let dependencies = dependency_summaries(inputs, dependency_own, &cached);
    (learned, dependencies)
}

/// The module files of a dependency that its singleton calls by a path of
/// its own name (`crate::dispatcher::set_global_default`), read for their
/// structure where the survey found them quiet: their `use`s say which
/// crate the function is re-exported from (`infer::through_reexport`).
/// The dependency's root file too, for a path through a crate it
/// re-exports whole (`crate::eyre::set_hook` after `pub use eyre;`).
fn read_reexports(
    inputs: &[Input],
    surveys: &mut [Survey],
    outcomes: &mut Vec<(usize, FileOutcome)>,
) {
    // The module paths each crate's singleton calls name from its root.
    let mut modules: HashMap<usize, std::collections::HashSet<&[String]>> = HashMap::new();
    for (i, outcome) in outcomes.iter() {
        let Ok(facts) = outcome.result.as_deref() else {
            continue;
        };
        let calls = (facts.functions.iter()).flat_map(|f| &f.singleton_calls);
        for call in
            calls.filter(|c| c.path_root.as_deref() == Some("crate") && !c.module.is_empty())
        {
            modules
                .entry(inputs[*i].krate)
                .or_default()
                .insert(&call.module);
        }
    }
    if modules.is_empty() {
        return;
    }
    let have: std::collections::HashSet<usize> = outcomes.iter().map(|(i, _)| *i).collect();
    let wanted: Vec<usize> = (0..inputs.len())
        .filter(|&j| !have.contains(&j) && matches!(surveys[j].verdict, Verdict::Lexed))
        .filter(|&j| {
            let Some(named) = modules.get(&inputs[j].krate) else {
                return false;
            };
            let display = inputs[j].display.as_str();
            display.ends_with("/lib.rs") || named.iter().any(|m| infer::file_is_module(display, m))
        })
        .collect();
    for j in wanted {
        let outcome = super::read::read_and(file_id(j), &inputs[j], super::read::analyze_text);
        surveys[j].verdict = Verdict::Analyze;
        outcomes.push((j, outcome));
    }
}

/// Of a file read again for the calls of singletons alone, those facts
/// only: not the comparisons, registrations and lowerings the survey found
/// quiet ([`FileFacts::needs_structure`]'s, its suppression comments
/// kept). Its text is kept if a finding may still point into it.
fn singleton_facts_only(outcome: &mut FileOutcome) {
    let Ok(facts) = &outcome.result else {
        return;
    };
    let mut facts = FileFacts::clone(facts);
    facts.registrations.clear();
    facts.comparisons.clear();
    facts.lowering.clear();
    facts.lowering_platforms.clear();
    facts.normalized.clear();
    if !facts.may_be_reported() {
        outcome.text = None;
    }
    outcome.result = Ok(Arc::new(facts));
}

/// What each dependency read teaches ([`summary_cache::Summary`], with its
/// APIs' item paths and places), and the APIs of those cached.
pub(super) fn dependency_summaries(
    inputs: &[Input],
    read: HashMap<usize, infer::Learned>,
    cached: &HashMap<usize, infer::Learned>,
) -> Dependencies {
    let mut first: HashMap<usize, usize> = HashMap::new();
    for (i, input) in inputs.iter().enumerate() {
        first.entry(input.krate).or_insert(i);
    }
    let mut out = Dependencies {
        own: inputs.iter().map(|i| i.dependency.is_none()).collect(),
        ..Dependencies::default()
    };
    let place = |file: u32| {
        let input = inputs.get(file as usize)?;
        let dep = input.dependency.as_ref()?;
        Some((input.display.clone(), dep.module_path(&input.path)))
    };
    // Every dependency read has a summary, empty when it taught nothing:
    // a second run opens none of its files either.
    let mut krates: Vec<usize> = (first.iter())
        .filter(|(_, i)| {
            inputs[**i]
                .dependency
                .as_ref()
                .is_some_and(|d| d.summary.is_none())
        })
        .map(|(krate, _)| *krate)
        .collect();
    krates.sort_unstable();
    for krate in krates {
        let Some(dep) = inputs[first[&krate]].dependency.clone() else {
            continue;
        };
        let learned = read.get(&krate).cloned().unwrap_or_default();
        let summary = summary_cache::Summary::of(&learned, place);
        out.apis.extend(summary.apis.iter().cloned());
        out.summaries.push((dep, summary));
    }
    for krate in cached.keys() {
        let summary = inputs[first[krate]]
            .dependency
            .as_ref()
            .and_then(|d| d.summary.as_ref());
        out.apis
            .extend(summary.into_iter().flat_map(|s| s.apis.iter().cloned()));
    }
    out.apis
        .sort_by(|a, b| (&a.item_path, &a.place).cmp(&(&b.item_path, &b.place)));
    out.apis.dedup();
    out
}

/// The exports of the packages one package may call, without a name (and
/// arity) two of them export: which one it calls is not known.
pub(super) fn unique_exports<'l>(
    callees: impl Iterator<Item = &'l infer::Learned>,
) -> Vec<infer::Learned> {
    let callees: Vec<&infer::Learned> = callees.collect();
    // By how many packages, each name and arity: one package may teach a
    // name twice (`func_wrap` of two types, with 3 and 2 parameters).
    let mut count: HashMap<(&str, usize), usize> = HashMap::new();
    for e in &callees {
        let mut mine: Vec<(&str, usize)> = (e.functions.iter())
            .map(|f| (f.name.as_str(), f.arity))
            .collect();
        mine.sort();
        mine.dedup();
        for k in mine {
            *count.entry(k).or_default() += 1;
        }
    }
    (callees.into_iter())
        .map(|e| {
            let mut e = e.clone();
            e.functions
                .retain(|f| count[&(f.name.as_str(), f.arity)] == 1);
            let kept: std::collections::HashSet<String> =
                e.functions.iter().map(|f| f.name.clone()).collect();
            e.inferred.retain(|i| kept.contains(&i.name));
            e.rejecting.retain(|n| kept.contains(n));
            e
        })
        .collect()
}

/// How many rounds of learning a run makes at most: wrappers of wrappers
/// deeper than this are not learned.
pub(super) const MAX_LEARNING_ROUNDS: usize = 12;

/// What each crate learns from its own files parsed so far.
/// `prior`: what each crate knew after the round before, imports
/// included: a wrapper of a function another package taught is learned.
pub(super) fn learned_by_crate(
    inputs: &[Input],
    base: &[Arc<Config>],
    outcomes: &[(usize, FileOutcome)],
    prior: &HashMap<usize, Arc<infer::Learned>>,
) -> HashMap<usize, infer::Learned> {
    /// A crate's first input with functions, and its files' displays and facts.
    type Files<'a> = (usize, Vec<(&'a str, &'a FileFacts)>);
    let mut files: HashMap<usize, Files> = HashMap::new();
    for (i, outcome) in outcomes {
        if let Ok(facts) = outcome.result.as_deref()
            && !facts.functions.is_empty()
        {
            let entry = files.entry(inputs[*i].krate).or_insert((*i, Vec::new()));
            entry.1.push((&inputs[*i].display, facts));
        }
    }
    // The other files of those crates with `use`s: what a path of the
    // crate's own leads to through a re-export (`pub use
    // tracing_core::dispatcher::set_global_default`).
    for (i, outcome) in outcomes {
        if let Ok(facts) = outcome.result.as_deref()
            && facts.functions.is_empty()
            && !facts.uses.is_empty()
            && let Some(entry) = files.get_mut(&inputs[*i].krate)
        {
            entry.1.push((&inputs[*i].display, facts));
        }
    }
    (files.into_iter())
        .map(|(krate, (first, mut files))| {
            files.sort_by_key(|(display, _)| *display);
            let prior = prior.get(&krate).map(|l| &**l);
            (krate, infer::learn(&files, &base[first].vocab, prior))
        })
        .collect()
}

/// What each crate exports, by configuration group (a package imports
/// those of the packages it may call, [`unique_exports`]).
pub(super) fn exported_by_group(
    own: &HashMap<usize, infer::Learned>,
    group: impl Fn(usize) -> usize,
    workspace: impl Fn(usize) -> bool,
) -> HashMap<usize, Vec<(usize, infer::Learned)>> {
    let mut out: HashMap<usize, Vec<(usize, infer::Learned)>> = HashMap::new();
    let mut krates: Vec<&usize> = own.keys().collect();
    krates.sort();
    for krate in krates {
        let exported = own[krate].exported_with(workspace(*krate));
        if !exported.functions.is_empty() || !exported.singletons.is_empty() {
            out.entry(group(*krate))
                .or_default()
                .push((*krate, exported));
        }
    }
    out
}

/// The files of `todo` whose text names one of the words `names` gives
/// for their crate, each read again (the text being fixed when there is
/// one: `--fix` analyses in memory) and handed to `parse`, which may still
/// decline it. The one way both learning stages read files again. With a
/// `cache`, a file as it was is not read again to learn that it names none
/// of the same words ([`cache::FileCache::text_naming`]).
pub(super) fn read_again_naming<'n>(
    pool: Option<&rayon::ThreadPool>,
    inputs: &[Input],
    todo: &[usize],
    names: impl Fn(usize) -> &'n [String] + Sync,
    parse: impl Fn(usize, String) -> Option<FileOutcome> + Sync,
    cache: Option<&cache::FileCache>,
) -> Vec<(usize, FileOutcome)> {
    // One search for all of a crate's words: a word at a time, ten
    // thousand learned names were each searched for in every file.
    let mut words: HashMap<usize, Words> = HashMap::new();
    for &i in todo {
        let krate = inputs[i].krate;
        words
            .entry(krate)
            .or_insert_with(|| Words::new(names(krate)));
    }
    on_big_stack(pool, || {
        todo.par_iter()
            .with_max_len(1)
            .filter_map(|&i| {
                let input = &inputs[i];
                let search = |text: &str| words[&input.krate].named_in(text);
                let text = match cache {
                    Some(cache) => {
                        let read = || input_text(input).ok();
                        cache.text_naming(input, names(input.krate), read, search)?
                    }
                    None => Some(input_text(input).ok()?).filter(|t| search(t))?,
                };
                parse(i, text).map(|o| (i, o))
            })
            .collect()
    })
}

/// Words searched for at once, each as a whole word ([`names_word`]).
pub(super) struct Words(Option<aho_corasick::AhoCorasick>);

impl Words {
    fn new(words: &[String]) -> Words {
        // The longest word found at a place: a word is named there only
        // when it is the whole identifier, which no shorter word is then.
        let matcher = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(words.iter().filter(|w| !w.is_empty()));
        Words(matcher.ok().filter(|m| m.patterns_len() > 0))
    }

    /// Whether `text` holds one of the words as a whole word.
    fn named_in(&self, text: &str) -> bool {
        let Some(matcher) = &self.0 else {
            return false;
        };
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let bytes = text.as_bytes();
        matcher.find_iter(bytes).any(|m| {
            let before = m.start() > 0 && word(bytes[m.start() - 1]);
            let after = bytes.get(m.end()).is_some_and(|&b| word(b));
            !before && !after
        })
    }
}

/// Whether `text` holds `name` as a whole word (in code or not: a mention
/// in a comment or a string only costs a parse).
pub(super) fn names_word(text: &str, name: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, name.as_bytes()).any(|at| {
        let end = at + name.len();
        let before = at > 0 && word(bytes[at - 1]);
        let after = bytes.get(end).is_some_and(|&b| word(b));
        !before && !after
    })
}

/// Stage 2b (issue 19): functions learned in stage 2 (returning only
/// literals, [`FileFacts::value_sets`]; returning platform values,
/// [`FileFacts::platform_fns`]) decide comparisons of their calls, which
/// can be in any file of their crate, in a body the prefilter left out or
/// a file it only lexed; a wrapper of one is learned from such a body. The
/// files of the crate that mention a learned name are parsed whole, as
/// `--no-prefilter` parses them, until no new name is learned (each file
/// once). Crates that learn nothing (nearly all) cost nothing more.
pub(super) fn reparse_for_learned_names(
    pool: Option<&rayon::ThreadPool>,
    inputs: &[Input],
    surveys: &[Survey],
    outcomes: &[(usize, FileOutcome)],
    groups: &[usize],
    cache: Option<&cache::FileCache>,
) -> Vec<(usize, FileOutcome)> {
    let mut whole: Vec<(usize, FileOutcome)> = Vec::new();
    let mut known: HashMap<usize, std::collections::HashSet<String>> = HashMap::new();
    let mut known_shared: HashMap<usize, std::collections::HashSet<String>> = HashMap::new();
    loop {
        let facts = (outcomes.iter().chain(&whole))
            .filter_map(|(i, o)| Some((inputs[*i].krate, o.result.as_deref().ok()?)));
        let mut own = learned_names(facts);
        for (krate, names) in &mut own {
            let known = known.entry(*krate).or_default();
            names.retain(|n| known.insert(n.clone()));
        }
        // What the packages of the group define (`values::wanted`): a
        // file naming one of its types with a method of it.
        let wanted = values::wanted(inputs, groups, outcomes.iter().chain(&whole));
        let mut fresh = own.clone();
        for (krate, w) in &wanted {
            let known = known_shared.entry(*krate).or_default();
            let words = w.words.iter().filter(|n| known.insert(n.to_string()));
            fresh.entry(*krate).or_default().extend(words.cloned());
        }
        fresh.retain(|_, names| !names.is_empty());
        if fresh.is_empty() {
            return whole;
        }
        let done: std::collections::HashSet<usize> = whole.iter().map(|(i, _)| *i).collect();
        let todo: Vec<usize> = (0..inputs.len())
            .filter(|&i| {
                inputs[i].prefilter
                    && inputs[i].dependency.is_none()
                    && !done.contains(&i)
                    && fresh.contains_key(&inputs[i].krate)
                    && matches!(
                        surveys[i].verdict,
                        Verdict::Lexed | Verdict::Parse | Verdict::Analyze
                    )
            })
            .collect();
        let own_words: HashMap<usize, Words> = (own.iter())
            .map(|(krate, names)| (*krate, Words::new(names)))
            .collect();
        let more = read_again_naming(
            pool,
            inputs,
            &todo,
            |krate| &fresh[&krate],
            |i, text| {
                let krate = inputs[i].krate;
                let own = own_words.get(&krate).is_some_and(|w| w.named_in(&text));
                let group = wanted.get(&krate).is_some_and(|w| w.named_in(&text));
                if !(own || group) {
                    return None;
                }
                let parse = || {
                    let result = parse_and_extract(file_id(i), &text, &inputs[i].config.vocab);
                    Some(kept(text.clone(), result))
                };
                match cache {
                    Some(cache) => {
                        cache.maybe_outcome(cache::Step::Whole, file_id(i), &inputs[i], parse)
                    }
                    None => parse(),
                }
            },
            cache,
        );
        whole.extend(more);
    }
}

/// Comparisons of calls only ([`Operand::Call`]) matter in a crate that
/// learned a function from its code: elsewhere no lint can report them, so
/// they are dropped, and a file with nothing else is kept for no report
/// (nor is its crate read for one). Most crates learn nothing.
pub(super) fn forget_unlearned_calls(
    inputs: &[Input],
    outcomes: &mut [(usize, FileOutcome)],
    shared: &HashMap<usize, Arc<crate::analysis::shared::Shared>>,
) {
    let learns = |f: &FileFacts| {
        !(f.value_sets.is_empty() && f.platform_fns.is_empty() && f.context_fns.is_empty())
    };
    let learning: std::collections::HashSet<usize> = (outcomes.iter())
        .filter(|(_, o)| o.result.as_deref().is_ok_and(learns))
        .map(|(i, _)| inputs[*i].krate)
        .collect();
    // A field compared as written counts only handed to a normalizer
    // (`lints::uncanonicalized_platform_comparison`): the fields each crate
    // hands to a function named as any normalizer read.
    let normalizers: std::collections::HashSet<&str> = (outcomes.iter())
        .filter_map(|(_, o)| o.result.as_deref().ok())
        .flat_map(|f| f.normalizers.iter().map(|n| n.call.name.as_str()))
        .collect();
    let mut normalized: std::collections::HashSet<(usize, crate::model::facts::FieldKey)> =
        std::collections::HashSet::new();
    for (i, o) in outcomes.iter() {
        let Ok(f) = o.result.as_deref() else {
            continue;
        };
        let handed = (f.field_uses.handed.iter())
            .filter(|(_, call)| normalizers.contains(call.callee.name.as_str()));
        normalized.extend(handed.map(|(key, _)| (inputs[*i].krate, key.clone())));
    }
    drop(normalizers);
    // The calls each group's value sets may decide, once per group.
    let mut calls: HashMap<*const crate::analysis::shared::Shared, _> = HashMap::new();
    for group in shared.values() {
        calls
            .entry(Arc::as_ptr(group))
            .or_insert_with(|| group.calls());
    }
    for (i, outcome) in outcomes.iter_mut() {
        let Ok(facts) = &mut outcome.result else {
            continue;
        };
        let own = learning.contains(&inputs[*i].krate);
        // A call on a field is decided by a value set of a type only (of
        // the group's); any other call, in a crate that learned a function.
        let group = shared.get(&inputs[*i].krate);
        let may_decide = |c: &crate::model::facts::ValueCall| {
            group.is_some_and(|g| g.may_decide(c, &facts.fields, &calls[&Arc::as_ptr(g)]))
        };
        let kept = |s: &crate::model::facts::Side| match &s.operand {
            Operand::Raw | Operand::Canonical => true,
            Operand::Call(c) if c.fields.is_empty() && own => true,
            Operand::Call(c) => may_decide(c),
            _ => false,
        };
        let keep: Vec<bool> = (facts.comparisons.iter())
            .map(|c| c.sides.iter().any(kept))
            .collect();
        // Facts shared with `run::cache` are copied only when one goes.
        if keep.contains(&false) {
            retain_marked(&mut Arc::make_mut(facts).comparisons, &keep);
        }
        let krate = inputs[*i].krate;
        let keep: Vec<bool> = (facts.field_uses.compared.iter())
            .map(|(key, _, _)| normalized.contains(&(krate, key.clone())))
            .collect();
        if keep.contains(&false) {
            retain_marked(&mut Arc::make_mut(facts).field_uses.compared, &keep);
        }
        if !facts.may_be_reported() {
            outcome.text = None;
        }
    }
}

/// The names of the functions each crate's facts teach: value sets,
/// normalizers, and sources and canonicalizers with the wrappers of them (by name: a name
/// too many only costs a parse); and the arrays of platform names, which
/// a value set may index in a body the prefilter left out.
pub(super) fn learned_names<'f>(
    facts: impl Iterator<Item = (usize, &'f FileFacts)>,
) -> HashMap<usize, Vec<String>> {
    let mut fns: HashMap<usize, Vec<&'f crate::model::facts::PlatformFn>> = HashMap::new();
    let mut names: HashMap<usize, std::collections::HashSet<String>> = HashMap::new();
    for (krate, f) in facts {
        // A `Debug`'s `{:?}` is in too many files to read each one naming
        // it: those naming its type with it are read ([`values::wanted`]).
        let sets = (f.value_sets.iter())
            .filter(|v| v.call.name != crate::analysis::values::DEBUG)
            .flat_map(|v| crate::analysis::values::written_as(&v.call.name))
            .map(str::to_string);
        names.entry(krate).or_default().extend(sets);
        // A field handed to a normalizer in a body without a platform name
        // makes its comparisons elsewhere raw.
        let normalizers = f.normalizers.iter().map(|n| n.call.name.clone());
        names.entry(krate).or_default().extend(normalizers);
        // A function indexing such an array may be a value set.
        names
            .entry(krate)
            .or_default()
            .extend(f.str_arrays.iter().cloned());
        fns.entry(krate).or_default().extend(&f.platform_fns);
    }
    for (krate, fns) in fns {
        let names = names.entry(krate).or_default();
        loop {
            let before = names.len();
            for f in &fns {
                let learned = match &f.returns {
                    Operand::Call(c) => names.contains(&c.name),
                    _ => true,
                };
                if learned {
                    names.insert(f.call.name.clone());
                }
            }
            if names.len() == before {
                break;
            }
        }
    }
    names
        .into_iter()
        .map(|(k, n)| (k, n.into_iter().collect()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Words, names_word};

    /// What a dependent can name is all a package exports of its
    /// singletons (issue 29): a `pub` function or a `pub` method (of an
    /// inherent impl or a trait's), not a private one, one of the crate's
    /// (`pub(crate)`), nor a test; a private singleton's `pub` caller is
    /// exported in its place.
    #[test]
    fn only_the_singletons_a_dependent_can_name_are_exported() {
        let text = "
static STATE: AtomicUsize = AtomicUsize::new(0);
fn set_inner() -> Result<(), E> {
    match STATE.compare_exchange(0, 1, A, B) {
        Ok(_) => Ok(()),
        Err(_) => Err(E),
    }
}
pub fn set() -> Result<(), E> { set_inner() }
pub(crate) fn set_here() -> Result<(), E> { set_inner() }
pub struct Builder;
impl Builder {
    pub fn install(self) -> Result<(), E> { set_inner() }
    fn install_here(self) -> Result<(), E> { set_inner() }
}
impl Install for Builder {
    fn install_trait(self) -> Result<(), E> { set_inner() }
}
pub fn outer() {
    fn nested() -> Result<(), E> { set_inner() }
}
#[test]
fn once() { set().unwrap(); }
";
        let vocab = crate::config::Vocabulary::default()
            .with_singletons(&["set_inner".to_string(), "set".to_string()], &[]);
        let facts = crate::run::read::parse_and_extract(0, text, &vocab).expect("parses");
        let learned = crate::analysis::infer::learn(&[("lib.rs", &facts)], &vocab, None);
        let mut all: Vec<&str> = learned.singletons.iter().map(|s| s.name.as_str()).collect();
        all.sort();
        assert_eq!(
            all,
            [
                "install",
                "install_here",
                "install_trait",
                "nested",
                "once",
                "set",
                "set_here",
                "set_inner"
            ]
        );
        let exported = learned.exported();
        let mut names: Vec<&str> = exported
            .singletons
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        names.sort();
        assert_eq!(names, ["install", "install_trait", "set"]);
        // What a package imported it does not export again: its dependents
        // reach the package it came from themselves.
        let mut dependent = crate::analysis::infer::Learned::default();
        dependent.import(&exported);
        assert!(dependent.exported().singletons.is_empty());
    }

    /// What a dependency `other_core` teaches: its free
    /// `set_global_default`, a singleton, as a dependent imports it.
    fn other_core_singleton() -> crate::analysis::infer::Learned {
        let mut core = crate::analysis::infer::Learned::default();
        core.import(&crate::analysis::infer::Learned {
            singletons: vec![crate::analysis::infer::LearnedSingleton {
                name: "set_global_default".into(),
                self_type: None,
                method: false,
                arity: 1,
                fails: crate::model::facts::Fails::ReturnsErr,
                state: "other-core-0.1.0/src/dispatcher.rs::GLOBAL".into(),
                why: "a compare_exchange".into(),
                place: "other-core-0.1.0/src/dispatcher.rs:10".into(),
                via: None,
                depth: 0,
                imported: false,
                public: true,
                file: None,
                guarded: None,
                maybe: false,
                of_trait: false,
                krates: Vec::new(),
                reexported: false,
            }],
            ..Default::default()
        });
        core
    }

    /// A trait's default method calling a singleton is one (issue 29:
    /// tracing-subscriber's `SubscriberInitExt::try_init`), and so are the
    /// methods calling it on `self`, on a receiver of another type where
    /// the trait is in scope by name, and through a `use` of the module
    /// the path starts at (`dispatcher::set_global_default`). Where the
    /// trait is not in scope, a method of the name is another.
    #[test]
    fn a_trait_s_default_method_is_reached_where_the_trait_is_in_scope() {
        let util = "
use other_core::dispatcher::{self, Dispatch};
pub trait InitExt {
    fn try_init(self) -> Result<(), E> {
        dispatcher::set_global_default(self.into())?;
        Ok(())
    }
    fn init(self) { self.try_init().expect(\"a default\") }
}
";
        let builder = "
use crate::util::InitExt;
pub struct Builder;
impl Builder {
    pub fn start(self) -> Result<(), E> { self.finish().try_init() }
}
";
        let elsewhere = "
pub struct Other;
impl Other {
    pub fn begin(self) -> Result<(), E> { self.finish().try_init() }
}
";
        let core = other_core_singleton();
        let vocab = crate::config::Vocabulary::default().with_singletons(
            &[
                "set_global_default".into(),
                "try_init".into(),
                "init".into(),
            ],
            &[],
        );
        let parse = |t: &str| crate::run::read::parse_and_extract(0, t, &vocab).expect("parses");
        let (util, builder, elsewhere) = (parse(util), parse(builder), parse(elsewhere));
        let files = [
            ("src/util.rs", &util),
            ("src/builder.rs", &builder),
            ("src/elsewhere.rs", &elsewhere),
        ];
        let learned = crate::analysis::infer::learn(&files, &vocab, Some(&core));
        let mut found: Vec<(String, Option<String>)> = (learned.singletons.iter())
            .filter(|s| !s.imported)
            .map(|s| (s.name.clone(), s.self_type.clone()))
            .collect();
        found.sort();
        let named = |n: &str, t: &str| (n.to_string(), Some(t.to_string()));
        assert_eq!(
            found,
            [
                named("init", "InitExt"),
                named("start", "Builder"),
                named("try_init", "InitExt")
            ]
        );
    }

    /// A path of the crate's own to a function another module re-exports
    /// from a dependency (`crate::dispatcher::set_global_default` after
    /// `pub use other_core::dispatcher::set_global_default`) reaches the
    /// dependency's singleton; one to a module defining its own does not.
    #[test]
    fn a_path_through_a_re_export_reaches_the_dependency_s_singleton() {
        let dispatcher = "pub use other_core::dispatcher::{set_global_default, Dispatch};";
        let subscriber = "
pub fn set_global_default<S>(s: S) -> Result<(), E> {
    crate::dispatcher::set_global_default(Dispatch::new(s))
}
pub fn set_local(s: S) -> Result<(), E> {
    crate::local::set_global_default(s)
}
";
        let local = "pub fn set_global_default<S>(s: S) -> Result<(), E> { Ok(()) }";
        // The crate root brings the name too: a root may hold modules
        // inline, so it says nothing of `crate::local`.
        let root = "mod dispatcher; mod local; mod subscriber;\nuse other_core::dispatcher::set_global_default;";
        let core = other_core_singleton();
        let vocab = crate::config::Vocabulary::default()
            .with_singletons(&["set_global_default".into()], &[]);
        let parse = |t: &str| crate::run::read::parse_and_extract(0, t, &vocab).expect("parses");
        let (dispatcher, subscriber, local) = (parse(dispatcher), parse(subscriber), parse(local));
        let root = parse(root);
        let files = [
            ("other-0.1.0/src/lib.rs", &root),
            ("other-0.1.0/src/dispatcher.rs", &dispatcher),
            ("other-0.1.0/src/local.rs", &local),
            ("other-0.1.0/src/subscriber.rs", &subscriber),
        ];
        let learned = crate::analysis::infer::learn(&files, &vocab, Some(&core));
        let own: Vec<(&str, &str)> = (learned.singletons.iter())
            .filter(|s| !s.imported)
            .map(|s| (s.name.as_str(), s.place.as_str()))
            .collect();
        assert_eq!(
            own,
            [("set_global_default", "other-0.1.0/src/subscriber.rs:2")]
        );
    }

    #[test]
    fn words_are_found_as_names_word_finds_each() {
        let words: Vec<String> = ["w1", "w10", "w100", "reg", "r", "x_1"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let matcher = Words::new(&words);
        for text in [
            "w1(r)",
            "w10",
            "aw10 w100x",
            "w1000 w10_",
            "xw1 w1",
            "fn f() { w100(r) }",
            "regs",
            "x_1",
            "x_10",
            "",
            "w",
            "reg_w1",
            "w10w1",
            "(w10)",
        ] {
            let each = words.iter().any(|w| names_word(text, w));
            assert_eq!(matcher.named_in(text), each, "{text}");
        }
        assert!(!Words::new(&[]).named_in("anything"));
    }

    /// log 0.4.21's `set_logger_inner`: the exchange's result, won or
    /// lost, is bound, and a later `match` on it fails in every arm but
    /// the one of the value it expected (env_logger 0.10's `init` reaches
    /// it: e40 WD1). A state machine whose arms all succeed is no
    /// singleton.
    #[test]
    fn an_exchange_matched_later_is_a_singleton_when_its_other_arms_fail() {
        let text = "
static STATE: AtomicUsize = AtomicUsize::new(0);
static PHASE: AtomicUsize = AtomicUsize::new(0);
pub fn set_logger() -> Result<(), SetLoggerError> {
    let old_state = match STATE.compare_exchange(0, 1, SeqCst, SeqCst) {
        Ok(s) | Err(s) => s,
    };
    match old_state {
        0 => {
            STATE.store(2, SeqCst);
            Ok(())
        }
        1 => {
            while STATE.load(SeqCst) == 1 {}
            Err(SetLoggerError(()))
        }
        _ => Err(SetLoggerError(())),
    }
}
pub fn advance() -> Result<(), E> {
    let old = match PHASE.compare_exchange(0, 1, SeqCst, SeqCst) {
        Ok(s) | Err(s) => s,
    };
    match old {
        0 => Ok(()),
        _ => Ok(()),
    }
}
";
        let vocab = crate::config::Vocabulary::default();
        let facts = crate::run::read::parse_and_extract(0, text, &vocab).expect("parses");
        let learned = crate::analysis::infer::learn(&[("lib.rs", &facts)], &vocab, None);
        let names: Vec<&str> = learned.singletons.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["set_logger"]);
    }
}
