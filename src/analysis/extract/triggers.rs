//! What the walk's collectors declare, read whole: the fast path's
//! triggers ([`fact_start`], [`trigger_stems`]) and the names a macro's
//! text is searched for ([`mentions`], [`mention_firsts`]). Nothing here
//! lists a name: each collector declares its own ([`collect`]).

use super::collect::{Collector, Start};
use crate::config::{FirstBytes, NameUse, Names, Vocabulary};
use crate::syntax::rejection::CALL_REJECTIONS;

/// Every collector of the walk.
pub const COLLECTORS: &[&Collector] = &[
    &super::registry::COLLECTOR,
    &super::comparisons::COLLECTOR,
    &super::lowering::COLLECTOR,
    &super::value_sets::COLLECTOR,
    &super::summary::COLLECTOR,
];

fn starts() -> impl Iterator<Item = &'static Start> {
    COLLECTORS.iter().flat_map(|c| c.starts)
}

/// Every start, each set and place once.
fn every_start() -> &'static [(Names, NameUse)] {
    static STARTS: std::sync::LazyLock<Vec<(Names, NameUse)>> =
        std::sync::LazyLock::new(|| once_each(starts().map(|s| (s.names, s.at))));
    &STARTS
}

/// `starts` without repeats, in order.
fn once_each(starts: impl Iterator<Item = (Names, NameUse)>) -> Vec<(Names, NameUse)> {
    let mut out: Vec<(Names, NameUse)> = Vec::new();
    for s in starts {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The starts that can give a finding alone, each set and place once,
/// the loosest place first: a fact starts wherever any collector's rule
/// lets it, so for a name two starts share the loosest place wins.
/// Anywhere, then a rejection word (which counts only where the text
/// around it fails and inserts, `syntax::rejection::rejection_in_context`), then as a
/// callee, then as a callee with arguments. An everyday method name among
/// the rejection words (`contains`) is the strictest of all: it counts as
/// a rejection only when nothing else has it.
fn alone_starts() -> &'static [(Names, NameUse)] {
    static STARTS: std::sync::LazyLock<Vec<(Names, NameUse)>> = std::sync::LazyLock::new(|| {
        let class = |at: NameUse| match at {
            NameUse::Anywhere => 0,
            NameUse::Rejection => 1,
            NameUse::Callee => 2,
            NameUse::CalleeWithArguments => 3,
            NameUse::StrMethod => 4,
        };
        let mut all = once_each((starts().filter(|s| s.alone)).map(|s| (s.names, s.at)));
        // Stable: within a place, the collectors' order.
        all.sort_by_key(|&(_, at)| class(at));
        all
    });
    &STARTS
}

/// Where `name` starts a fact that can give a finding alone, if it does:
/// the fast path's trigger (`prefilter::may_start_fact`).
pub fn fact_start(vocab: &Vocabulary, name: &str) -> Option<NameUse> {
    let mut everyday = None;
    for &(names, at) in alone_starts() {
        if vocab.has(names, name) {
            if at == NameUse::Rejection && CALL_REJECTIONS.contains(&name) {
                everyday = Some(at);
            } else {
                return Some(at);
            }
        }
    }
    everyday
}

/// Whether `name` is a name of the vocabulary that starts a fact (the
/// fast path's triggers but the field `platforms`, a fixed name): a
/// function so named is known already, not learned.
pub fn configured_start(vocab: &Vocabulary, name: &str) -> bool {
    (alone_starts().iter()).any(|&(names, _)| names.is_configured() && vocab.has(names, name))
}

/// Whether code naming `name` can give a fact: the names of the
/// vocabulary a macro's text is searched for before its arguments are
/// parsed as code (the walker matches the field `platforms` itself). Not
/// an everyday rejection word (`contains`): it rejects only in shapes
/// that also name a registration.
pub fn mentions(vocab: &Vocabulary, name: &str) -> bool {
    let everyday = CALL_REJECTIONS.contains(&name);
    (every_start().iter()).any(|&(names, at)| {
        names.is_configured() && !(everyday && at == NameUse::Rejection) && vocab.has(names, name)
    })
}

/// The first bytes of every name [`mentions`] knows (every byte when a
/// prefix is empty): a word starting with none of them is not mentioned.
/// For a scan over many words (a macro's text).
pub fn mention_firsts(vocab: &Vocabulary) -> FirstBytes {
    let mut firsts = FirstBytes::default();
    for &(names, _) in every_start().iter().filter(|(n, _)| n.is_configured()) {
        firsts.add(&vocab.firsts(names));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set of names is declared by some collector: a set no collector
    /// asks for is dead configuration.
    #[test]
    fn every_set_of_names_is_declared() {
        for names in Names::ALL {
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
        // Not `platforms`: the walker matches the field itself.
        assert_eq!(mentioned(&vocab), 7);
        assert!(!mention_firsts(&vocab).admits("Zoo") && !mention_firsts(&vocab).admits(""));
        let vocab = vocab.with_set(Names::Unregister, &["Zoo"]);
        // `take` and `deregister_all` are no unregistrations any more.
        assert!(mentions(&vocab, "Zoo") && mentioned(&vocab) == 6);
        let vocab = vocab.with_set(Names::Sources, &["*"]);
        assert!(mention_firsts(&vocab).admits("") && mention_firsts(&vocab).admits("ü"));
    }

    /// The ordered table gives what the declarations say: the loosest
    /// place among every start naming the word.
    #[test]
    fn fact_start_is_the_loosest_declared_place() {
        let strictness = |at: NameUse, name: &str| match at {
            NameUse::Anywhere => 0,
            NameUse::Rejection if !CALL_REJECTIONS.contains(&name) => 1,
            NameUse::Callee => 2,
            NameUse::CalleeWithArguments => 3,
            NameUse::StrMethod => 4,
            NameUse::Rejection => 5,
        };
        let vocabularies = [
            Vocabulary::default(),
            Vocabulary::default().with_set(Names::Sources, &["contains", "lower*"]),
            Vocabulary::default().with_set(Names::BackendSetters, &["insert", "platform"]),
        ];
        let names = [
            "platform",
            "platforms",
            "register",
            "register_backend",
            "lower",
            "lower_bound",
            "contains",
            "contains_key",
            "insert",
            "is_some",
            "Occupied",
            "with_backend",
            "get_backend",
            "canonicalize_platform",
            "unregister",
            "format",
            "",
        ];
        for vocab in &vocabularies {
            for name in names {
                let declared = (starts().filter(|s| s.alone))
                    .filter(|s| vocab.has(s.names, name))
                    .map(|s| s.at)
                    .min_by_key(|&at| strictness(at, name));
                assert_eq!(fact_start(vocab, name), declared, "{name}");
            }
        }
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
