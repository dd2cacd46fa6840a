//! The semantic floor: items, name resolution and declared types over small
//! crates written as strings, and over this repository's own source.

use std::path::PathBuf;
use std::sync::Arc;

use backend_lint::semantic::{CrateInput, ItemLoc, Model, RefKind, Reference, Resolved, Why};

/// A crate of `files` (path, text), rooted at the first.
fn krate(name: &str, files: &[(&str, &str)], deps: &[(&str, usize)]) -> CrateInput {
    CrateInput {
        name: name.into(),
        root_file: PathBuf::from(files[0].0),
        files: files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), Arc::<str>::from(*t)))
            .collect(),
        deps: deps.iter().map(|(n, k)| (n.to_string(), *k)).collect(),
        external_deps: Vec::new(),
    }
}

struct Case {
    crates: Vec<CrateInput>,
    model: Model,
    refs: Vec<Reference>,
}

impl Case {
    fn new(crates: Vec<CrateInput>) -> Case {
        let model = Model::build(crates.clone());
        let refs = model.references();
        Case {
            crates,
            model,
            refs,
        }
    }

    fn one(files: &[(&str, &str)]) -> Case {
        Case::new(vec![krate("demo", files, &[])])
    }

    fn text(&self, file: &str) -> &str {
        self.crates
            .iter()
            .flat_map(|c| &c.files)
            .find(|(p, _)| p == &PathBuf::from(file))
            .map(|(_, t)| &**t)
            .unwrap_or_else(|| panic!("no file {file}"))
    }

    /// The offset `$` marks in the one occurrence of `pattern` in `file`.
    fn at(&self, file: &str, pattern: &str) -> usize {
        let needle = pattern.replace('$', "");
        let text = self.text(file);
        let found: Vec<usize> = text.match_indices(&needle).map(|(i, _)| i).collect();
        assert_eq!(
            found.len(),
            1,
            "`{needle}` is in {file} {} times",
            found.len()
        );
        found[0] + pattern.find('$').expect("a `$` in the pattern")
    }

    /// The definition whose name `$` marks.
    fn def(&self, file: &str, pattern: &str) -> ItemLoc {
        let start = self.at(file, pattern);
        let text = self.text(file);
        let len = text[start..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(text.len() - start);
        ItemLoc {
            file: PathBuf::from(file),
            name: start..start + len,
        }
    }

    /// The reference whose name `$` marks.
    fn reference(&self, file: &str, pattern: &str) -> &Reference {
        let start = self.at(file, pattern);
        let found: Vec<&Reference> = self
            .refs
            .iter()
            .filter(|r| r.file == std::path::Path::new(file) && r.range.start == start)
            .collect();
        assert_eq!(found.len(), 1, "references at `{pattern}`: {found:?}");
        found[0]
    }

    fn target(&self, file: &str, pattern: &str) -> Resolved {
        self.reference(file, pattern).target.clone()
    }

    fn resolves_to(&self, file: &str, pattern: &str, def_file: &str, def: &str) {
        assert_eq!(
            self.target(file, pattern),
            Resolved::Item(vec![self.def(def_file, def)]),
            "at `{pattern}`"
        );
    }
}

#[test]
fn same_named_functions_of_modules_are_told_apart() {
    let c = Case::one(&[
        (
            "src/lib.rs",
            "mod ops;\npub struct Registry;\npub fn all(r: &mut Registry) {\n    ops::gather::register(r);\n    ops::fft::register(r);\n}\n",
        ),
        ("src/ops/mod.rs", "pub mod gather;\npub mod fft;\n"),
        (
            "src/ops/gather.rs",
            "use crate::Registry;\npub fn register(r: &mut Registry) {}\n",
        ),
        (
            "src/ops/fft.rs",
            "use crate::Registry;\npub fn register(r: &mut Registry) {}\n",
        ),
    ]);
    c.resolves_to(
        "src/lib.rs",
        "gather::$register",
        "src/ops/gather.rs",
        "fn $register",
    );
    c.resolves_to(
        "src/lib.rs",
        "fft::$register",
        "src/ops/fft.rs",
        "fn $register",
    );
    assert_eq!(
        c.reference("src/lib.rs", "gather::$register").kind,
        RefKind::Call
    );
    c.resolves_to(
        "src/ops/fft.rs",
        "crate::$Registry",
        "src/lib.rs",
        "struct $Registry",
    );
    assert_eq!(
        c.reference("src/ops/fft.rs", "crate::$Registry").kind,
        RefKind::Import
    );
    // Parameters' types are references too.
    c.resolves_to(
        "src/ops/gather.rs",
        "&mut $Registry",
        "src/lib.rs",
        "struct $Registry",
    );
}

#[test]
fn an_explicit_item_shadows_a_glob_import() {
    let c = Case::one(&[(
        "src/lib.rs",
        "mod a { pub fn f() {} pub fn g() {} }\n\
         mod b {\n    use super::a::*;\n    fn f() {}\n    fn call() { f(); g(); }\n}\n",
    )]);
    c.resolves_to("src/lib.rs", "{ $f(); g", "src/lib.rs", "    fn $f() {}");
    c.resolves_to("src/lib.rs", "f(); $g()", "src/lib.rs", "pub fn $g()");
}

#[test]
fn an_explicit_import_shadows_a_glob_import() {
    let c = Case::one(&[(
        "src/lib.rs",
        "mod a { pub fn f() {} }\nmod c { pub fn f() {} }\n\
         mod b {\n    use super::a::*;\n    use super::c::f;\n    fn call() { f(); }\n}\n",
    )]);
    c.resolves_to("src/lib.rs", "{ $f(); }", "src/lib.rs", "mod c { pub fn $f");
}

#[test]
fn re_export_chains_renames_and_self_super_crate() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub mod deep { pub mod inner { pub fn target() {} } }\n\
         pub mod mid { pub use crate::deep::inner::target as renamed; }\n\
         pub mod top { pub use super::mid::renamed; pub use self::sub::*; pub mod sub { pub fn s() {} } }\n\
         fn user() { top::renamed(); crate::top::s(); self::top::sub::s(); }\n\
         mod child { fn up() { super::top::renamed(); } }\n",
    )]);
    let target = "pub fn $target";
    c.resolves_to("src/lib.rs", "{ top::$renamed();", "src/lib.rs", target);
    c.resolves_to("src/lib.rs", "super::top::$renamed", "src/lib.rs", target);
    c.resolves_to("src/lib.rs", "crate::top::$s()", "src/lib.rs", "pub fn $s");
    c.resolves_to(
        "src/lib.rs",
        "self::top::sub::$s()",
        "src/lib.rs",
        "pub fn $s",
    );
}

#[test]
fn a_glob_cycle_ends_and_still_resolves() {
    let c = Case::one(&[(
        "src/lib.rs",
        "mod a { pub use super::b::*; pub fn fa() {} }\n\
         mod b { pub use super::a::*; pub fn fb() {} }\n\
         fn user() { a::fb(); b::fa(); a::missing(); }\n",
    )]);
    c.resolves_to("src/lib.rs", "a::$fb()", "src/lib.rs", "pub fn $fb");
    c.resolves_to("src/lib.rs", "b::$fa()", "src/lib.rs", "pub fn $fa");
    assert_eq!(
        c.target("src/lib.rs", "a::$missing"),
        Resolved::Unresolved(Why::NotFound)
    );
}

#[test]
fn enum_variants_through_a_glob_and_paths() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub enum Kind { Cpu, Gpu(u8) }\nuse Kind::*;\n\
         fn f(k: Kind) -> bool { let _ = Gpu(1); matches!(k, Cpu) || k == Kind::Cpu }\n",
    )]);
    c.resolves_to("src/lib.rs", "= $Gpu(1)", "src/lib.rs", "Cpu, $Gpu(u8)");
    // The prefix of a glob is a reference too.
    c.resolves_to("src/lib.rs", "use $Kind::*", "src/lib.rs", "enum $Kind");
    c.resolves_to("src/lib.rs", "Kind::$Cpu }", "src/lib.rs", "{ $Cpu,");
}

#[test]
fn variants_through_self_and_their_fields() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub enum Op { Load { slot: u8 }, Nop }
         impl Op {
    fn nop() -> Self { Self::Nop }
    fn slot(&self) -> u8 { match self { Self::Load { slot } => *slot, _ => 0 } }
    fn load() -> Self { Op::Load { slot: 1 } }
}
",
    )]);
    c.resolves_to("src/lib.rs", "{ Self::$Nop }", "src/lib.rs", ", $Nop }");
    c.resolves_to(
        "src/lib.rs",
        "Self::$Load { slot }",
        "src/lib.rs",
        "{ $Load {",
    );
    c.resolves_to(
        "src/lib.rs",
        "Self::Load { $slot }",
        "src/lib.rs",
        "{ $slot: u8 }",
    );
    c.resolves_to(
        "src/lib.rs",
        "Op::Load { $slot: 1",
        "src/lib.rs",
        "{ $slot: u8 }",
    );
}

#[test]
fn a_macro_called_where_items_stand_leaves_names_unresolved() {
    let c = Case::one(&[(
        "src/lib.rs",
        "mod a { crate::imports!(); fn f() { helper(); } }
mod b { fn f() { helper(); } }
",
    )]);
    assert_eq!(
        c.target("src/lib.rs", "mod a { crate::imports!(); fn f() { $helper"),
        Resolved::Unresolved(Why::MacroItems)
    );
    assert_eq!(
        c.target("src/lib.rs", "mod b { fn f() { $helper"),
        Resolved::Unresolved(Why::NotFound)
    );
}

#[test]
fn a_path_attribute_and_mod_rs_find_their_files() {
    let c = Case::one(&[
        (
            "src/lib.rs",
            "#[path = \"platform/linux_impl.rs\"]\nmod linux;\nmod nested;\nfn f() { linux::open(); nested::deeper::g(); }\n",
        ),
        ("src/platform/linux_impl.rs", "pub fn open() {}\n"),
        ("src/nested/mod.rs", "pub mod deeper;\n"),
        ("src/nested/deeper.rs", "pub fn g() {}\n"),
    ]);
    c.resolves_to(
        "src/lib.rs",
        "linux::$open",
        "src/platform/linux_impl.rs",
        "fn $open",
    );
    c.resolves_to("src/lib.rs", "deeper::$g", "src/nested/deeper.rs", "fn $g");
}

#[test]
fn cfg_gated_modules_are_both_read_and_their_cfgs_recorded() {
    let c = Case::one(&[
        (
            "src/lib.rs",
            "#[cfg(feature = \"cuda\")]\nmod cuda;\n#[cfg(not(feature = \"cuda\"))]\n#[path = \"cpu.rs\"]\nmod cpu;\nfn f() { cuda::init(); cpu::init(); }\n",
        ),
        ("src/cuda.rs", "pub fn init() {}\n"),
        ("src/cpu.rs", "pub fn init() {}\n"),
    ]);
    c.resolves_to("src/lib.rs", "cuda::$init", "src/cuda.rs", "fn $init");
    c.resolves_to("src/lib.rs", "cpu::$init", "src/cpu.rs", "fn $init");
    let cfgs: Vec<usize> = (c.model.def_map.modules.iter())
        .filter(|m| m.parent.is_some())
        .map(|m| m.cfgs.len())
        .collect();
    assert_eq!(cfgs, [1, 1]);
}

#[test]
fn macro_rules_textual_scope_macro_use_and_export() {
    let c = Case::one(&[
        (
            "src/lib.rs",
            "fn early() { later!(); }\nmacro_rules! later { () => {} }\nfn late() { later!(); }\n\
             #[macro_use]\nmod macros;\nfn after() { from_mod!(); crate::exported!(); }\n",
        ),
        (
            "src/macros.rs",
            "macro_rules! from_mod { () => {} }\n#[macro_export]\nmacro_rules! exported { () => {} }\n",
        ),
    ]);
    assert_eq!(
        c.target("src/lib.rs", "fn early() { $later"),
        Resolved::Unresolved(Why::MacroNotFound)
    );
    c.resolves_to(
        "src/lib.rs",
        "fn late() { $later",
        "src/lib.rs",
        "macro_rules! $later",
    );
    c.resolves_to(
        "src/lib.rs",
        "{ $from_mod!",
        "src/macros.rs",
        "macro_rules! $from_mod",
    );
    c.resolves_to(
        "src/lib.rs",
        "crate::$exported",
        "src/macros.rs",
        "macro_rules! $exported",
    );
    assert_eq!(
        c.reference("src/lib.rs", "{ $from_mod!").kind,
        RefKind::Macro
    );
}

#[test]
fn two_crates_of_the_workspace_by_their_dependency_names() {
    let core = krate(
        "rt_core",
        &[(
            "core/src/lib.rs",
            "pub mod backend { pub trait Backend { fn name(&self) -> &str; } pub fn register() {} }\n",
        )],
        &[],
    );
    let cuda = krate(
        "rt_cuda",
        &[(
            "cuda/src/lib.rs",
            "use rt_core::backend::Backend;\npub struct Cuda;\n\
             impl Backend for Cuda { fn name(&self) -> &str { \"cuda\" } }\n\
             pub fn init() { rt_core::backend::register(); ::rt_core::backend::register(); Cuda.name(); }\n",
        )],
        &[("rt_core", 0)],
    );
    let c = Case::new(vec![core, cuda]);
    let register = "pub fn $register";
    c.resolves_to(
        "cuda/src/lib.rs",
        "{ rt_core::backend::$register",
        "core/src/lib.rs",
        register,
    );
    c.resolves_to(
        "cuda/src/lib.rs",
        "::rt_core::backend::$register",
        "core/src/lib.rs",
        register,
    );
    c.resolves_to(
        "cuda/src/lib.rs",
        "backend::$Backend;",
        "core/src/lib.rs",
        "trait $Backend",
    );
    c.resolves_to(
        "cuda/src/lib.rs",
        "Cuda.$name()",
        "cuda/src/lib.rs",
        "fn $name(&self) -> &str {",
    );
}

#[test]
fn methods_through_declared_types_and_chains() {
    let c = Case::one(&[(
        "src/lib.rs",
        "use std::sync::Arc;\n\
         pub struct Device;\nimpl Device { pub fn kind_str(&self) -> &str { \"x\" } }\n\
         pub struct Client { device: Arc<Device>, backup: Option<Box<Device>> }\n\
         impl Client {\n    pub fn new() -> Self { todo!() }\n    pub fn device(&self) -> &Device { &self.device }\n\
             pub fn try_device(&self) -> Result<Device, ()> { Err(()) }\n\
             fn a(&self) { self.device().kind_str(); }\n\
             fn b(&self) { self.device.kind_str(); }\n\
             fn c(&self) -> Result<(), ()> { self.try_device()?.kind_str(); Ok(()) }\n\
             fn d(&self) { let d: &Device = self.device(); d.kind_str(); }\n\
             fn e(&self) { Client::new().device().kind_str(); }\n\
             fn f(&self) { let c = Client { device: todo!(), backup: None }; c.b(); }\n\
             fn g(&self) { if let Some(b) = &self.backup { b.kind_str(); } }\n\
             fn h(&self) { Self::new().a(); }\n}\n",
    )]);
    let kind = "pub fn $kind_str";
    for at in [
        "fn a(&self) { self.device().$kind_str",
        "fn b(&self) { self.device.$kind_str",
        "?.$kind_str",
        "d.$kind_str",
        "Client::new().device().$kind_str",
        "b.$kind_str",
    ] {
        c.resolves_to("src/lib.rs", at, "src/lib.rs", kind);
        assert_eq!(c.reference("src/lib.rs", at).kind, RefKind::MethodCall);
    }
    c.resolves_to("src/lib.rs", "c.$b()", "src/lib.rs", "fn $b(&self)");
    c.resolves_to(
        "src/lib.rs",
        "Self::new().$a()",
        "src/lib.rs",
        "fn $a(&self)",
    );
    c.resolves_to(
        "src/lib.rs",
        "self.$device.kind_str",
        "src/lib.rs",
        "{ $device: Arc",
    );
    assert_eq!(
        c.reference("src/lib.rs", "self.$device.kind_str").kind,
        RefKind::Field
    );
    c.resolves_to(
        "src/lib.rs",
        "Client { $device: todo",
        "src/lib.rs",
        "{ $device: Arc",
    );
}

#[test]
fn inherent_methods_come_before_trait_methods() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub trait Named { fn name(&self) -> String; fn label(&self) -> String { self.name() } }\n\
         pub struct A;\nimpl A { pub fn name(&self) -> String { String::new() } }\n\
         impl Named for A { fn name(&self) -> String { String::new() } }\n\
         fn f(a: A) { a.name(); a.label(); }\n",
    )]);
    c.resolves_to(
        "src/lib.rs",
        "a.$name()",
        "src/lib.rs",
        "impl A { pub fn $name",
    );
    // Not defined by the impl: the trait's default method.
    c.resolves_to("src/lib.rs", "a.$label()", "src/lib.rs", "fn $label");
}

#[test]
fn a_generic_receiver_resolves_to_every_impl_of_its_trait() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub trait Runtime { fn launch(&self); }\n\
         pub struct Cuda;\npub struct Wgpu;\n\
         impl Runtime for Cuda { fn launch(&self) {} }\n\
         impl Runtime for Wgpu { fn launch(&self) {} }\n\
         fn run<R: Runtime>(r: &R) { r.launch(); }\n\
         fn run_where<R>(r: R) where R: Runtime { R::launch(&r); }\n\
         fn run_impl(r: impl Runtime) { r.launch(); }\n\
         fn run_dyn(r: &dyn Runtime) { r.launch(); }\n",
    )]);
    let text = c.text("src/lib.rs");
    let every = Resolved::Item(vec![
        c.def("src/lib.rs", "{ fn $launch(&self); }"),
        c.def("src/lib.rs", "for Cuda { fn $launch"),
        c.def("src/lib.rs", "for Wgpu { fn $launch"),
    ]);
    let calls: Vec<&Reference> = (c.refs.iter())
        .filter(|r| &text[r.range.clone()] == "launch" && r.kind != RefKind::Type)
        .filter(|r| matches!(r.kind, RefKind::MethodCall | RefKind::Call))
        .collect();
    assert_eq!(calls.len(), 4);
    for r in calls {
        assert_eq!(r.target, every, "at {:?}", r.range);
    }
}

#[test]
fn what_is_not_known_is_unresolved_not_guessed() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub struct S;\nimpl S { pub fn known(&self) {} }\n\
         fn f(x: S, y: Undeclared) { let z = make(); z.known(); y.known(); x.other(); nowhere::g(); }\n",
    )]);
    assert_eq!(
        c.target("src/lib.rs", "z.$known"),
        Resolved::Unresolved(Why::UnknownReceiver)
    );
    assert_eq!(
        c.target("src/lib.rs", "y.$known"),
        Resolved::Unresolved(Why::UnknownReceiver)
    );
    assert_eq!(
        c.target("src/lib.rs", "x.$other"),
        Resolved::Unresolved(Why::MethodNotFound)
    );
    assert_eq!(
        c.target("src/lib.rs", "nowhere::$g"),
        Resolved::Unresolved(Why::NotFound)
    );
    assert_eq!(
        c.target("src/lib.rs", "= $make()"),
        Resolved::Unresolved(Why::NotFound)
    );
}

#[test]
fn locals_shadow_items_and_std_is_external() {
    let c = Case::one(&[(
        "src/lib.rs",
        "const NAME: &str = \"cuda\";\nfn helper() {}\nfn f(list: Vec<String>) -> Option<usize> {\n\
         let a = NAME; let b = helper; let helper = 1; let c = helper; let list2 = list.clone();\n\
         let closure = |list: u8| list; let v: Vec<u8> = Vec::new(); Some(v.len())\n}\n",
    )]);
    c.resolves_to("src/lib.rs", "let a = $NAME", "src/lib.rs", "const $NAME");
    c.resolves_to("src/lib.rs", "let b = $helper", "src/lib.rs", "fn $helper");
    assert_eq!(c.target("src/lib.rs", "let c = $helper"), Resolved::Local);
    assert_eq!(c.target("src/lib.rs", "| $list;"), Resolved::Local);
    assert_eq!(c.target("src/lib.rs", "= Vec::$new"), Resolved::External);
    assert_eq!(c.target("src/lib.rs", "$Some(v.len"), Resolved::External);
    assert_eq!(c.target("src/lib.rs", "list.$clone()"), Resolved::External);
}

#[test]
fn associated_items_through_impls_and_qualified_paths() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub trait Make { fn make() -> Self; }\npub struct A;\n\
         impl A { pub const ID: &'static str = \"a\"; }\n\
         impl Make for A { fn make() -> Self { A } }\n\
         fn f() { let _ = A::ID; let _ = <A as Make>::make(); let _ = A::make(); }\n",
    )]);
    c.resolves_to("src/lib.rs", "A::$ID;", "src/lib.rs", "const $ID");
    let make = "for A { fn $make";
    c.resolves_to("src/lib.rs", "<A as Make>::$make", "src/lib.rs", make);
    c.resolves_to("src/lib.rs", "= A::$make()", "src/lib.rs", make);
}

#[test]
fn bad_input_gives_no_panic() {
    let c = Case::one(&[
        (
            "src/lib.rs",
            "mod broken;\nmod missing;\nfn f() { broken::g(); }\n",
        ),
        ("src/broken.rs", "fn g( {\n"),
    ]);
    assert!(c.model.files[1].tree.error.is_some());
    assert_eq!(
        c.target("src/lib.rs", "broken::$g"),
        Resolved::Unresolved(Why::NotFound)
    );
}

/// This repository's own source: built without a panic, and a known call
/// resolves to its definition in another floor.
#[test]
fn this_repository_resolves_a_known_call() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let model = backend_lint::run::model::load(&root).expect("the model of this repository");
    let refs = model.references();
    let file = root.join("src/run/read.rs");
    let text = std::fs::read_to_string(&file).unwrap();
    let at = text.find("parse::parse_file_with(").unwrap() + "parse::".len();
    let r = refs
        .iter()
        .find(|r| r.file == file && r.range.start == at)
        .expect("the call is a reference");
    let def_file = root.join("src/syntax/parse.rs");
    let def_text = std::fs::read_to_string(&def_file).unwrap();
    let def = def_text.find("pub fn parse_file_with").unwrap() + "pub fn ".len();
    assert_eq!(
        r.target,
        Resolved::Item(vec![ItemLoc {
            file: def_file,
            name: def..def + "parse_file_with".len(),
        }])
    );
    // Most calls of the crate resolve to something.
    let calls: Vec<&Reference> = (refs.iter())
        .filter(|r| matches!(r.kind, RefKind::Call | RefKind::MethodCall))
        .collect();
    let known = calls
        .iter()
        .filter(|r| !matches!(r.target, Resolved::Unresolved(_)))
        .count();
    assert!(
        known * 2 > calls.len(),
        "{known} of {} calls resolved",
        calls.len()
    );
}

#[test]
fn the_query_api_answers_paths_items_and_methods() {
    let c = Case::one(&[
        (
            "src/lib.rs",
            "pub mod ops;\npub trait Runtime { fn launch(&self); }\npub struct Cuda;\n\
             impl Runtime for Cuda { fn launch(&self) {} }\n\
             impl Cuda { pub fn new(n: usize, label: &str) -> Self { Cuda } }\n\
             fn user<R: Runtime>(r: R) { /*here*/ }\n",
        ),
        (
            "src/ops/mod.rs",
            "pub mod gather { pub fn register(registry: &mut Vec<String>) {} }\n",
        ),
    ]);
    let lib = std::path::Path::new("src/lib.rs");
    let here = c.at("src/lib.rs", "$/*here*/");
    let register = c.def("src/ops/mod.rs", "fn $register");
    assert_eq!(
        c.model
            .resolve_path(lib, here, "crate::ops::gather::register"),
        Resolved::Item(vec![register.clone()])
    );
    assert_eq!(
        c.model.resolve_path(lib, here, "ops::missing"),
        Resolved::Unresolved(Why::NotFound)
    );
    let info = c.model.item_info(&register).unwrap();
    assert_eq!(info.path, "crate::ops::gather::register");
    assert_eq!(info.params, [(Some("registry".into()), "&mut Vec".into())]);
    let new = c.model.item_info(&c.def("src/lib.rs", "fn $new")).unwrap();
    assert_eq!(new.path, "crate::Cuda::new");
    assert_eq!(new.impl_self.as_deref(), Some("Cuda"));
    assert_eq!(new.ret.as_deref(), Some("Self"));
    let every = Resolved::Item(vec![
        c.def("src/lib.rs", "{ fn $launch(&self); }"),
        c.def("src/lib.rs", "for Cuda { fn $launch"),
    ]);
    assert_eq!(c.model.method_targets(lib, here, "&R", "launch"), every);
    assert_eq!(
        c.model
            .method_targets(lib, here, "std::sync::Arc<Cuda>", "launch"),
        Resolved::Item(vec![c.def("src/lib.rs", "for Cuda { fn $launch")])
    );
    assert_eq!(c.model.resolve_path(lib, here, "R::launch"), every);
}

#[test]
fn deref_block_macros_and_traits_on_std_types() {
    let c = Case::one(&[(
        "src/lib.rs",
        "use std::ops::Deref;\npub struct Tensor;\nimpl Tensor { pub fn shape(&self) {} }\n\
         pub struct Var(Tensor);\nimpl Deref for Var { type Target = Tensor; fn deref(&self) -> &Tensor { &self.0 } }\n\
         pub trait DType: Copy + num::Zero { fn size(xs: &[Self]) -> usize; }\n\
         impl DType for f32 { fn size(xs: &[Self]) -> usize { 4 } }\n\
         fn f<D: DType>(v: Var, d: D) {\n    v.shape();\n    macro_rules! local { () => {} }\n    local!();\n    D::zero();\n}\n",
    )]);
    c.resolves_to("src/lib.rs", "v.$shape()", "src/lib.rs", "pub fn $shape");
    c.resolves_to(
        "src/lib.rs",
        "    $local!();",
        "src/lib.rs",
        "macro_rules! $local",
    );
    assert_eq!(
        c.target("src/lib.rs", "&[$Self]) -> usize { 4"),
        Resolved::External
    );
    // A method of an outside supertrait.
    assert_eq!(c.target("src/lib.rs", "D::$zero"), Resolved::External);
}

/// A dependency inherited from `[workspace.dependencies]` under another
/// name than its package's is a crate of the inputs.
#[test]
fn the_loader_maps_workspace_dependencies_to_their_packages() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |path: &str, text: &str| {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"core\", \"cuda\"]\nresolver = \"2\"\n\
         [workspace.dependencies]\nrt = { path = \"core\", package = \"rt-core\" }\n",
    );
    write(
        "core/Cargo.toml",
        "[package]\nname = \"rt-core\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write("core/src/lib.rs", "pub fn register() {}\n");
    write(
        "cuda/Cargo.toml",
        "[package]\nname = \"rt-cuda\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\
         [dependencies]\nrt = { workspace = true }\n",
    );
    write("cuda/src/lib.rs", "pub fn init() { rt::register(); }\n");
    let model = backend_lint::run::model::load(root).expect("the model of the workspace");
    let refs = model.references();
    let call = refs
        .iter()
        .find(|r| r.file.ends_with("cuda/src/lib.rs") && r.kind == RefKind::Call)
        .expect("the call");
    let Resolved::Item(locs) = &call.target else {
        panic!("{:?}", call.target);
    };
    assert!(locs[0].file.ends_with("core/src/lib.rs"), "{locs:?}");
}

#[test]
fn associated_types_answer_the_trait_declaration_too() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub trait Module { type Output; fn run(&self) -> Self::Output; }\n\
         pub struct M;\nimpl Module for M { type Output = u8; fn run(&self) -> Self::Output { 0 } }\n\
         impl Module for f32 { type Output = u16; fn run(&self) -> Self::Output { 1 } }\n",
    )]);
    let decl = c.def("src/lib.rs", "{ type $Output;");
    assert_eq!(
        c.target("src/lib.rs", "-> Self::$Output { 0 } }\nimpl"),
        Resolved::Item(vec![
            decl.clone(),
            c.def("src/lib.rs", "for M { type $Output")
        ])
    );
    assert_eq!(
        c.target("src/lib.rs", "-> Self::$Output { 1 }"),
        Resolved::Item(vec![decl, c.def("src/lib.rs", "for f32 { type $Output")])
    );
}

/// A ring of globs longer than the import loop's bound of rounds: a
/// change is handed on along the ring within a round.
#[test]
fn a_long_glob_ring_settles() {
    let n = 200;
    let mut text = String::new();
    for i in 0..n {
        let next = (i + 1) % n;
        text.push_str(&format!(
            "pub mod m{i} {{ pub use super::m{next}::*; pub fn f{i}() {{}} }}\n"
        ));
    }
    text.push_str("fn call() { m1::f0(); }\n");
    let c = Case::one(&[("src/lib.rs", &text)]);
    c.resolves_to("src/lib.rs", "m1::$f0()", "src/lib.rs", "pub fn $f0()");
    assert!(
        c.model.def_map.rounds < 5,
        "{} rounds",
        c.model.def_map.rounds
    );
}

#[test]
fn a_generic_type_alias_passes_its_arguments_on() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub struct Error;\npub type Result<T> = std::result::Result<T, Error>;\n\
         pub struct Tensor;\nimpl Tensor {\n    pub fn rand() -> Result<Tensor> { todo!() }\n    pub fn reshape(&self) {}\n}\n\
         fn f() -> Result<()> { Tensor::rand()?.reshape(); Ok(()) }\n",
    )]);
    c.resolves_to(
        "src/lib.rs",
        "?.$reshape()",
        "src/lib.rs",
        "pub fn $reshape",
    );
}

#[test]
fn a_closure_given_to_an_adaptor_gets_the_element_type() {
    let c = Case::one(&[(
        "src/lib.rs",
        "pub struct Device;\nimpl Device { pub fn name(&self) -> u8 { 0 } }\n\
         fn f(list: Vec<Device>, one: Option<Device>) {\n    list.iter().map(|d| d.name());\n    one.map(|o| o.name());\n    let _ = |x| x.name();\n}\n",
    )]);
    c.resolves_to("src/lib.rs", "d.$name()", "src/lib.rs", "pub fn $name");
    c.resolves_to("src/lib.rs", "o.$name()", "src/lib.rs", "pub fn $name");
    assert_eq!(
        c.target("src/lib.rs", "x.$name()"),
        Resolved::Unresolved(Why::UnknownReceiver)
    );
}

/// Indexing a collection of the inputs gives its `impl Index`'s `Output`,
/// with the collection's type arguments in place of the impl's parameters
/// (`self.devices[id].name()` on a `Slab<DeviceId, Device>`); two impls
/// that disagree give nothing.
#[test]
fn indexing_a_collection_of_the_inputs_gives_its_index_output() {
    let text = "use std::ops::Index;\n\
         pub struct DeviceId(u32);\n\
         pub struct Device;\n\
         impl Device { pub fn name(&self) -> &'static str { \"dummy\" } }\n\
         pub struct Slab<Id, T> { values: Vec<T>, ids: Vec<Id> }\n\
         impl<Id, T> Index<Id> for Slab<Id, T> {\n    type Output = T;\n    fn index(&self, _id: Id) -> &T { &self.values[0] }\n}\n\
         pub struct Named;\n\
         impl Named { pub fn name(&self) -> &'static str { \"named\" } }\n\
         pub struct Table;\n\
         impl Index<usize> for Table {\n    type Output = Named;\n    fn index(&self, _i: usize) -> &Named { &Named }\n}\n\
         pub struct Runtime { devices: Slab<DeviceId, Device>, table: Table }\n\
         impl Runtime {\n\
             fn a(&self, id: DeviceId) -> bool { self.devices[id].name() == \"x\" }\n\
             fn b(&self) -> bool { self.table[0].name() == \"x\" }\n}\n";
    let c = Case::one(&[("src/lib.rs", text)]);
    c.resolves_to(
        "src/lib.rs",
        "self.devices[id].$name()",
        "src/lib.rs",
        "impl Device { pub fn $name",
    );
    c.resolves_to(
        "src/lib.rs",
        "self.table[0].$name()",
        "src/lib.rs",
        "impl Named { pub fn $name",
    );
}

/// What `to_string()` and `format!("{}", x)` write is the `fmt` of the
/// receiver's `impl Display` (not its `Debug`), through method results,
/// fields, `Arc` and `matches!`; a string passes its value on (std's), and a
/// type whose `Display` the model does not see is not guessed.
#[test]
fn to_string_and_format_reach_the_receivers_display() {
    let text = "use std::fmt;\nuse std::sync::Arc;\n\
         pub enum Kind { Cpu }\n\
         impl fmt::Debug for Kind { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(\"Cpu\") } }\n\
         impl fmt::Display for Kind { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(\"cpu\") } }\n\
         #[derive(Debug)] pub struct Plain;\n\
         pub struct Dev { shared: Arc<Kind>, name: String }\n\
         impl Dev {\n    pub fn kind(&self) -> Kind { Kind::Cpu }\n\
             fn a(&self) -> bool { self.kind().to_string() == \"x\" }\n\
             fn b(&self) -> bool { format!(\"{}\", self.kind()) == \"x\" }\n\
             fn c(&self) -> bool { self.shared.to_string() == \"x\" }\n\
             fn d(&self) -> bool { matches!(self.kind().to_string().as_str(), \"x\") }\n\
             fn e(&self) -> bool { self.name.to_string() == \"x\" }\n\
             fn g(&self, p: Plain) -> bool { p.to_string() == \"x\" }\n}\n";
    let c = Case::one(&[("src/lib.rs", text)]);
    let crates = c.crates.clone();
    let lazy = backend_lint::semantic::Lazy::new(move || Some(Model::build(crates.clone())));
    let display = |pattern: &str, name: &str| {
        let start = c.at("src/lib.rs", pattern);
        let path = std::path::Path::new("src/lib.rs");
        lazy.display_at(path, &(start..start + name.len()), name)
    };
    let fmt = Resolved::Item(vec![
        c.def("src/lib.rs", "impl fmt::Display for Kind { fn $fmt"),
    ]);
    for at in [
        "fn a(&self) -> bool { self.kind().$to_string",
        "fn c(&self) -> bool { self.shared.$to_string",
        "fn d(&self) -> bool { matches!(self.kind().$to_string",
    ] {
        assert_eq!(display(at, "to_string"), Some(fmt.clone()), "at `{at}`");
    }
    assert_eq!(display("$format!", "format"), Some(fmt));
    assert_eq!(
        display("self.name.$to_string", "to_string"),
        Some(Resolved::External)
    );
    assert_eq!(
        display("p.$to_string", "to_string"),
        Some(Resolved::Unresolved(Why::MethodNotFound))
    );
    // Not the name asked about there: nothing.
    assert_eq!(display("self.name.$to_string", "as_str"), None);
}

/// The language server's model after an edit that adds and removes items
/// (`Model::rebuilt`): the other files' item trees are the ones it had, and
/// every reference resolves as in a model built anew from the same texts.
#[test]
fn a_model_rebuilt_after_an_edit_resolves_as_one_built_anew() {
    use backend_lint::semantic::item_tree::ItemTree;
    let lib = |ops: &str| {
        krate(
            "core",
            &[
                ("core/lib.rs", "pub mod ops;\npub use ops::*;\n"),
                ("core/ops.rs", ops),
            ],
            &[],
        )
    };
    let app = krate(
        "app",
        &[
            (
                "app/main.rs",
                "use core::*;\nmod util;\nfn main() { gather(); added(); util::helper(); }\n",
            ),
            ("app/util.rs", "pub fn helper() { crate::gather(); }\n"),
        ],
        &[("core", 0)],
    );
    let before = "pub fn gather() {}\npub fn scatter() {}\n";
    let after = "pub fn added() {}\npub fn scatter() {}\nfn gather() {}\n";
    let old = Model::build(vec![lib(before), app.clone()]);
    let trees: Vec<(String, Arc<ItemTree>)> = (old.files.iter())
        .map(|f| (f.path.display().to_string(), f.tree.clone()))
        .collect();
    let text: Arc<str> = Arc::from(after);
    let changed = vec![(
        PathBuf::from("core/ops.rs"),
        text.clone(),
        Arc::new(ItemTree::parse(&text)),
    )];
    let rebuilt = old.rebuilt(changed);
    let fresh = Model::build(vec![lib(after), app]);
    let resolved = |m: &Model| {
        let mut refs: Vec<String> = (m.references().iter()).map(|r| format!("{r:?}")).collect();
        refs.sort();
        refs
    };
    assert_eq!(resolved(&rebuilt), resolved(&fresh));
    // `added`, new in the edit, resolves from the app through the globs.
    let main = "use core::*;\nmod util;\nfn main() { gather(); added(); util::helper(); }\n";
    let at = main.find("added").unwrap();
    let refs = rebuilt.references();
    let added = (refs.iter())
        .find(|r| r.file == std::path::Path::new("app/main.rs") && r.range.start == at)
        .expect("a reference at `added`");
    assert!(matches!(added.target, Resolved::Item(_)), "{added:?}");
    for f in &rebuilt.files {
        let path = f.path.display().to_string();
        let kept = trees
            .iter()
            .any(|(p, t)| *p == path && Arc::ptr_eq(t, &f.tree));
        assert_eq!(kept, path != "core/ops.rs", "{path}: its item tree kept");
    }
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// An item tree made from the text with function bodies blanked (what the model builds from: `prefilter::for_item_tree`) is the
/// tree of the whole text, on every file of this repository (its source,
/// the lints' fixtures, the consumer crates, the benches) that parses.
#[test]
fn an_item_tree_from_the_skimmed_text_is_the_tree_of_the_whole_text() {
    use backend_lint::semantic::item_tree::ItemTree;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "lints", "tests", "benches", "examples"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 300, "{} files", files.len());
    let (mut compared, mut skimmed) = (0, 0);
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let whole = ItemTree::parse(&text);
        if whole.error.is_some() {
            continue;
        }
        skimmed += usize::from(backend_lint::prefilter::for_item_tree(&text).is_some());
        let from_skim = ItemTree::parse_skimmed(&text, backend_lint::prefilter::for_item_tree);
        // (Its maps by offset are made from the items.)
        let tree = |t: &ItemTree| format!("{:?} {:?} {:?}", t.items, t.scopes, t.error);
        assert_eq!(tree(&whole), tree(&from_skim), "{}", path.display());
        compared += 1;
    }
    assert!(
        compared > 300 && skimmed > 200,
        "{compared} compared, {skimmed} skimmed"
    );
}
