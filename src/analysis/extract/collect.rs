//! What each collector of the walk starts facts from: the one declaration
//! that the walk asks the vocabulary through ([`Asks`]) and that the fast
//! path takes its triggers from (`triggers.rs`), so nothing is kept in step
//! by hand (as oxc derives the node types a rule runs on from the rule).
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

use crate::config::{CallReceiver, ConstantKey, NameUse, Names, Vocabulary};

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
    /// (`triggers::mentions`).
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

/// The vocabulary as one collector may ask it: only for what it declared.
#[derive(Clone, Copy)]
pub struct Asks<'v> {
    pub vocab: &'v Vocabulary,
    pub collector: &'static Collector,
}

impl<'v> Asks<'v> {
    /// Whether `name` is one of `names`, which the collector declared.
    pub fn has(self, names: Names, name: &str) -> bool {
        self.declared(names);
        self.vocab.has(names, name)
    }

    /// Whether `name` registers something, keyed or not.
    pub fn is_registration(self, name: &str) -> bool {
        self.has(Names::RegistrationFunctions, name) || self.has(Names::LoweringRegistrations, name)
    }

    /// [`Vocabulary::registration_key_with`].
    pub fn registration_key_with(self, name: &str, arity: Option<usize>) -> Option<&'v [usize]> {
        self.declared(Names::RegistrationFunctions);
        self.vocab.registration_key_with(name, arity)
    }

    /// [`Vocabulary::registration_receiver_with`].
    pub fn registration_receiver_with(self, name: &str, arity: Option<usize>) -> CallReceiver {
        self.declared(Names::RegistrationFunctions);
        self.vocab.registration_receiver_with(name, arity)
    }

    /// [`Vocabulary::registration_constants`].
    pub fn registration_constants(self, name: &str, arity: Option<usize>) -> &'v [ConstantKey] {
        self.declared(Names::RegistrationFunctions);
        self.vocab.registration_constants(name, arity)
    }

    /// [`Vocabulary::registration_key_field`].
    pub fn registration_key_field(self, name: &str, arity: Option<usize>) -> Option<&'v str> {
        self.declared(Names::RegistrationFunctions);
        self.vocab.registration_key_field(name, arity)
    }

    /// [`Vocabulary::registration_factory`].
    pub fn registration_factory(self, name: &str, arity: Option<usize>) -> &'v [ConstantKey] {
        self.declared(Names::RegistrationFunctions);
        self.vocab.registration_factory(name, arity)
    }

    /// [`Vocabulary::registration_switch`].
    pub fn registration_switch(self, name: &str, arity: Option<usize>) -> Option<usize> {
        self.declared(Names::RegistrationFunctions);
        self.vocab.registration_switch(name, arity)
    }

    /// [`Vocabulary::registration_returns_self`].
    pub fn registration_returns_self(self, name: &str, arity: Option<usize>) -> bool {
        self.declared(Names::RegistrationFunctions);
        self.vocab.registration_returns_self(name, arity)
    }

    /// Fails a debug build when the collector did not declare `names`.
    fn declared(self, names: Names) {
        debug_assert!(
            self.collector.declares(names),
            "the {} collector asks for {names:?}, which it does not declare",
            self.collector.name
        );
    }
}

/// The stems of what `collector` starts facts from.
pub fn stems_of<'v>(vocab: &'v Vocabulary, collector: &Collector) -> Vec<&'v str> {
    (collector.starts.iter())
        .flat_map(|s| vocab.stems(s.names))
        .collect()
}
