//! What the packages checked with one configuration teach each other
//! (issue 19): a value set of a type defined in one package (wgpu-types'
//! `Backend::to_str`) decides the comparisons of its calls in the others
//! (wgpu-core), and the fields of its structs (`AdapterInfo::backend`) say
//! what `info.backend` is there. A package that declares a type of that
//! name itself uses its own (or nothing), never another's.

use std::collections::{HashMap, HashSet};

use crate::model::facts::{FieldDef, FileFacts, FnSummary, NormalizerFn, ValueCall, ValueSet};
use crate::model::source::FileId;

/// The value sets of types and the struct fields of a group of packages.
#[derive(Debug, Default)]
pub struct Shared {
    /// By call; `None` where two definitions disagree.
    sets: HashMap<ValueCall, Option<(FileId, ValueSet)>>,
    /// The type of each field; `None` where two disagree or it is a type
    /// parameter.
    fields: HashMap<(String, String), Option<String>>,
    /// How many times the files defining a value set declare each type
    /// that has fields there.
    declared: HashMap<String, usize>,
    /// The bodies of methods named as registrations that tell what they do
    /// with a key given twice, by name: what decides their calls in the
    /// other packages ([`crate::analysis::callees`]).
    bodies: HashMap<String, Vec<FnSummary>>,
    /// The call of each value set, by where its function's name is.
    at: HashMap<(FileId, usize), ValueCall>,
    /// The method names of the sets.
    names: HashSet<String>,
    /// The functions normalizing a string parameter, by call; `None` where
    /// two normalize different parameters.
    normalizers: HashMap<ValueCall, Option<(FileId, NormalizerFn)>>,
    /// The type each function of the files defining a value set returns,
    /// by name; `None` where two disagree.
    returners: HashMap<String, Option<String>>,
}

impl Shared {
    /// What the files of a group (each with its id) define.
    pub fn gather<'f>(files: impl IntoIterator<Item = (FileId, &'f FileFacts)> + Clone) -> Shared {
        let mut shared = Shared::default();
        for (_, facts) in files.clone() {
            for f in facts.functions.iter().filter(|f| is_shared_body(f)) {
                (shared.bodies.entry(f.name.clone()).or_default()).push(f.clone());
            }
        }
        for (id, facts) in files.clone() {
            for f in &facts.normalizers {
                (shared.normalizers.entry(f.call.clone()))
                    .and_modify(|known| {
                        if known.as_ref().is_some_and(|(_, k)| k.param != f.param) {
                            *known = None;
                        }
                    })
                    .or_insert_with(|| Some((id, f.clone())));
            }
            for set in facts.value_sets.iter().filter(|s| s.call.ty.is_some()) {
                (shared.at).insert((set.span.file, set.span.start), set.call.clone());
                shared.names.insert(set.call.name.clone());
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
            // As in a crate: the fields of the files defining a value set.
            if facts.value_sets.is_empty() {
                continue;
            }
            for r in &facts.returners {
                (shared.returners.entry(r.name.clone()))
                    .and_modify(|known| {
                        if known.as_ref() != Some(&r.ty) {
                            *known = None;
                        }
                    })
                    .or_insert_with(|| Some(r.ty.clone()));
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
        for (_, facts) in files.into_iter().filter(|(_, f)| !f.value_sets.is_empty()) {
            for t in facts.types.iter().filter(|t| owners.contains(t.as_str())) {
                *declared.entry(t.clone()).or_default() += 1;
            }
        }
        shared.declared = declared;
        shared
    }

    /// The bodies of methods named `name` in the group
    /// ([`Shared::bodies`]).
    pub fn bodies(&self, name: &str) -> &[FnSummary] {
        self.bodies.get(name).map_or(&[], Vec::as_slice)
    }

    /// The value set defined at `start` of `file`, if it is the one of its call.
    pub fn value_set_at(&self, file: FileId, start: usize) -> Option<(FileId, &ValueSet)> {
        let call = self.at.get(&(file, start))?;
        self.value_set(call)
            .filter(|(f, s)| *f == file && s.span.start == start)
    }

    /// The one normalizer `call` names in the group.
    pub fn normalizer(&self, call: &ValueCall) -> Option<(FileId, &NormalizerFn)> {
        let (file, f) = self.normalizers.get(call)?.as_ref()?;
        Some((*file, f))
    }

    /// Whether a value set of the group is of a method so named.
    pub fn has_name(&self, name: &str) -> bool {
        self.names.contains(name)
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

    /// Each type a call on which a value set of the group may decide,
    /// with the method: the set's type, and the structs reaching it
    /// through their fields, as far as the fields known tell.
    pub fn calls(&self) -> HashSet<(&str, &str)> {
        let mut calls: HashSet<(&str, &str)> = (self.sets.keys())
            .filter_map(|c| Some((c.ty.as_deref()?, c.name.as_str())))
            .collect();
        loop {
            let before = calls.len();
            for ((owner, _), ty) in &self.fields {
                let Some(ty) = ty.as_deref() else {
                    continue;
                };
                let reached: Vec<&str> = (calls.iter())
                    .filter(|(t, _)| *t == ty)
                    .map(|(_, m)| *m)
                    .collect();
                calls.extend(reached.into_iter().map(|m| (owner.as_str(), m)));
            }
            if calls.len() == before {
                return calls;
            }
        }
    }

    /// The pairs of words a file must name for a call there to be one a
    /// value set of the group may decide: a type of [`Shared::calls`]
    /// with its method, or a function returning such a type with the
    /// method (`devices::current().label()` names no type).
    pub fn named_calls(&self) -> HashSet<(&str, &str)> {
        let mut calls = self.calls();
        let returned: Vec<(&str, &str)> = (self.returners.iter())
            .filter_map(|(name, ty)| Some((name.as_str(), ty.as_deref()?)))
            .flat_map(|(name, ty)| {
                (calls.iter())
                    .filter(move |(t, _)| *t == ty)
                    .map(move |(_, m)| (name, *m))
            })
            .collect();
        calls.extend(returned);
        calls
    }

    /// Whether a value set of the group may decide `call`, written in a
    /// file declaring `fields`: its type (or that of its fields, as far as
    /// the file and the group tell) has the method among `calls` (those
    /// of [`Shared::calls`]).
    pub fn may_decide(
        &self,
        call: &ValueCall,
        fields: &[FieldDef],
        calls: &HashSet<(&str, &str)>,
    ) -> bool {
        // A call written through one so named: the model may tie it to a
        // set of the group.
        if call.sites.iter().any(|s| self.names.contains(&s.name)) {
            return true;
        }
        let Some(mut ty) = call.ty.as_deref() else {
            return false;
        };
        for field in &call.fields {
            let here = fields.iter().find(|f| f.owner == ty && f.field == *field);
            let next = match here {
                Some(f) => f.ty.as_deref(),
                None => self
                    .fields
                    .get(&(ty.to_string(), field.clone()))
                    .and_then(Option::as_deref),
            };
            match next {
                Some(next) => ty = next,
                None => break,
            }
        }
        calls.contains(&(ty, call.name.as_str()))
    }
}

/// A method of a named type whose body tells what it does with a key given
/// twice: a group holding one shares its bodies ([`is_shared_body`]).
pub fn tells_keys(f: &FnSummary) -> bool {
    is_shared_body(f) && (f.rejects.is_some() || f.keeping.is_some() || f.rejects_after.is_some())
}

/// A method of a named type summarized: what another package's call of it
/// may be judged by (a body that shows no rejection too: a second call of
/// it does not fail).
pub fn is_shared_body(f: &FnSummary) -> bool {
    f.method
        && !f.singleton_only
        && f.self_type
            .as_deref()
            .is_some_and(|t| !t.starts_with("dyn "))
}
