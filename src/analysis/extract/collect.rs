//! What each collector of the walk starts facts from: the one declaration
//! that the walk asks the vocabulary through ([`Asks`]) and that the fast
//! path takes its triggers from ([`fact_start`], [`trigger_stems`]), so
//! nothing is kept in step by hand (as oxc derives the node types a rule
//! runs on from the rule).
//!
//! Each collector (`registry.rs`, `comparisons.rs`, `lowering.rs`,
//! `value_sets.rs`, `summary.rs`) declares a [`Collector`]: the sets of
//! names it starts a fact from ([`Start`]), where such a name must stand
//! ([`NameUse`]), and the sets it reads only to qualify a fact begun
//! otherwise. The collector asks the vocabulary only through its own
//! [`Asks`], which fails a debug build (every test) on a set it did not
//! declare: a collector that starts reading a new set declares it, and the
//! fast path parses the files naming it from then on.
//!
//! Facts also start from what is not a name of the vocabulary: a string
//! literal whose value is a canonical platform (a `concat!` of literals
//! too), which the fast path decodes in every file, and an item keyword
//! (the structure), which its structure reader reads.

use crate::config::{CALL_REJECTIONS, FirstBytes, NameUse, Names, Vocabulary};

/// A set of names a collector starts a fact from, and where a name of it
/// must stand to.
#[derive(Debug)]
pub struct Start {
    pub names: Names,
    pub at: NameUse,
    /// A fact started from it can give a finding with no other fact of its
    /// file: the fast path parses a file naming it. An unregistration, or
    /// a backend registration's name, counts only with a registration of
    /// the same file; the walk still looks for them in a macro's text
    /// ([`mentions`]).
    pub alone: bool,
}

/// One collector of the walk, as it declares itself.
#[derive(Debug)]
pub struct Collector {
    pub name: &'static str,
    /// What it starts facts from.
    pub starts: &'static [Start],
    /// What it reads only to qualify a fact begun otherwise (a guard
    /// around a registration, a run-once closure): no trigger of its own.
    pub reads: &'static [Names],
}

impl Collector {
    /// Whether the collector declared it starts from or reads `names`.
    pub fn declares(&self, names: Names) -> bool {
        self.starts.iter().any(|s| s.names == names) || self.reads.contains(&names)
    }
}

/// Every collector of the walk.
pub const COLLECTORS: &[&Collector] = &[
    &super::registry::COLLECTOR,
    &super::comparisons::COLLECTOR,
    &super::lowering::COLLECTOR,
    &super::value_sets::COLLECTOR,
    &super::summary::COLLECTOR,
];

/// The vocabulary as one collector may ask it: only for what it declared.
#[derive(Clone, Copy)]
pub struct Asks<'v> {
    pub vocab: &'v Vocabulary,
    pub collector: &'static Collector,
}

impl Asks<'_> {
    /// Whether `name` is one of `names`, which the collector declared.
    pub fn has(self, names: Names, name: &str) -> bool {
        debug_assert!(
            self.collector.declares(names),
            "the {} collector asks for {names:?}, which it does not declare",
            self.collector.name
        );
        self.vocab.has(names, name)
    }

    /// Whether `name` registers something, keyed or not.
    pub fn is_registration(self, name: &str) -> bool {
        self.has(Names::RegistrationFunctions, name) || self.has(Names::LoweringRegistrations, name)
    }
}

fn starts() -> impl Iterator<Item = &'static Start> {
    COLLECTORS.iter().flat_map(|c| c.starts)
}

/// How strict a place is, for a name two starts share: the loosest wins,
/// since a fact starts wherever either collector's rule lets it. A
/// rejection word counts only where the text around it fails and inserts
/// (`config::rejection_in_context`); an everyday method name among them
/// (`contains`) is the strictest of all, a rarer one (`contains_key`)
/// second to a name counting anywhere.
fn strictness(at: NameUse, name: &str) -> u8 {
    match at {
        NameUse::Anywhere => 0,
        NameUse::Rejection if !CALL_REJECTIONS.contains(&name) => 1,
        NameUse::Callee => 2,
        NameUse::CalleeWithArguments => 3,
        NameUse::Rejection => 4,
    }
}

/// Where `name` starts a fact that can give a finding alone, if it does:
/// the fast path's trigger (`prefilter::may_start_fact`).
pub fn fact_start(vocab: &Vocabulary, name: &str) -> Option<NameUse> {
    (starts().filter(|s| s.alone))
        .filter(|s| vocab.has(s.names, name))
        .map(|s| s.at)
        .min_by_key(|&at| strictness(at, name))
}

/// Whether code naming `name` can give a fact: what a macro's text is
/// searched for before its arguments are parsed as code. Not an everyday
/// rejection word (`contains`): it rejects only in shapes that also name a
/// registration.
pub fn mentions(vocab: &Vocabulary, name: &str) -> bool {
    starts().any(|s| {
        !(s.at == NameUse::Rejection && CALL_REJECTIONS.contains(&name)) && vocab.has(s.names, name)
    })
}

/// The first bytes of every name [`mentions`] knows (every byte when a
/// prefix is empty): a word starting with none of them is not mentioned.
/// For a scan over many words (a macro's text).
pub fn mention_firsts(vocab: &Vocabulary) -> FirstBytes {
    let mut firsts = FirstBytes::default();
    for s in starts() {
        firsts.add(&vocab.firsts(s.names));
    }
    firsts
}

/// The stems the fast path looks for: those of the names starting a fact
/// alone anywhere or as a callee, and apart, those of the rejection words
/// (each searched for on its own). Sorted, without repeats.
pub fn trigger_stems(vocab: &Vocabulary) -> (Vec<&str>, Vec<&str>) {
    let (mut names, mut rejections) = (Vec::new(), Vec::new());
    for s in starts().filter(|s| s.alone) {
        let stems = vocab.stems(s.names);
        match s.at {
            NameUse::Rejection => rejections.extend(stems),
            _ => names.extend(stems),
        }
    }
    for list in [&mut names, &mut rejections] {
        list.sort_unstable();
        list.dedup();
    }
    (names, rejections)
}

/// The stems of what `collector` starts facts from.
pub fn stems_of<'v>(vocab: &'v Vocabulary, collector: &Collector) -> Vec<&'v str> {
    (collector.starts.iter())
        .flat_map(|s| vocab.stems(s.names))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set of names is declared by some collector: a set no collector
    /// asks for is dead configuration.
    #[test]
    fn every_set_of_names_is_declared() {
        use Names::*;
        let all = [
            RegistrationFunctions,
            LoweringRegistrations,
            Backends,
            Guards,
            Unregister,
            RunOnce,
            Sources,
            Canonicalizers,
            LoweringCalls,
            BackendSetters,
            BackendRequests,
            Rejections,
            SwitchFields,
            Switches,
            PlatformsField,
        ];
        for names in all {
            assert!(
                COLLECTORS.iter().any(|c| c.declares(names)),
                "{names:?} is declared by no collector"
            );
        }
    }

    /// The first bytes admit every name mentioned, configured ones included.
    #[test]
    fn mention_firsts_admit_every_name_mentioned() {
        let mentioned = |vocab: &Vocabulary| {
            let firsts = mention_firsts(vocab);
            let names = [
                "platform",
                "platforms",
                "register_x",
                "lower",
                "take",
                "deregister_all",
                "get_backend",
                "canonicalize_platform",
                "Zoo",
            ];
            let known: Vec<_> = names.iter().filter(|n| mentions(vocab, n)).collect();
            assert!(known.iter().all(|n| firsts.admits(n)), "{known:?}");
            known.len()
        };
        let vocab = Vocabulary::default();
        assert_eq!(mentioned(&vocab), 8);
        assert!(!mention_firsts(&vocab).admits("Zoo") && !mention_firsts(&vocab).admits(""));
        let vocab = vocab.with_set(Names::Unregister, &["Zoo"]);
        // `take` and `deregister_all` are no unregistrations any more.
        assert!(mentions(&vocab, "Zoo") && mentioned(&vocab) == 7);
        let vocab = vocab.with_set(Names::Sources, &["*"]);
        assert!(mention_firsts(&vocab).admits("") && mention_firsts(&vocab).admits("ü"));
    }

    #[test]
    fn the_loosest_place_wins_for_a_name_two_collectors_start_from() {
        let vocab = Vocabulary::default();
        // A source counts anywhere, a lowering call only with arguments.
        assert_eq!(fact_start(&vocab, "platform"), Some(NameUse::Anywhere));
        assert_eq!(fact_start(&vocab, "platforms"), Some(NameUse::Anywhere));
        assert_eq!(
            fact_start(&vocab, "lower"),
            Some(NameUse::CalleeWithArguments)
        );
        assert_eq!(fact_start(&vocab, "with_backend"), Some(NameUse::Callee));
        assert_eq!(fact_start(&vocab, "contains_key"), Some(NameUse::Rejection));
        assert_eq!(fact_start(&vocab, "lower_bound"), None);
        // An unregistration gives a finding only with a registration.
        assert_eq!(fact_start(&vocab, "unregister_backend"), None);
        assert!(mentions(&vocab, "unregister_backend"));
        assert!(!mentions(&vocab, "contains") && !mentions(&vocab, "format"));
    }
}
