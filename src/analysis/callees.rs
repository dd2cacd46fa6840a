//! What the body a registration call reaches does with a key given twice
//! (issue 28: behaviour decides, names only break ties).
//!
//! A call named as a registration (`register*`) whose body is in the crate
//! is judged by that body ([`FnSummary::rejects`], [`FnSummary::keeping`]):
//! an overload table that appends (`entry(name).or_default().push(f)`) or
//! a symbol table that merges (`*entry(name).or_insert(0) |= usage`) keeps
//! both, so no key is registered twice; a rejection keyed by more than the
//! name (`contains_key(&(name, kind))`) makes those arguments part of the
//! key. The configured names decide only for calls reaching no body.
//!
//! A method learned from one type's body (`Scene::add_node` rejects) is
//! that type's: a call on a receiver the walk knows to be of another type
//! (`graph: &mut RenderGraph`, `self.headers` declared a `HashMap`) is
//! another method, whatever its name.

use std::collections::HashMap;

use crate::analysis::{CrateFacts, last_segment};
use crate::config::CallReceiver;
use crate::model::facts::{
    CallVia, FileFacts, FnSummary, Keeping, ReceiverType, Registration, Registry, StateCheck,
};

/// The bodies of the crate's functions summarized, by name.
pub struct Callees<'a> {
    by_name: HashMap<&'a str, Vec<&'a FnSummary>>,
    /// Bodies of the crate's other packages (of its configuration), of
    /// types it does not declare: they decide a call only on a receiver
    /// known to be of their type.
    foreign: HashMap<&'a str, Vec<&'a FnSummary>>,
    fields: FieldTypes<'a>,
    /// [`Self::shows_no_rejection`] of each body judged, by its address.
    judged: std::cell::RefCell<HashMap<*const FnSummary, bool>>,
    /// [`Self::all_silent`] of each name asked.
    silent_names: std::cell::RefCell<HashMap<String, bool>>,
}

/// The declared type of each struct field of a crate (`(owner, field)`),
/// from [`FileFacts::fields`]: `None` for a field of a type parameter, or
/// where two structs of the name declare it otherwise.
#[derive(Default)]
pub struct FieldTypes<'a>(HashMap<(&'a str, &'a str), Option<&'a str>>);

impl<'a> FieldTypes<'a> {
    pub fn new(files: impl IntoIterator<Item = &'a FileFacts>) -> FieldTypes<'a> {
        let mut map: HashMap<(&str, &str), Option<&str>> = HashMap::new();
        for facts in files {
            for f in &facts.fields {
                let ty = f.ty.as_deref();
                map.entry((f.owner.as_str(), f.field.as_str()))
                    .and_modify(|t| {
                        if *t != ty {
                            *t = None;
                        }
                    })
                    .or_insert(ty);
            }
        }
        FieldTypes(map)
    }

    /// The declared type of `owner`'s field `field`, when one.
    pub fn get(&self, owner: &str, field: &str) -> Option<&'a str> {
        self.0.get(&(owner, field)).copied().flatten()
    }
}

/// What the body (or bodies) a registration reaches tell of it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// It keeps both keys (appends or merges): nothing is registered twice.
    pub keeps_both: bool,
    /// The arguments (and type arguments) beyond the configured key that
    /// the body's rejection compares, as written.
    pub more_key: Vec<String>,
    /// Whether a second call can fail: `None` when no body tells.
    pub rejects: Option<bool>,
    /// Every body it may reach replaces the value of a key registered
    /// before (`self.map.insert(key, v)` with no check).
    pub replaces: bool,
    /// Every body it may reach is in reach, and none rejects, keeps both
    /// or wraps a rejection as far as the code read shows (a wrapper of a
    /// symbol table's insert, steel's `register_value`): a second call
    /// replaces (or appends), it does not fail.
    pub silent: bool,
    /// [`Self::silent`], and no body is empty (a stand-in that tells
    /// nothing): databend's `register_1_arg` hands the key to a builder,
    /// steel's `register_value` to a symbol table, and the code read shows
    /// no rejection there.
    pub forwards: bool,
    /// The call is a learned method on a receiver of another type than
    /// the one it was learned from.
    pub other_type: bool,
    /// How a learned method was matched to the call, for its "why": on a
    /// receiver of the type it was learned from, or by name where the
    /// receiver's type is not known.
    pub rule: Option<String>,
}

impl<'a> Callees<'a> {
    pub fn new(krate: &CrateFacts<'a>) -> Callees<'a> {
        let mut by_name: HashMap<&str, Vec<&FnSummary>> = HashMap::new();
        for &(_, facts) in &krate.files {
            for s in facts.functions.iter().filter(|s| !s.singleton_only) {
                by_name.entry(s.name.as_str()).or_default().push(s);
            }
        }
        let fields = FieldTypes::new(krate.files.iter().map(|&(_, facts)| facts));
        let mut foreign: HashMap<&str, Vec<&FnSummary>> = HashMap::new();
        if let Some(shared) = krate.shared {
            let own: std::collections::HashSet<&str> = (krate.files.iter())
                .flat_map(|(_, f)| f.types.iter().map(String::as_str))
                .collect();
            let called = (krate.files.iter())
                .flat_map(|(_, f)| f.registrations.iter().map(|r| r.callee.as_str()));
            for name in called {
                if foreign.contains_key(name) {
                    continue;
                }
                let bodies: Vec<&FnSummary> = (shared.bodies(name).iter())
                    .filter(|s| {
                        s.self_type
                            .as_deref()
                            .is_some_and(|t| !own.contains(last_segment(t)))
                    })
                    .collect();
                if !bodies.is_empty() {
                    foreign.insert(name, bodies);
                }
            }
        }
        Callees {
            by_name,
            foreign,
            fields,
            judged: Default::default(),
            silent_names: Default::default(),
        }
    }

    /// The bodies `reg` may call: of its name, arity and kind (method or
    /// free function), of its receiver's type when known.
    fn candidates<'s>(
        &'s self,
        reg: &'s Registration,
        receiver_type: Option<&'s str>,
    ) -> impl Iterator<Item = &'a FnSummary> + 's {
        let method = !matches!(reg.registry, Registry::Free);
        (self.bodies_of(&reg.callee, receiver_type))
            .filter(move |s| s.arity == reg.arity && s.method == method)
            .filter(move |s| match (receiver_type, s.self_type.as_deref()) {
                (Some(t), Some(own)) => last_segment(own) == t,
                _ => true,
            })
    }

    /// The bodies a call of `name` may reach: the crate's own, and on a
    /// receiver of known type `receiver`, its other packages' of that type.
    fn bodies_of<'s>(
        &'s self,
        name: &str,
        receiver: Option<&'s str>,
    ) -> impl Iterator<Item = &'a FnSummary> + 's {
        let own = self.by_name.get(name).into_iter().flatten().copied();
        let foreign = (receiver.and_then(|t| Some((t, self.foreign.get(name)?))))
            .into_iter()
            .flat_map(|(t, bodies)| {
                (bodies.iter().copied())
                    .filter(move |s| s.self_type.as_deref().map(last_segment) == Some(t))
            });
        own.chain(foreign)
    }

    /// The receiver's type by its last segment, when known.
    fn receiver_type<'r>(&'r self, reg: &'r Registration) -> Option<&'r str> {
        match reg.receiver_type.as_ref()? {
            ReceiverType::Named(t) => Some(t),
            ReceiverType::Field { owner, field } => {
                Some(last_segment(self.fields.get(owner, field)?))
            }
        }
    }

    /// A method of `reg`'s name and arity defined on a type other than
    /// `types` (those a learned method of the name was learned from),
    /// with a body that does not reject.
    fn other_bodies(&self, reg: &Registration, types: &[&str]) -> bool {
        (self.by_name.get(reg.callee.as_str()).into_iter().flatten()).any(|s| {
            s.method
                && s.arity == reg.arity
                && s.rejects.is_none()
                && s.self_type
                    .as_deref()
                    .is_some_and(|t| !types.contains(&last_segment(t)))
        })
    }

    /// What the bodies `reg` may call tell of it; `key`: the configured
    /// key arguments of its callee (the first is [`Registration::key`]).
    pub fn verdict(&self, krate: &CrateFacts<'_>, reg: &Registration, key: &[usize]) -> Verdict {
        let mut verdict = Verdict::default();
        if reg.via_helper.is_some() || reg.via_macro.is_some() {
            return verdict;
        }
        let receiver_type = self.receiver_type(reg);
        // A learned method is the type's it was learned from.
        if let Some(learned) = krate.learned {
            let methods = (learned.functions.iter())
                .filter(|f| f.name == reg.callee && f.arity == reg.arity)
                .filter(|f| matches!(f.receiver, CallReceiver::Method { .. }));
            let self_only =
                (methods.clone()).any(|f| f.receiver == CallReceiver::Method { self_only: true });
            let types: Vec<&str> = methods.filter_map(|f| f.self_type.as_deref()).collect();
            if !types.is_empty() {
                match receiver_type {
                    Some(t) if !types.contains(&t) => {
                        verdict.other_type = true;
                        return verdict;
                    }
                    Some(t) => verdict.rule = Some(format!("the receiver is its type, `{t}`")),
                    // Not known: it may be any type with a method of the
                    // name, and one whose body does not reject is no
                    // registry.
                    // A method named like a collection's (`insert`) on a
                    // receiver of unknown type (`self.headers`) is most
                    // likely the collection's.
                    None if self_only || self.other_bodies(reg, &types) => {
                        verdict.other_type = true;
                        return verdict;
                    }
                    None => {
                        verdict.rule = Some(
                            "the receiver's type is not known, and no other type defines it".into(),
                        )
                    }
                }
            }
        }
        // A wrapper learned to pass on a rejection (`self.inner.insert(key,
        // f)` of a rejecting `LinkerInner::insert`) rejects, whatever its
        // own body's signs say of a collection's `insert`.
        let wraps_rejection = |s: &FnSummary| {
            krate.learned.is_some_and(|l| {
                l.rejects(&s.name)
                    && (l.functions.iter()).any(|f| {
                        f.name == s.name
                            && f.self_type.as_deref()
                                == s.self_type.as_deref().map(crate::analysis::type_ident)
                    })
            })
        };
        let bodies: Vec<&FnSummary> = (self.candidates(reg, receiver_type))
            .filter(|s| s.rejects.is_some() || s.keeping.is_some() || wraps_rejection(s))
            .collect();
        if bodies.is_empty() {
            let reached: Vec<&FnSummary> = self.candidates(reg, receiver_type).collect();
            verdict.silent =
                !reached.is_empty() && (reached.iter()).all(|s| self.shows_no_rejection(krate, s));
            if verdict.silent {
                verdict.rejects = Some(false);
                verdict.forwards = reached.iter().all(|s| !s.empty);
            }
            return verdict;
        }
        let rejecting: Vec<&FnSummary> = bodies
            .iter()
            .copied()
            .filter(|s| s.rejects.is_some() || wraps_rejection(s))
            .collect();
        verdict.rejects = Some(!rejecting.is_empty());
        verdict.replaces =
            rejecting.is_empty() && (bodies.iter()).all(|s| s.keeping == Some(Keeping::Replaces));
        verdict.keeps_both = rejecting.is_empty()
            && (bodies.iter())
                .all(|s| matches!(s.keeping, Some(Keeping::Appends | Keeping::Merges)));
        // The parts of the key every rejecting body compares beyond the
        // configured key (one body: a name and its kind).
        if let [one] = rejecting.as_slice()
            && let Some(r) = &one.rejects
        {
            verdict.more_key = (r.key.iter())
                .filter(|i| !key.contains(i))
                .filter_map(|&i| reg.args.get(i).cloned())
                .collect();
        }
        verdict
    }

    /// Every body named `name` read: the crate's own and, shared by its
    /// group, its other packages' methods.
    fn bodies_named<'s>(
        &'s self,
        krate: &'s CrateFacts<'_>,
        name: &'s str,
    ) -> impl Iterator<Item = &'s FnSummary> + 's {
        let own = self.by_name.get(name).into_iter().flatten().copied();
        own.chain(krate.shared.map_or(&[][..], |sh| sh.bodies(name)))
    }

    /// Whether `s`, a body a registration reaches that itself neither
    /// rejects nor keeps (`verdict`), shows no rejection as far as the code
    /// read goes: no state check, no presence check, no singleton, and
    /// every call it makes (in its closures too) is read
    /// (its bodies summarized, none of them rejecting) or is plumbing: named
    /// as no registration, and either handed none of its parameters or a
    /// method of its own type (`self.builder(name)`, whose body is in the
    /// crate and, summarized or not, shows no rejection word). A call
    /// handed the key with no body read (another crate's
    /// `ffi::define_op(name)`) may reject. Each body is judged once.
    fn shows_no_rejection(&self, krate: &CrateFacts<'_>, s: &FnSummary) -> bool {
        let at = s as *const FnSummary;
        if let Some(&known) = self.judged.borrow().get(&at) {
            return known;
        }
        let read = |(name, _): &(String, CallVia)| {
            let name = name.as_str();
            let mut bodies = self.bodies_named(krate, name).peekable();
            let read = bodies.peek().is_some();
            // One level down, by name: a builder's `register()` that
            // rejects makes the key's way a rejecting one.
            let may_reject = krate.learned.is_some_and(|l| l.rejects(name))
                || bodies.any(|b| {
                    b.rejects.is_some()
                        || b.checks_presence
                        || b.rejects_after.is_some()
                        || b.singleton.is_some()
                });
            let handed = (s.calls.iter()).filter(|c| c.callee == name);
            let plumbing = krate.vocab.registration_key_with(name, None).is_none()
                && handed
                    .clone()
                    .all(|c| c.on_self && c.via == CallVia::Method);
            !may_reject && (plumbing || read || name == s.name)
        };
        let silent = s.rejects_after.is_none()
            && s.singleton.is_none()
            && !s.checks_presence
            && s.called.len() < crate::analysis::extract::MAX_CALLED
            && s.called.iter().all(read);
        self.judged.borrow_mut().insert(at, silent);
        silent
    }

    /// Whether every body named `name` the crate and its group read is one
    /// that is not empty and shows no rejection
    /// ([`Self::shows_no_rejection`]): what a wrapper of that name hands
    /// its key to (databend's `geo_convert_fn` of
    /// `register_passthrough_nullable_1_arg`) registers nothing a second
    /// call could fail on.
    pub fn all_silent(&self, krate: &CrateFacts<'_>, name: &str) -> bool {
        if let Some(&known) = self.silent_names.borrow().get(name) {
            return known;
        }
        let mut bodies = (self.bodies_named(krate, name))
            .filter(|s| !s.singleton_only)
            .peekable();
        let silent = bodies.peek().is_some()
            && bodies.all(|s| {
                s.rejects.is_none()
                    && s.keeping.is_none()
                    && !s.empty
                    && self.shows_no_rejection(krate, s)
            });
        self.silent_names
            .borrow_mut()
            .insert(name.to_string(), silent);
        silent
    }

    /// The body `reg` reaches when it fails every call once a state of its
    /// receiver is set (`if self.initialized { return Err(..) }`), with
    /// that check: every body of its name, arity and receiver type does.
    pub fn rejecting_after(&self, reg: &Registration) -> Option<(&'a FnSummary, &'a StateCheck)> {
        if reg.via_helper.is_some() || reg.via_macro.is_some() {
            return None;
        }
        let receiver_type = self.receiver_type(reg);
        let mut bodies = self.candidates(reg, receiver_type);
        let first = bodies.next()?;
        let check = first.rejects_after.as_ref()?;
        let same = |s: &FnSummary| {
            s.rejects_after
                .as_ref()
                .is_some_and(|c| c.field == check.field)
                && s.self_type == first.self_type
        };
        bodies.all(same).then_some((first, check))
    }
}
