//! Value sets shared by the packages checked with one configuration
//! (issue 19): which files to parse whole for them, and what each package
//! is given ([`Shared`]). A group is a configuration before learning, as
//! [`super::learn`] shares what surely rejects.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{FileOutcome, Input, file_id, names_word};
use crate::analysis::shared::Shared;

/// Each input's group: the address of its configuration before learning;
/// each dependency a group of its own (issue 29: what a dependency teaches
/// is its rejecting functions, not its value sets).
pub(super) fn groups(inputs: &[Input]) -> Vec<usize> {
    (inputs.iter())
        .map(|i| match i.dependency {
            Some(_) => usize::MAX - i.krate,
            None => Arc::as_ptr(&i.config) as usize,
        })
        .collect()
}

/// What a group defining a value set of a type wants parsed whole, in
/// each of its packages: the calls of its methods on a value of its types,
/// of a struct reaching one through fields, or of a function returning
/// one (of the files defining a value set: [`Shared::named_calls`]). A
/// comparison such a call decides names both the method and the type (a
/// parameter's, `impl`'s, variant's, or a field's in a struct of the file)
/// or the function giving it. The struct and function definitions it
/// needs are in files parsed in every mode.
pub(super) struct Wanted {
    /// (type, method) pairs, by type.
    pub calls: Vec<(String, String)>,
    /// Every type and method of `calls`, once: the words to look for.
    pub words: Vec<String>,
}

impl Wanted {
    /// Whether `text` names a type with a method of it.
    pub fn named_in(&self, text: &str) -> bool {
        let named: HashSet<&str> = (self.words.iter())
            .filter(|w| names_word(text, w))
            .map(String::as_str)
            .collect();
        (self.calls.iter())
            .any(|(ty, method)| named.contains(ty.as_str()) && named.contains(method.as_str()))
    }
}

/// [`Wanted`] for each package of a group that defines a value set of a
/// type, by crate number.
pub(super) fn wanted<'o>(
    inputs: &[Input],
    groups: &[usize],
    outcomes: impl Iterator<Item = &'o (usize, FileOutcome)> + Clone,
) -> HashMap<usize, Arc<Wanted>> {
    let by_group: HashMap<usize, Arc<Wanted>> = by_group(groups, outcomes)
        .into_iter()
        .map(|(group, shared)| {
            let mut calls: Vec<(String, String)> = (shared.named_calls().into_iter())
                .flat_map(|(t, m)| {
                    crate::analysis::values::written_as(m)
                        .map(move |m| (t.to_string(), m.to_string()))
                })
                .collect();
            calls.sort_unstable();
            let mut words: Vec<String> = (calls.iter())
                .flat_map(|(t, m)| [t.clone(), m.clone()])
                .collect();
            words.sort_unstable();
            words.dedup();
            (group, Arc::new(Wanted { calls, words }))
        })
        .collect();
    in_packages(inputs, groups, &by_group)
}

/// What each package of a group defining a value set of a type is given.
pub(super) fn shared(
    inputs: &[Input],
    groups: &[usize],
    outcomes: &[(usize, FileOutcome)],
) -> HashMap<usize, Arc<Shared>> {
    let by_group: HashMap<usize, Arc<Shared>> = (by_group(groups, outcomes.iter()).into_iter())
        .map(|(group, shared)| (group, Arc::new(shared)))
        .collect();
    in_packages(inputs, groups, &by_group)
}

/// What the files of each group defining a value set of a type define.
fn by_group<'o>(
    groups: &[usize],
    outcomes: impl Iterator<Item = &'o (usize, FileOutcome)> + Clone,
) -> HashMap<usize, Shared> {
    // A value set of a type, or a registration's body another package's
    // call may be judged by.
    let typed = |o: &FileOutcome| {
        (o.result.as_ref()).is_ok_and(|f| {
            f.value_sets.iter().any(|s| s.call.ty.is_some())
                || !f.normalizers.is_empty()
                || f.functions.iter().any(crate::analysis::shared::tells_keys)
        })
    };
    let defining: HashSet<usize> = (outcomes.clone())
        .filter(|(_, o)| typed(o))
        .map(|(i, _)| groups[*i])
        .collect();
    (defining.into_iter())
        .map(|group| {
            let files = (outcomes.clone())
                .filter(|(i, _)| groups[*i] == group)
                .filter_map(|(i, o)| Some((file_id(*i), o.result.as_deref().ok()?)));
            (group, Shared::gather(files))
        })
        .collect()
}

/// A group's value for each of its packages.
fn in_packages<T>(
    inputs: &[Input],
    groups: &[usize],
    by_group: &HashMap<usize, Arc<T>>,
) -> HashMap<usize, Arc<T>> {
    if by_group.is_empty() {
        return HashMap::new();
    }
    (inputs.iter().zip(groups))
        .filter_map(|(input, group)| Some((input.krate, by_group.get(group)?.clone())))
        .collect()
}
