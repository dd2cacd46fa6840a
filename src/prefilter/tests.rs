use super::*;
use crate::config::{Config, Overrides};

fn reason(text: &str) -> Option<Bail> {
    explain(text, &Vocabulary::default()).err()
}

fn read(text: &str) {
    assert_eq!(reason(text), None, "{text}");
}

fn parsed(text: &str, why: &str) {
    assert_eq!(reason(text), Some(why), "{text}");
}

const VOCAB: &str = "a vocabulary name in code";
const CANONICAL: &str = "a canonical platform literal, in any case, or a name made with one";

#[test]
fn the_vocabulary_in_code_needs_the_parse() {
    for text in [
        "fn f(r: &mut R) { r.register_backend(\"x\", 1); }",
        "fn f(r: &mut R) { r.register(CUDA); }",
        "fn f() { lower(&ctx, &[\"gpu\"]); }",
        "fn f() { ctx.lower_for(x); }",
        "fn f(d: &D) -> bool { d.platform() == \"gpu\" }",
        "fn f(d: &D) { let Device { platform_name, .. } = d; }",
        "fn f() { let x = canonicalize_platform(p); }",
        "fn f() { let c = Ctx { platforms: vec![] }; }",
        "fn f() { ctx.with_backend(b); }",
        "fn f() { get_backend(); }",
        "fn f() { register_lowering(p, r, \"cpu\"); }",
        // Conservative: a raw identifier is never a name the walker matches.
        "fn f() { r#register(x); }",
        // In a macro the walker may read as code.
        "fn f() { my_macro!(r.register(x)); }",
        // Calls however written: turbofish, a comment before the arguments,
        // a path, a field or pattern field, a blank Rust reads as one.
        "fn f() { r.register::<T>(x); }",
        "fn f() { r.register /* key */ (x); }",
        "fn f() { let p = platform::<T>(); }",
        "fn f() { let p = dev::platform(); }",
        "fn f(d: D) { let p = d.platform; }",
        "fn f() { let Device { platform, .. } = d; }",
        "fn f() { r.register\u{0c}(x); }",
        // A declaring word on another line, or in a comment before it.
        "fn f() { let p = d.x(/* fn */ platform); }",
        "fn f() { let p = g(x, // as\n platform); }",
        // A pattern's field, in braces however deep in parentheses.
        "fn f() { g(|Device { platform: p }| p); }",
        "fn f() { if matches!(d, Device { platform: \"gpu\", .. }) {} }",
        // Next to identifiers outside ASCII.
        "fn f() { é.register(x); }",
        "fn f() { ẕ0::register(x); }",
        "fn f(größe: u8) { r.register(größe); }",
    ] {
        parsed(text, VOCAB);
        assert!(!quiet(text, &Vocabulary::default()), "quiet: {text}");
    }
}

#[test]
fn a_parameter_named_as_a_source_starts_no_fact() {
    // Right inside parentheses, also in a macro's arguments (windows-sys's
    // `link!`). The text check, which sees no brackets, stays stricter.
    for text in [
        "fn f(codepage: i32, platform: Platform) {}",
        "link!(\"icuuc.dll\" \"C\" fn open(codepage : i32, platform : P) -> *mut C);",
        "fn f() { v.iter().map(|platform: &str| 1); }",
    ] {
        read(text);
        assert!(!quiet(text, &Vocabulary::default()), "quiet: {text}");
    }
}

#[test]
fn a_name_outside_ascii_is_read_whole() {
    // proc-macro2 reads `lowerð` and `ẕregister`: neither is a name of
    // the vocabulary, as `lower` is not one in `lowers`.
    read("fn f() { r.lowerð(x); }");
    read("fn f() { ẕregister(x); }");
    read("fn f() { let ñ = größe::platformé; }");
    // What is no identifier is left to the parser.
    assert!(reason("fn f() { a → b }").is_some());
    assert!(reason("fn f() { 1é }").is_some());
}

#[test]
fn declared_imported_or_a_path_the_name_starts_no_fact() {
    for text in [
        "struct S { register_op: u8, pub platform: String }",
        "use linux as platform;\nmod platform;\nfn f() { platform::compose_opcode(1); }",
        "fn f() { let platform = 1; let lower_size_bound = 2; }",
    ] {
        read(text);
        assert!(quiet(text, &Vocabulary::default()), "not quiet: {text}");
    }
}

/// What a registration's own body does with a second key (appends,
/// merges, replaces, rejects) decides its calls (issue 28): the file
/// defining one is parsed, that body kept.
#[test]
fn a_registration_s_definition_needs_its_body() {
    for text in [
        "fn register(&mut self) {}",
        "pub fn register_backend(&mut self, name: &str) { self.v.push(name) }",
    ] {
        parsed(text, VOCAB);
        assert!(!quiet(text, &Vocabulary::default()), "quiet: {text}");
    }
    let text = "fn f() { g(1) }\nfn register(&mut self, n: &str) { self.v.push(n) }\n";
    let kept = bodies::blanked(text, &Vocabulary::default(), &[]).expect("`f`'s body is blanked");
    assert!(kept.contains("self.v.push(n)"), "{kept}");
}

/// A macro's tokens are never blanked: a quoted `fn` whose body holds
/// `#(#attrs)*` does not parse as items, and blanked it would (a `struct`
/// beside it became a fact only the reduced file had: wstd-macro 0.6.6).
#[test]
fn bodies_inside_a_macro_s_tokens_stay() {
    let text = "fn outer(a: u8) -> u8 { a }\n\
                fn gen() -> T { quote! { struct S; impl G for S { fn handle() { #(#attrs)* run() } } } }\n\
                macro_rules! m { () => { fn made() { #x } } }\n";
    let kept =
        bodies::blanked(text, &Vocabulary::default(), &[]).expect("`outer`'s body is blanked");
    assert!(!kept.contains("{ a }"), "{kept}");
    assert!(kept.contains("#(#attrs)* run()"), "{kept}");
    assert!(kept.contains("fn made() { #x }"), "{kept}");
}

#[test]
fn a_file_lexes_only_if_it_tokenizes() {
    let vocab = Vocabulary::default();
    assert!(lexes(
        "fn f() { let s = \"a\\tb\"; g(r#\"x\"#, 'c', b'd', [1]); }"
    ));
    assert!(lexes(
        "fn f() { g(1e-5, 2.5E+10f64, 0x1e-5, c\"a\\x41\"); }"
    ));
    for text in [
        "fn f() { g(; }",
        "fn f() { g(]; }",
        "fn f() { let s = \"unterminated; }",
        "fn f() {} /* unterminated",
        "fn f() { let c = '\\q'; }",
        "fn f() {} }",
    ] {
        assert!(!lexes(text), "{text}");
        assert!(!lexes_quietly(text, &vocab), "{text}");
    }
    // Whatever the lexer accepts, proc-macro2 tokenizes.
    let odd = [
        // Signs that `from_str_radix` takes (the fuzz target found `\x+1`).
        "\"\\x+1\"",
        "b\"\\x+1\"",
        "'\\x+1'",
        "\"\\u{+41}\"",
        "'\\u{-1}'",
        "b\"\u{e9}\"",
        "b\"\\u{41}\"",
        "'\\u{D800}'",
        "'\\x80'",
        "b'\\x80'",
        "'ab'",
        "b'ab'",
        "c\"a\\0b\"",
        "\"\\\r\n\"",
        "'\\''",
        "b'\\''",
        "\"\\x7f\"",
        "\"\\x80\"",
        "r#\"a\"#",
        "br##\"a\"#\"##",
        "cr\"a\"",
        "'\\u{}'",
        "'\\u{110000}'",
        "1e10f32",
        "0b102",
        "1.e3",
        "'a",
        "'a'b",
        "r#fn",
        "r#_",
        "a\u{b}b",
        "x\u{a0}y",
        "\u{feff}f",
        "r#",
        "r# x",
        "br#x",
        "r##x",
        "1e-5",
        "'C#",
        "'r#a",
        "'1",
        "abc'",
        "2.5E+10f64",
        "0x1e-5",
        "1e-",
        "1e-x",
        "c\"\\x41\\u{e9}\"",
        "c\"\\x00\"",
        "c\"\\x80\\xFF\\u{1F980}\"",
        "c\"\\u{0}\"",
        "c\"\\u{D800}\"",
        "'r#mod",
        "'r#_a",
        "'r#_",
        "'r#self",
        "'r#a'",
        "'r#a#",
        "'r#a\"b\"",
        "'r#1",
        "'r#",
        // Outside ASCII: identifiers, and what only looks like one.
        "größe",
        "ẕ0",
        "_ẕ",
        "aé\u{301}",
        "\u{301}a",
        "1é",
        "0xé",
        "'aé",
        "'é",
        "r#é",
        "r#aé",
        "é\"a\"",
        "ér\"a\"",
        "ar\u{e9}\"a\"",
        "a\u{2192}b",
        "a\u{2028}b",
        "a\u{200e}b",
    ];
    for lit in odd {
        let text = format!("fn f() {{ g({lit}); }}");
        if lexes(&text) || lexes_quietly(&text, &vocab) {
            assert!(text.parse::<proc_macro2::TokenStream>().is_ok(), "{text}");
        }
    }
    // Read, not left to the parser: C strings with bytes above ASCII
    // (proc-macro2's and syn's tests), raw lifetimes (yoke-derive).
    for text in [
        "fn f() { g(c\"hello\\x80\\xF0\\u{1F980}\"); }",
        "struct S<'r#mod> { a: &'r#mod str, b: for<'r#_y> fn(&'r#_y ()) }",
        // Identifiers outside ASCII (zerocopy's tests: `enum ẕ0 {}`).
        "enum ẕ0 {} fn größe(straße: u8) -> u8 { straße }",
    ] {
        assert!(lexes(text), "{text}");
        assert!(lexes_quietly(text, &vocab), "{text}");
    }
    for text in [
        "fn f() { g(c\"\\x00\"); }",
        "fn f() { g(c\"\\u{0}\"); }",
        "struct S<'r#self>(&'r#self ());",
        "struct S<'r#crate>(u8);",
    ] {
        assert!(!lexes(text), "{text}");
    }
}

#[test]
fn the_text_check_is_conservative() {
    let vocab = Vocabulary::default();
    // Comments and strings are not told apart: the lexer decides.
    assert!(!quiet("// r.register(x)\nfn f() {}", &vocab));
    // Anything that could give a canonical literal, or a suppression comment.
    for text in [
        "fn f() { let p = \"cuda\"; }",
        "fn f() { let p = r#\"cpu\"#; }",
        "fn f() { let p = \"\\x63uda\"; }",
        "fn f() { let p = \"\\u{63}pu\"; }",
        "fn f() { let p = \"cu\\\n da\"; }",
        "fn f() { let p = concat!(\"cu\", \"da\"); }",
        "fn f() {} // backend-lint: allow(duplicate_registration)",
    ] {
        assert!(!quiet(text, &vocab), "quiet: {text}");
    }
    assert!(quiet(
        "fn f() { x.lower_bound(); let s = \"gpu\"; }",
        &vocab
    ));
}

#[test]
fn a_registration_or_lowering_call_without_arguments_does_not() {
    // No key to register, no platforms to lower for (crossbeam-epoch's
    // `collector.register()`, regex-syntax's `range.lower()`).
    read("fn f() { let h = collector.register(); let l = r.lower( ); lower(); }");
    read("fn f() { x.register_backend(); y.lower_to_hlo(\n); }");
    for text in [
        "fn f() { x.lower(a); }",
        "fn f() { r.register(KEY); }",
        // A comment may hide an argument: the parser decides.
        "fn f() { r.register(/* none */); }",
        "fn f() { r.register::<T>(); }",
    ] {
        parsed(text, VOCAB);
    }
    // A backend request without arguments reads a context's backend.
    parsed("fn f() { let b = ctx.get_backend(); }", VOCAB);
}

#[test]
fn the_vocabulary_elsewhere_does_not() {
    read("// r.register_backend(\"cuda\") and d.platform() in a comment\nfn f() {}");
    read("/* lower(&ctx, &[\"gpu\"]) /* nested */ platforms */ fn f() {}");
    read("/// Registers `platform` in docs.\nfn f() { let s = \"register platform lower\"; }");
    read("fn f() { let s = r#\"register(\"x\")\"#; let c = 'r'; }");
    // Names the walker never matches: excluded, or longer words.
    read("fn f() { r.registered_backends(); x.lower_bound(); s.to_lowercase_all(); }");
    read("fn f() { unregister(x); deregistered(); platformer(); lowering(); }");
    // Guards, unregistrations and run-once calls only qualify a registration.
    read("fn f() { m.contains_key(\"cuda_x\"); m.remove(\"k\"); c.get_or_init(|| 0); }");
}

/// A singleton's mechanism (issue 29) is parsed for: an exchange or a
/// `call_once` on a static, a static of a std once type.
#[test]
fn a_singleton_s_mechanism_needs_the_parse() {
    for text in [
        "fn f() { STATE.compare_exchange(0, 1, A, B).map_err(|_| E)?; }",
        "fn f() -> R { let mut r = Err(E); crate::ONCE\n    .call_once(|| r = Ok(())); r }",
        "fn f() { S2.compare_exchange_weak(0, 1, A, B).unwrap(); }",
    ] {
        parsed(text, "a singleton's mechanism on a static");
    }
    // On a field, a local or a parameter (most atomics): no singleton's.
    read("fn f(&self) { self.state.compare_exchange(0, 1, A, B).map_err(|_| E)?; }");
    read("fn f(once: &Once) { once.call_once(|| ()); head.compare_exchange(a, b, A, B); }");
    read("fn f() { X.compare_exchanged(0, 1); }");
    // A static once cell set in a body naming no vocabulary word.
    let once = "static HOOK: OnceLock<Hook> = OnceLock::new();\nfn f(h: Hook) {\n    HOOK\n        .set(h)\n        .unwrap();\n}";
    parsed(once, "a static once cell set");
    // One never set, or a local cell: nothing to read.
    read(
        "static HOOK: OnceLock<Hook> = OnceLock::new();\nfn f() -> &'static Hook { HOOK.get_or_init(Hook::new) }",
    );
    read("fn f(h: Hook) { let c = OnceCell::new(); c.set(h).unwrap(); }");
}

/// The survey finds a singleton's mechanism where code calls it (the
/// names the lexer saw called say where to look), not in a comment or a
/// string, which the walker never reads.
#[test]
fn the_survey_finds_a_singleton_s_mechanism_in_code_only() {
    let prepared = Prepared::new(&Vocabulary::default());
    let lexes = |text: &str| survey_with(text, &prepared).lexes;
    for text in [
        "fn f() { STATE.compare_exchange(0, 1, A, B).map_err(|_| E)?; }",
        "fn f() -> R { let mut r = Err(E); crate::ONCE\n    .call_once(|| r = Ok(())); r }",
        "fn f() { S2.compare_exchange_weak::<u8> (0, 1, A, B).unwrap(); }",
        "static HOOK: OnceLock<Hook> = OnceLock::new();\nfn f(h: Hook) {\n    HOOK\n        .set(h)\n        .unwrap();\n}",
    ] {
        assert!(!lexes(text), "{text}");
    }
    for text in [
        "// STATE.compare_exchange(0, 1, A, B)\nfn f() -> &'static str { \"INIT.call_once(f)\" }",
        "static HOOK: OnceLock<Hook> = OnceLock::new();\n/// HOOK.set(h)\nfn f() {}",
    ] {
        assert!(lexes(text), "{text}");
    }
}

#[test]
fn a_string_normalizer_needs_the_parse_where_it_may_be_compared_with_what_it_rules_out() {
    const COMPARED: &str = "a normalized string compared with what it may not be";
    // Compared with what the call rules out, in every form the walker reads.
    for text in [
        "fn f() { if s.to_lowercase() == \"Alpha\" {} }",
        "fn f() { let l = s.to_ascii_lowercase(); if \"BetaX\" != l {} }",
        "fn f() { match s.to_uppercase().as_str() { \"gamma\" => 1, _ => 2 }; }",
        "fn f() { match s.trim() { \"a\" | \" b\" => 1, _ => 2 }; }",
        "fn f() { s.to_lowercase().starts_with(\"NVIDIA\"); }",
        "fn f() { s\n    .trim /* c */ ().ends_with(\"x \"); }",
        "fn f() { let os = t.replace(\"darwin\", \"macos\"); os == \"darwin\"; }",
        "fn f() { let os = t.replace( ':', \"\"); os.contains(\"a:b\"); }",
        "fn f() { let os = t.replace(r#\"a\"#, \"b\"); os == String::from(\"ab\"); }",
        "fn f() { [\"true\", \"TRUE\"].contains(&s.to_lowercase().as_str()); }",
        "fn f() { assert_eq!(s.to_lowercase(), \"Alpha\"); }",
        "fn f() { matches!(s.to_lowercase().as_str(), \"a\" | \"B\"); }",
        "fn f() { assert_matches!(s.to_lowercase().as_str(), \"Alpha\"); }",
        "fn f() { if let Some(\"Alpha\") = s.map(|s| s.to_lowercase()).as_deref() {} }",
        "fn f() { \"Alpha\".to_string() == s.to_lowercase(); }",
        "fn f() { s.to_lowercase() == concat!(\"al\", \"pha\"); }",
        // A constant's value is the crate pass's to look up.
        "fn f() { s.to_lowercase() == consts::GAMMA; }",
        "const ALPHA: &str = \"Alpha\"; fn f() { s.to_lowercase().starts_with(ALPHA); }",
        "const AB: &str = consts::AB; fn f() { s.trim() != AB; }",
        "fn f() { match s.to_lowercase().as_str() { Self::NAME => 1, _ => 2 }; }",
    ] {
        parsed(text, COMPARED);
    }
    // Normalized, but nothing compared it may rule out: a message, a
    // call's argument, a value the arm gives, a possible literal.
    for text in [
        "fn f() { s.to_lowercase(); }",
        "fn f() { if s.to_lowercase() == \"gamma\" { panic!(\"Bad GAMMA\") } }",
        "fn f() { let k = s.to_lowercase(); m.get(\"Key\").expect(\"Missing KEY\"); }",
        "fn f() { match s.to_lowercase().as_str() { \"gamma\" => \"GAMMA\", _ => \"Other\" }; }",
        "fn f() { s.trim() == \"a b\"; t.replace(\"x\", \"y\") == \"y\"; }",
        "fn f() { s.to_uppercase() == \"GAMMA\" || LIMIT > 3; CONFIG.load(); }",
        "const AB: &str = \"alpha\"; static CD: Symbol = Symbol(\"B\"); fn f() { s.to_lowercase() == AB; s.to_lowercase() == CD; }",
        "fn f() { for l in DATA.lines() { l.trim(); } s.to_lowercase().map(|_| \"Other\"); }",
        "fn f() { assert_eq!(s.to_lowercase(), \"x\", \"Lowercased {s}\"); assert!(s.trim().len() > 1, \"Trimmed \"); }",
        "fn f() { matches!(T::OPTIONS.mode, Mode::A) && s.to_lowercase() == \"a\"; \"Alpha\".len() == s.to_lowercase().len(); }",
        // `mem::replace`, an `Option`'s `replace(v)`, a free `trim(x)`: no
        // string normalized by literals.
        "fn f() { std::mem::replace(&mut a, b); o.replace(v); trim(x); s.replace(FROM, \"b\"); a == \"X\"; }",
    ] {
        read(text);
    }
}

#[test]
fn canonical_platform_literals_need_the_parse() {
    // `let p = "cuda"; p == "gpu"` compares a canonical value with no vocabulary.
    parsed("fn f() { let p = \"cuda\"; }", CANONICAL);
    parsed("fn f() { let p = r#\"metal\"#; }", CANONICAL);
    parsed("fn f() { let p = \"\\x63uda\"; }", CANONICAL);
    parsed("fn f() { let p = \"\\u{63}pu\"; }", CANONICAL);
    parsed("fn f() { let p = \"cu\\\n        da\"; }", CANONICAL);
    parsed(
        "fn f() { let p = concat!(\"cu\", \"da\",); }",
        "a `concat!` of literals giving a canonical platform name",
    );
    // In another case: a value set of display names (`match self { .. =>
    // "CUDA" }`) is closed too.
    parsed("fn f() { let p = \"CUDA\"; }", CANONICAL);
    parsed("fn f() { let p = \"Metal\"; }", CANONICAL);
    // A name made with one: a closed set of `libtorch<cuda>`-like names.
    parsed("fn f() { let p = \"libtorch<cuda>\"; }", CANONICAL);
    parsed("fn f() { let p = \"cuda:0\"; }", CANONICAL);
    assert!(!quiet(
        "fn f() { let p = \"torch-metal\"; }",
        &Vocabulary::default()
    ));
    // A platform spelled as a variant (`Cpu`, `CUDA`): a derived `Debug`
    // writes its name.
    parsed("#[derive(Debug)] pub enum Kind { Cpu, Gpu }", VOCAB);
    parsed("fn f() -> K { K::Cuda }", VOCAB);
    read("fn f() -> K { K::CUDA }");
    read("fn f() { let cpu = 1; let cuda_ok = cpu; } // Cuda");
    read("fn f() { let x = Cuda::new(); }");
    assert!(!quiet(
        "#[derive(Debug)] pub enum Kind { Metal }",
        &Vocabulary::default()
    ));
    // Prose, and words of their own, are no such names.
    read("fn f() { let p = \"no CUDA device\"; let q = \"cpuid\"; }");
    // Not `Lit::Str`, not equal in any case, or not all literals.
    read("fn f() { let p = b\"cuda\"; let q = c\"cuda\"; let r = \"CUDA0\"; let s = \"gpu\"; }");
    read("fn f() { let p = concat!(\"cu\", X); let q = \"cuda_matmul\"; let c = 'c'; }");
    // However `concat!` is written.
    parsed(
        "fn f() { let p = concat /* c */ ! (\"cu\", \"da\"); }",
        "a `concat!` of literals giving a canonical platform name",
    );
    assert!(!lexes_quietly(
        "fn f() { let p = concat\n!(\"cu\", \"da\"); }",
        &Vocabulary::default()
    ));
    assert!(!lexes_quietly(
        "fn f() { let p = [a, b].concat(); let q = \"cuda\".len(); }",
        &Vocabulary::default()
    ));
    assert!(lexes_quietly(
        "fn f() { let p = [a, b].concat(); }",
        &Vocabulary::default()
    ));
}

/// The configuration of a `backend-lint.toml` holding `toml`.
fn configured(toml: &str) -> Config {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backend-lint.toml");
    std::fs::write(&file, toml).unwrap();
    Config::load(&file, &Overrides::default()).unwrap().unwrap()
}

#[test]
fn a_configured_vocabulary_is_the_one_looked_for() {
    let config = configured(
        "[platforms]\ncanonical = [\"vulkan\"]\n[registration]\nextend-functions = [{ name = \"add_kernel\", key = 1 }]\n",
    );
    let vocab = &config.vocab;
    assert!(explain("fn f() { k.add_kernel(1, \"x\"); }", vocab).is_err());
    assert!(explain("fn f() { let p = \"vulkan\"; }", vocab).is_err());
    assert!(explain("fn f() { let p = \"cuda\"; }", vocab).is_ok());
    // A pattern matching every name: every file is parsed.
    let config = configured("[lowering]\ncalls = [\"*\"]\n");
    assert!(explain("fn f() {}", &config.vocab).is_err());
}

#[test]
fn what_the_lexer_does_not_read_is_parsed() {
    for text in [
        "fn f() { let s = \"open; }",
        "fn f() { g(; }",
        "fn f() { g()) }",
        "fn f() { g(] }",
        "fn f() {} /* open",
        "fn f() { let s = r#\"open\"; }",
        "fn f() { let s = \"a\"suffix; }",
        "fn f() { let a→b = 1; }",
        "fn f() { let s = \"\\q\"; }",
        "fn f() { let s = \"\\x80\"; }",
        "fn f() { let s = \"a\rb\"; }",
        "fn f() { let c = 'ab'; }",
        "fn f() { ` }",
    ] {
        assert!(reason(text).is_some(), "{text}");
    }
    // Byte order mark and shebang are blanked as for the parse.
    read("\u{feff}#!/usr/bin/env run\nfn main() {}");
}

#[test]
fn suppression_comments_are_kept_without_the_parse() {
    let text = "// backend-lint: allow(duplicate_registration)\nfn f() {}\n";
    let facts = structure_only(0, text, &Vocabulary::default()).expect("no vocabulary");
    assert_eq!(facts.directives.directives.len(), 1);
}

#[test]
fn the_nesting_bound_is_never_below_what_lex_finds() {
    let texts = [
        "fn f() { if a {} else if b {} else if c {} else {} }",
        "fn f() { a = b = c = d; } type T = Option<Option<u8>>;",
        "fn f() -> fn() -> fn() -> u8 { let g = |x| |y| |z| x; ****y; a.b().c().d() }",
        "fn f() { let x = 1.0 + 2.5 + 3.25; let t = x.0.1; 0x1f.5; }",
        "fn f() { g(a.b, c.d, [e.f; 3], { h.i }) } // ((((",
        "type T = *const *const *mut u8; fn g(x: &&&u8) -> !{ !!!x }",
    ];
    let deep = format!("fn f() {{ {}1{} }}", "(".repeat(2500), ")".repeat(2500));
    let chain = format!("fn f() {{ x{}; }}", ".a()".repeat(2500));
    let mut lexed = lexer::Lexed::default();
    let none = |_: &str| None;
    let watch = lexer::Watch {
        candidates: &[],
        is_vocabulary: &none,
        platforms: &[],
        normalizers: None,
        calls: None,
    };
    for text in texts.iter().copied().chain([deep.as_str(), chain.as_str()]) {
        lexer::lex::<true>(text, &watch, &mut lexed).unwrap();
        let n = crate::syntax::lex::nesting(text);
        assert!(lexed.brackets_bound >= n.brackets, "{text}");
        assert!(lexed.chain_bound >= n.chain, "{text}");
        // Without tokens, the same bounds.
        let bounds = (lexed.brackets_bound, lexed.chain_bound);
        lexer::lex::<false>(text, &watch, &mut lexed).unwrap();
        assert_eq!((lexed.brackets_bound, lexed.chain_bound), bounds, "{text}");
    }
    assert!(!lexes(&deep));
    assert!(!lexes(&chain));
    assert_eq!(
        reason(&deep),
        Some("it may nest deeper than the parser accepts")
    );
    assert_eq!(
        reason(&chain),
        Some("it may nest deeper than the parser accepts")
    );
}

#[test]
fn what_the_fast_path_accepts_nests_within_its_bounds() {
    let none = |_: &str| None;
    let watch = lexer::Watch {
        candidates: &[],
        is_vocabulary: &none,
        platforms: &[],
        normalizers: None,
        calls: None,
    };
    let units = [
        "if a {} else ",
        "a = ",
        "|x| ",
        "*",
        "&",
        "!",
        "-",
        "x.f().",
        "fn() -> ",
        "*const ",
        "Option<",
        "(",
        "[",
        "{",
        "a(b).",
        "g(x; y).",
        "1e-5 - ",
        "x, ",
        "x; ",
        "'a' + \"=\" + ",
    ];
    let mut skimmed = 0;
    for unit in units {
        for reps in 1..=6 {
            for (before, after) in [("", ""), ("fn f() { ", " }"), ("g(1); h[2]; ", "")] {
                let text = format!("{before}{}x{after}", unit.repeat(reps));
                // Small bounds, so that each of skim's bounds is the one that decides.
                for max in [3, 4] {
                    if lexer::skim(&text, &watch, max, max) == Some(Ok(())) {
                        skimmed += 1;
                        let n = crate::syntax::lex::nesting(&text);
                        assert!(n.brackets <= max && n.chain <= max, "{text}: {n:?}");
                    }
                }
            }
        }
    }
    // Without AVX2 there is no fast path to test.
    if lexer::skim("", &watch, 1, 1).is_some() {
        assert!(skimmed > 50, "{skimmed}");
        // Many brackets, links or angles in all, yet shallow: accepted.
        let many = "fn f() { g(a); g(b); g(c); a = b; c = d; e.f; g.h; x < y; }";
        assert_eq!(lexer::skim(many, &watch, 3, 3), Some(Ok(())));
        let links = "fn f() { a.b; c.d = e; f.g(h.i, j.k); l.m; -1e-5 }";
        assert_eq!(lexer::skim(links, &watch, 9, 3), Some(Ok(())));
        let deep = "fn f() { x::<Vec<Vec<u8>>>() }";
        assert_eq!(lexer::skim(deep, &watch, 3, 3), Some(Err(lexer::DEEP)));
        let chain = "fn f() { a.b(c; d).e(f, g).h.i = j; }";
        assert_eq!(lexer::skim(chain, &watch, 9, 3), Some(Err(lexer::DEEP)));
    }
}

#[test]
fn every_short_text_the_lexer_accepts_tokenizes() {
    // Every text of up to three of these characters: what the lexer accepts,
    // proc-macro2 tokenizes (the fuzz target goes further).
    const CHARS: &[&str] = &[
        "'", "\"", "#", "r", "b", "c", "a", "1", "e", "-", "x", "\\", "/", "*", "(", ")", "_", "é",
        " ", "\n", "0", "\u{301}", "\u{2192}",
    ];
    let vocab = Vocabulary::default();
    let max: usize = std::env::var("LEX_EXHAUSTIVE_LEN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut texts = vec![String::new()];
    for _ in 0..max {
        texts = texts
            .iter()
            .flat_map(|t| CHARS.iter().map(move |c| format!("{t}{c}")))
            .collect();
        for text in &texts {
            assert!(skim_agrees(text, &vocab).is_ok(), "{text:?}");
            assert!(skim_comments_agree(text), "{text:?}");
            // The engine lexes a quiet text as any other.
            if quiet(text, &vocab) {
                assert_eq!(lexes(text), lexes_quietly(text, &vocab), "{text:?}");
            }
            if lexes(text) || lexes_quietly(text, &vocab) {
                assert!(
                    text.parse::<proc_macro2::TokenStream>().is_ok(),
                    "{text:?} lexes, but does not tokenize"
                );
            }
        }
    }
}

#[test]
fn the_skim_finds_the_comments_the_scan_finds() {
    let files = crate::model::repository_sources(&["src", "lints", "tests"]);
    for (path, text) in &files {
        assert!(skim_comments_agree(text), "{}", path.display());
    }
    let checked = files.len();
    assert!(checked > 100, "{checked}");
    let tricky =
        "// a\r\n/* b /* c */ d */ let s = \"// no\"; let r = r#\"/* no\"#; /// e\n'/' /**/ x";
    assert!(skim_comments_agree(tricky));
}

/// What [`without_quiet_bodies`] leaves of `text`, with `_` for each byte
/// blanked (so that the test reads what stays).
fn left(text: &str) -> Option<String> {
    let reduced = without_quiet_bodies(text, &Vocabulary::default())?;
    assert_eq!(reduced.len(), text.len(), "{text}");
    let marked: Vec<u8> = text
        .bytes()
        .zip(reduced.bytes())
        .map(|(a, b)| if a != b { b'_' } else { b })
        .collect();
    Some(String::from_utf8(marked).expect("ASCII"))
}

#[test]
fn bodies_with_nothing_to_record_are_left_out() {
    // A body naming nothing: blanked, its line breaks kept; one that calls
    // `register` stays whole.
    assert_eq!(
        left("fn a() {\n    let x = (1, \"é\");\n}\nfn b(r: &mut R) { r.register(\"cuda\"); }\n")
            .as_deref(),
        Some("fn a() {\n    ___ _ _ ___ ______\n}\nfn b(r: &mut R) { r.register(\"cuda\"); }\n")
    );
    // In an `impl`, a trait and a module, before an attribute, a macro
    // called where items stand, or the end.
    assert_eq!(
        left("impl S { fn a(&self) { x(); } #[test] fn b() { lower(y); } }").as_deref(),
        Some("impl S { fn a(&self) { ____ } #[test] fn b() { lower(y); } }")
    );
    assert_eq!(
        left("mod m { fn a() { x(); } m!{} fn b() { lower(y); } }").as_deref(),
        Some("mod m { fn a() { ____ } m!{} fn b() { lower(y); } }")
    );
    // A nested function of a body that stays may go.
    assert_eq!(
        left("fn a() { fn b() { x(); } fn c() { lower(y); } }").as_deref(),
        Some("fn a() { fn b() { ____ } fn c() { lower(y); } }")
    );
}

#[test]
fn bodies_that_may_record_something_stay() {
    for text in [
        // Every body names the vocabulary, or holds a canonical literal,
        // a `concat!` or an item the walker records.
        "fn a() { lower(y); }",
        "fn a() { lower(y); } fn b() { let p = \"cuda\"; }",
        "fn a() { lower(y); } fn b() { let p = concat!(\"cu\", \"da\"); }",
        "fn a() { lower(y); } fn b() { const N: &str = X; }",
        "fn a() { lower(y); } fn b() { use x::Y as Z; }",
        "fn a() { lower(y); } fn b() { struct S; }",
        // The first braces are a const argument of the return type, not the
        // body: no body is taken.
        "fn a() { lower(y); } fn b() -> Foo<{ N }> { x(); }",
        "fn a() { lower(y); } fn b() where T: Tr<{ 1 }> { x(); }",
        // A body followed by what no item begins with (a statement).
        "fn a() { fn b() { x(); } let y = lower(z); }",
        // A file the lexer does not read, or none with a function.
        "fn a() { x(); } fn b() { lower(y); } \"",
        "const A: u8 = 1;",
    ] {
        assert_eq!(left(text), None, "{text}");
    }
}

#[test]
fn nested_functions_are_lexed_again_within_a_bound() {
    // Each body stays (the innermost calls `register`), and each would be
    // lexed again: past twice the file, the rest are kept unread.
    let depth = 1_500;
    let mut text = String::new();
    for k in 0..depth {
        text.push_str(&format!("fn f{k}() {{ fn g{k}() {{ x(); }}\n"));
    }
    text.push_str("register(y);");
    text.push_str(&"}".repeat(depth));
    let left = left(&text).expect("some bodies blanked");
    // The first `g` bodies are blanked, the last ones are not reached.
    assert!(
        left.starts_with("fn f0() { fn g0() { ____ }"),
        "{}",
        &left[..60]
    );
    assert!(left.contains(&format!("fn g{}() {{ x(); }}", depth - 1)));
}

#[test]
fn the_fast_path_matches_brackets_as_the_lexer() {
    // Brackets are single stops of the fast path, read apart from the
    // other stops: balanced, crossed, unopened and unclosed ones; a
    // vocabulary name before a bad bracket, which the lexer meets first;
    // and the same in a file with so many brackets that angles count too.
    let vocab = Vocabulary::default();
    let many = "g(a[1], {b}); ".repeat(800);
    let mut texts = Vec::new();
    for body in [
        "g([1], {2}); h[(x)]",
        "g(1]",
        "g[1)",
        "{ (}",
        "register(x); )",
        "register(x); (",
        "x < y; ]",
    ] {
        texts.push(format!("fn f() {{ {body} }}"));
        texts.push(format!("fn f() {{ {many}{body} }}"));
    }
    texts.extend([")".to_string(), "(".to_string(), "fn f() {".to_string()]);
    let mut compared = 0;
    for text in &texts {
        match skim_agrees(text, &vocab) {
            Ok(Some(_)) => compared += 1,
            Ok(None) => {}
            Err(diff) => panic!("{text:.60}: {diff}"),
        }
        assert_eq!(
            reason(text) == Some("a vocabulary name in code"),
            text.contains("register"),
            "{text:.60}"
        );
    }
    if crate::syntax::simd::available() {
        assert_eq!(compared, texts.len());
    }
}

#[test]
fn a_survey_lexes_and_finds_suppression_comments_as_apart() {
    // `survey` looks for the stems, `concat` and the suppression comments'
    // prefix in one search: the same answer as `lexes_quietly`, and no
    // suppression comment missed, where `concat` or the prefix stand next
    // to stems, inside words, in comments and in a shebang line.
    // `xcon` can end inside `concat`, `back` starts where the prefix does.
    let config = configured(
        "[registration]\nextend-functions = [{ name = \"xcon*\", key = 1 }, { name = \"back*\", key = 1 }]\n",
    );
    let texts = [
        "fn f() { let p = concat!(\"cu\", \"da\"); }",
        "fn f() { let p = concat!(\"a\", \"b\"); }",
        "// concat!(\"cu\", \"da\")\nfn f() {}",
        "fn f() { xconcat!(\"cu\", \"da\"); }",
        "fn f() { s.concat(); register(x); }",
        "fn f() { a.concat(); }\n// backend-lint: allow(duplicate_registration)\n",
        "fn f() {} // backend-lint: nonsense\n",
        "fn f() { backend - lint: register(1) }",
        "// backend-lint:register(x)\nfn f() { register(x) }",
        "#!/usr/bin/env run // backend-lint: allow(x)\nfn f() {}",
        "fn f() { concatregister(x); }",
    ];
    for vocab in [&Vocabulary::default(), &config.vocab] {
        for text in texts {
            let survey = survey(text, vocab);
            assert_eq!(survey.lexes, lexes_quietly(text, vocab), "{text}");
            let found = crate::syntax::comments::scan(0, text);
            if !survey.directives {
                assert!(
                    found.directives.is_empty() && found.malformed.is_empty(),
                    "{text}"
                );
            }
        }
    }
    assert!(!survey(texts[0], &Vocabulary::default()).lexes);
    assert!(survey(texts[1], &Vocabulary::default()).lexes);
    assert!(survey(texts[5], &Vocabulary::default()).directives);
    assert!(!survey(texts[4], &Vocabulary::default()).directives);
    // With a stem that may hide `concat`, `concat!` is read from tokens.
    assert!(filter_for(&config.vocab).stems_hide_concat);
    assert!(!filter_for(&Vocabulary::default()).stems_hide_concat);
}

#[test]
fn a_concat_read_from_the_text_is_one_the_tokens_give() {
    // Where the lexer accepts the text, `check_concat_text` finds every
    // `concat!` of literals giving a canonical name that the tokens give,
    // however written; beyond that only those that comments, strings or a
    // raw identifier hold, which send the file to the full parse.
    let canonical = &Vocabulary::default().canonical;
    let by_tokens = |text: &str| {
        let mut lexed = lexer::Lexed::default();
        lexer::lex::<true>(text, &UNWATCHED, &mut lexed).expect(text);
        lexer::check_concat(text, &lexed.toks, canonical)
    };
    let both = [
        "fn f() { let p = concat!(\"cu\", \"da\"); }",
        "fn f() { let p = concat!(\"cu\", \"da\",); }",
        "fn f() { let p = concat![\"cu\", r#\"da\"#]; }",
        "fn f() { let p = concat!{r\"c\", \"\\x75\", \"da\"}; }",
        "fn f() { let p = concat /* a /* nested */ b */ ! // c\n (\"c\" /**/, \"pu\"); }",
        "fn f() { let p = concat\n!(\"cu\", \"da\"); }",
        "fn f() { let p = concat!(\"cpu\"); }",
        "fn f() { let p = concat!(\"cu\\\n   da\"); }",
        "fn f() { let p = concat!(\"\\u{63}pu\"); }",
    ];
    for text in both {
        assert!(by_tokens(text).is_err(), "{text}");
        assert_eq!(
            lexer::check_concat_text(text, canonical),
            by_tokens(text),
            "{text}"
        );
    }
    let neither = [
        "fn f() { let p = concat!(\"cu\", \"dax\"); }",
        "fn f() { let p = concat!(\"cu\" \"da\"); }",
        "fn f() { let p = concat!(\"cu\", X, \"da\"); }",
        "fn f() { let p = concat!(b\"cu\", \"da\"); }",
        "fn f() { let p = concat!(\"cu\", br\"da\"); }",
        "fn f() { let p = concat!(); let q = concat; let r = concat!(x); }",
        "fn f() { let p = [a, b].concat(); let q = xconcat!(\"cu\", \"da\"); }",
        "fn f() { let p = concat!(\"cu\", 'd', \"a\"); }",
        "fn f() { let p = concat!(\"cu\", \"da\"; }",
        "fn f() { let p = concat!(\"cu\", \"da\" x); }",
        "fn f() { let p = concat!(\"cu\"\n",
        "fn f() { let p = concat!(r#\"cu\"",
        "fn f() { let p = concat ! /* cu",
        "concat",
    ];
    for text in neither {
        assert_eq!(lexer::check_concat_text(text, canonical), Ok(()), "{text}");
    }
    let only_text = [
        "// concat!(\"cu\", \"da\")\nfn f() {}",
        "/* concat!(\"cu\", \"da\") */ fn f() {}",
        "fn f() { let s = \"concat!(r#cu, r#da)\"; let t = r#\"concat!(\"cu\", \"da\")\"#; }",
        "fn f() { let p = r#concat!(\"cu\", \"da\"); }",
    ];
    for text in only_text {
        assert_eq!(by_tokens(text), Ok(()), "{text}");
        assert!(lexer::check_concat_text(text, canonical).is_err(), "{text}");
    }
    // An attribute before an argument: syn still reads a literal
    // (`#[allow(x)] "cu"`), so neither check reads on.
    for text in [
        "fn f() { let p = concat!(#[allow(unused)] \"cu\", \"da\"); }",
        "fn f() { let p = concat!(\"cu\", #[cfg(all())] \"da\"); }",
    ] {
        assert_eq!(
            by_tokens(text),
            Err("an attribute in a `concat!`"),
            "{text}"
        );
        assert_eq!(lexer::check_concat_text(text, canonical), by_tokens(text));
        assert!(!lexes_quietly(text, &Vocabulary::default()), "{text}");
    }
    // `quote!`'s interpolations are no attributes (clap_derive, strum).
    let quoted = "fn f() { quote! { concat!(\"missing: \", #id, #(#docs),*) } }";
    assert_eq!(by_tokens(quoted), Ok(()));
    assert_eq!(lexer::check_concat_text(quoted, canonical), Ok(()));
    // Read forward from each `concat`, a `/*` in a line comment reads to
    // the end of the text: past about twice the text, the parser decides
    // (else such lines would cost the square of their number). Calls read
    // at once cost what they span.
    let comments = format!("{}fn f() {{}}\n", "// concat /*\n".repeat(1000));
    assert_eq!(
        lexer::check_concat_text(&comments, canonical),
        Err("too many `concat`s to read from the text")
    );
    let strings = format!("{}fn f() {{}}\n", "// concat!(r#\"\n".repeat(1000));
    assert!(lexer::check_concat_text(&strings, canonical).is_err());
    let calls = format!("fn f() {{ {} }}", "concat!(\"a\", \"b\"); ".repeat(5000));
    assert_eq!(lexer::check_concat_text(&calls, canonical), Ok(()));
    // An escape the prefilter does not read (which the lexer rejects) is
    // no answer.
    let unread = "fn f() { let p = concat!(\"\\q\", \"da\"); }";
    assert!(lexer::check_concat_text(unread, canonical).is_err());
}

#[test]
fn a_normalizer_counts_only_with_what_its_own_function_compares() {
    // The walker follows a normalized value through one function's locals
    // (closures included), never into another function.
    read(
        "fn a(s: &str) -> usize { s.to_lowercase().len() }\nfn b(x: &str) -> bool { x == \"Alpha\" }\n",
    );
    // A function giving a string whose case it folds may be a normalizer
    // of any name (`analysis::extract::normalizers`), whatever it compares.
    parsed(
        "fn a(s: &str) -> String { s.trim().to_lowercase() }",
        "a function giving a string whose case it folds",
    );
    parsed(
        "fn a(s: &str) -> Option<Cow<'_, str>> { Some(s.to_uppercase().into()) }",
        "a function giving a string whose case it folds",
    );
    read(
        "fn a(s: &str) -> bool { fn b(x: &str) -> bool { x == \"Alpha\" } s.to_lowercase() == \"a\" }",
    );
    parsed(
        "fn a(s: &str) -> bool { let l = s.to_lowercase(); fn b() {} v.iter().any(|x| l == \"Alpha\") }",
        "a normalized string compared with what it may not be",
    );
    // The standard library's constants have no value the crate pass knows;
    // a conversion or a method is the operand only where it is compared.
    read("fn a(s: &str) { if s.trim() == \"x\" && std::env::consts::OS == \"linux\" {} }");
    read(
        "fn a(s: &str) { let sep = \"\\n\".to_owned(); let t = s.trim(); let r = Ok(\"Error\".into()); }",
    );
    parsed(
        "fn a(s: &str) { s.trim() == String::from(\"x \"); }",
        "a normalized string compared with what it may not be",
    );
}

/// A thread keeps the prefilters of a few vocabularies: learning parses the
/// files of a dozen packages, each with its own, in turn on each thread
/// (one kept, each file of another package built its automatons again).
#[test]
fn a_thread_keeps_the_prefilters_of_a_few_vocabularies() {
    let base = Vocabulary::default();
    let vocabs: Vec<Vocabulary> = (0..4)
        .map(|i| base.with_singletons(&[format!("init_{i}")], &[]))
        .collect();
    let first: Vec<Arc<Filter>> = vocabs.iter().map(filter_for).collect();
    for (vocab, filter) in vocabs.iter().zip(&first) {
        assert!(Arc::ptr_eq(&filter_for(vocab), filter));
    }
}
