//! What the packages checked with one configuration teach each other
//! (issue 19): a value set of a type defined in one package (wgpu-types'
//! `Backend::to_str`) decides the comparisons of its calls in the others
//! (wgpu-core), and the fields of its structs (`AdapterInfo::backend`) say
//! what `info.backend` is there. A package that declares a type of that
//! name itself uses its own (or nothing), never another's.

use std::collections::{HashMap, HashSet};

use crate::model::facts::{FileFacts, ValueCall, ValueSet};
use crate::model::source::FileId;

/// The value sets of types and the struct fields of a group of packages.
#[derive(Debug, Default)]
pub struct Shared {
    /// By call; `None` where two definitions disagree.
    sets: HashMap<ValueCall, Option<(FileId, ValueSet)>>,
    /// The type of each field; `None` where two disagree or it is a type
    /// parameter.
    fields: HashMap<(String, String), Option<String>>,
    /// How many times the group declares each type that has fields.
    declared: HashMap<String, usize>,
}

impl Shared {
    /// What the files of a group (each with its id) define.
    pub fn gather<'f>(files: impl IntoIterator<Item = (FileId, &'f FileFacts)> + Clone) -> Shared {
        let mut shared = Shared::default();
        for (id, facts) in files.clone() {
            for set in facts.value_sets.iter().filter(|s| s.call.ty.is_some()) {
                shared
                    .sets
                    .entry(set.call.clone())
                    .and_modify(|known| {
                        if known.as_ref().is_some_and(|(_, k)| !k.same_values(set)) {
                            *known = None;
                        }
                    })
                    .or_insert_with(|| Some((id, set.clone())));
            }
            for f in &facts.fields {
                shared
                    .fields
                    .entry((f.owner.clone(), f.field.clone()))
                    .and_modify(|known| {
                        if *known != f.ty {
                            *known = None;
                        }
                    })
                    .or_insert_with(|| f.ty.clone());
            }
        }
        let owners: HashSet<&str> = shared.fields.keys().map(|(o, _)| o.as_str()).collect();
        let mut declared: HashMap<String, usize> = HashMap::new();
        for (_, facts) in files {
            for t in facts.types.iter().filter(|t| owners.contains(t.as_str())) {
                *declared.entry(t.clone()).or_default() += 1;
            }
        }
        shared.declared = declared;
        shared
    }

    /// The one value set of `call` (a type's method) in the group.
    pub fn value_set(&self, call: &ValueCall) -> Option<(FileId, &ValueSet)> {
        let (file, set) = self.sets.get(call)?.as_ref()?;
        Some((*file, set))
    }

    /// The type of `owner.field`, when the group declares one type so named.
    pub fn field_type(&self, owner: &str, field: &str) -> Option<&str> {
        if self.declared.get(owner) != Some(&1) {
            return None;
        }
        let key = (owner.to_string(), field.to_string());
        self.fields.get(&key)?.as_deref()
    }

    /// The names of the methods of the group's value sets.
    pub fn methods(&self) -> impl Iterator<Item = &str> {
        self.sets.keys().map(|c| c.name.as_str())
    }

    /// The types whose values a call on may be decided by a value set of
    /// the group: the sets' types, and the structs reaching one through
    /// their fields, as far as the fields known tell.
    pub fn types(&self) -> HashSet<&str> {
        let mut types: HashSet<&str> = self.sets.keys().filter_map(|c| c.ty.as_deref()).collect();
        loop {
            let before = types.len();
            for ((owner, _), ty) in &self.fields {
                if ty.as_deref().is_some_and(|t| types.contains(t)) {
                    types.insert(owner);
                }
            }
            if types.len() == before {
                return types;
            }
        }
    }
}
