//! Hostile shapes: inputs a pull request can write to make a check slow or
//! huge (issue 17, section 5). Each shape is built in a temporary folder at
//! two or three sizes, so that how the cost grows shows, and checked by the
//! release binary in both modes and parsed by a bare `syn` parse
//! (`common::bare_parse`, the throughput bench's), each in a process of its
//! own: wall time and peak RSS of that process.
//!
//! `cargo bench --bench shapes [-- NAME..]` runs every shape, or those whose
//! name contains one of the NAMEs. `SHAPES_TIMEOUT` (seconds, default 60)
//! kills a run that takes longer. The `registry` shapes check the crates
//! cargo has unpacked in `~/.cargo/registry/src` with and without their
//! `Cargo.toml`s; they are skipped when there are none. The numbers in
//! docs/performance.md come from here.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;

/// A shape: its name, its sizes, and how to write it at one size in a folder.
struct Shape {
    name: &'static str,
    /// What a size counts.
    unit: &'static str,
    sizes: &'static [usize],
    make: fn(&Path, usize),
    /// The report's `--format`: `short` unless the shape is about another.
    format: &'static str,
    /// The files given by name (as pre-commit gives them), not the folder.
    by_name: bool,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "allow_file_lines",
        unit: "lines",
        sizes: &[1_000, 2_000, 10_000, 100_000],
        make: allow_file_lines,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "registrations_one_fn",
        unit: "calls",
        sizes: &[5_000, 10_000, 50_000],
        make: registrations_one_fn,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "inline_mods_registering",
        unit: "mods",
        sizes: &[1_000, 10_000],
        make: inline_mods_registering,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "inline_mods_quiet",
        unit: "mods",
        sizes: &[1_000, 10_000],
        make: inline_mods_quiet,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "big_file",
        unit: "MiB",
        sizes: &[8, 31],
        make: big_file,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "many_lines",
        unit: "lines",
        sizes: &[250_000, 1_000_000],
        make: many_lines,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "long_sum",
        unit: "terms",
        sizes: &[250_000, 1_000_000],
        make: long_sum,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "exclusive_cfgs",
        unit: "calls",
        sizes: &[1_000, 10_000],
        make: exclusive_cfgs,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "findings_one_line",
        unit: "calls",
        sizes: &[20_000, 80_000],
        make: findings_one_line,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "doc_lines_one_item",
        unit: "lines",
        sizes: &[10_000, 100_000],
        make: doc_lines_one_item,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "docs_between_attributes",
        unit: "pairs",
        sizes: &[10_000, 100_000],
        make: docs_between_attributes,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "tiny_files",
        unit: "files",
        sizes: &[10_000, 100_000],
        make: tiny_files,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "learned_wrappers",
        unit: "wrappers",
        sizes: &[5_000, 10_000],
        make: learned_wrappers,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "learned_wrappers_ring",
        unit: "wrappers",
        sizes: &[1_000, 10_000],
        make: learned_wrappers_ring,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "learned_wrappers_files",
        unit: "files",
        sizes: &[2_000, 10_000],
        make: learned_wrappers_files,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "findings_one_file_human",
        unit: "findings",
        sizes: &[2_000, 8_000, 100_000],
        make: findings_one_file,
        format: "human",
        by_name: false,
    },
    Shape {
        name: "one_finding_files_by_name",
        unit: "files",
        sizes: &[10_000, 20_000],
        make: one_finding_files,
        format: "short",
        by_name: true,
    },
    Shape {
        name: "one_finding_files_human",
        unit: "files",
        sizes: &[10_000, 30_000],
        make: one_finding_files,
        format: "human",
        by_name: false,
    },
    Shape {
        name: "findings_one_file_sarif",
        unit: "findings",
        sizes: &[10_000, 100_000],
        make: findings_one_file,
        format: "sarif",
        by_name: false,
    },
    Shape {
        name: "recursive_macro_call",
        unit: "entries",
        sizes: &[1_000, 4_000, 16_000],
        make: recursive_macro_call,
        format: "short",
        by_name: false,
    },
    Shape {
        name: "block_statements",
        unit: "statements",
        sizes: &[2_001, 100_000],
        make: block_statements,
        format: "short",
        by_name: false,
    },
];

fn main() {
    if let Some(dir) = std::env::var_os("SHAPES_BARE") {
        bare(Path::new(&dir));
        return;
    }
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |name: &str| wanted.is_empty() || wanted.iter().any(|w| name.contains(w));
    let timeout = Duration::from_secs(
        std::env::var("SHAPES_TIMEOUT")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(60),
    );
    println!(
        "{:<26} {:>14} {:>9} | {:>18} | {:>18} | {:>18}",
        "shape", "size", "MB", "default s / MiB", "--no-prefilter", "bare syn parse"
    );
    for shape in SHAPES.iter().filter(|s| wanted(s.name)) {
        for &size in shape.sizes {
            let dir = tempfile::tempdir().unwrap();
            (shape.make)(dir.path(), size);
            report(
                shape.name,
                &format!("{size} {}", shape.unit),
                dir.path(),
                shape.format,
                shape.by_name,
                timeout,
            );
        }
    }
    for (name, manifests) in [("registry", true), ("registry_no_manifests", false)] {
        if wanted(name) {
            registry(name, manifests, timeout);
        }
    }
}

/// One line of the table: the folder checked in both modes and parsed bare.
fn report(name: &str, size: &str, dir: &Path, format: &str, by_name: bool, timeout: Duration) {
    let bytes = folder_bytes(dir);
    let linter = env!("CARGO_BIN_EXE_backend-lint");
    let run = |extra: &[&str]| {
        let mut cmd = std::process::Command::new(linter);
        cmd.args(["--quiet", "--format", format, "--color", "never"])
            .args(extra);
        match by_name {
            // Relative to the folder, as pre-commit names them.
            true => cmd.current_dir(dir).args(rs_files(dir, dir)),
            false => cmd.arg(dir),
        };
        measure(cmd, timeout)
    };
    let default = run(&[]);
    let full = run(&["--no-prefilter"]);
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.env("SHAPES_BARE", dir);
    let bare = measure(cmd, timeout);
    println!(
        "{name:<26} {size:>14} {:>9.1} | {default:>18} | {full:>18} | {bare:>18}",
        bytes as f64 / 1e6
    );
}

/// The `.rs` files under `dir`, relative to `base`.
fn rs_files(dir: &Path, base: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let path = e.path();
        if path.is_dir() {
            out.extend(rs_files(&path, base));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path.strip_prefix(base).unwrap().to_path_buf());
        }
    }
    out
}

/// The bare parse of a folder's files, in this process (a child of the bench).
fn bare(dir: &Path) {
    let (inputs, _) = backend_lint::run::discover::collect(&[dir.to_path_buf()], Path::new("/"));
    let texts: Vec<String> = inputs
        .iter()
        .filter_map(|i| std::fs::read_to_string(&i.path).ok())
        .collect();
    common::bare_parse(&common::big_stack_pool(), &texts);
}

/// Wall time and peak RSS of a child process, or that it was killed.
struct Measured {
    seconds: f64,
    /// `None` when killed at the timeout.
    peak_kib: Option<i64>,
}

impl std::fmt::Display for Measured {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self.peak_kib {
            Some(kib) => format!("{:.2} s {:.0} MiB", self.seconds, kib as f64 / 1024.0),
            None => format!("killed at {:.0} s", self.seconds),
        };
        f.pad(&text)
    }
}

/// Run `cmd` (output discarded) and wait for it with `wait4`, which gives
/// the child's own peak RSS; kill it past `timeout`.
// `wait4` reaps the child; clippy looks for `Child::wait` only.
#[allow(clippy::zombie_processes)]
fn measure(mut cmd: std::process::Command, timeout: Duration) -> Measured {
    use std::process::Stdio;
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the child starts");
    let pid = child.id() as libc::pid_t;
    let mut killed = false;
    loop {
        let mut status = 0;
        // SAFETY: `rusage` is plain data that wait4 fills in; `pid` is our
        // own child, not yet reaped (`child` never waits for it).
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if killed { 0 } else { libc::WNOHANG };
        let done = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if done == pid {
            return Measured {
                seconds: start.elapsed().as_secs_f64(),
                peak_kib: (!killed).then_some(usage.ru_maxrss),
            };
        }
        if start.elapsed() > timeout && !killed {
            let _ = child.kill();
            killed = true;
            continue;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn folder_bytes(dir: &Path) -> u64 {
    let (inputs, _) = backend_lint::run::discover::collect(&[dir.to_path_buf()], Path::new("/"));
    inputs
        .iter()
        .filter_map(|i| std::fs::metadata(&i.path).ok())
        .map(|m| m.len())
        .sum()
}

/// A file written line by line.
fn write_lines(path: &Path, lines: impl Iterator<Item = String>) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for line in lines {
        writeln!(out, "{line}").unwrap();
    }
    out.flush().unwrap();
}

/// A file of `allow-file` directives (each unused: nothing registers twice).
fn allow_file_lines(dir: &Path, n: usize) {
    let directives =
        (0..n).map(|_| "// backend-lint: allow-file(duplicate_registration)".to_string());
    let code = std::iter::once("pub fn f() {}".to_string());
    write_lines(&dir.join("lib.rs"), directives.chain(code));
}

/// One function registering `n` different keys on one registry.
fn registrations_one_fn(dir: &Path, n: usize) {
    let calls = (0..n).map(|i| format!("    r.register_backend(\"key{i}\", make);"));
    let lines = std::iter::once("pub fn init(r: &mut Registry) {".to_string())
        .chain(calls)
        .chain(std::iter::once("}".to_string()));
    write_lines(&dir.join("lib.rs"), lines);
}

/// `n` inline modules, each registering a key of its own.
fn inline_mods_registering(dir: &Path, n: usize) {
    let mods = (0..n).map(|i| {
        format!("mod m{i} {{ pub fn init(r: &mut Registry) {{ r.register_backend(\"key{i}\", make); }} }}")
    });
    write_lines(&dir.join("lib.rs"), mods);
}

/// `n` doc lines on one function (after a documented first item): the run
/// ends at an item, which is looked for once.
fn doc_lines_one_item(dir: &Path, n: usize) {
    documented(dir, (0..n).map(|i| format!("/// Line {i} of the docs.")));
}

/// `n` pairs of an attribute and a doc line on one function: each run of
/// docs ends at an attribute, which leads to the next run.
fn docs_between_attributes(dir: &Path, n: usize) {
    documented(
        dir,
        (0..n).map(|i| format!("#[doc(alias = \"a{i}\")]\n/// Line {i}.")),
    );
}

/// `docs` on a function, after a documented first item (whose docs stay).
fn documented(dir: &Path, docs: impl Iterator<Item = String>) {
    let lines = std::iter::once("/// The first item.\npub fn first() {}".to_string())
        .chain(docs)
        .chain(std::iter::once("pub fn f() {}".to_string()));
    write_lines(&dir.join("lib.rs"), lines);
}

/// `n` inline modules without registrations, for comparison.
fn inline_mods_quiet(dir: &Path, n: usize) {
    let mods = (0..n).map(|i| format!("mod m{i} {{ pub fn init() {{}} }}"));
    write_lines(&dir.join("lib.rs"), mods);
}

/// One file of `mib` MiB (within the 32 MiB read) of small functions.
fn big_file(dir: &Path, mib: usize) {
    // Each function is 105 bytes with its line breaks.
    let lines = (0..mib * 1024 * 1024 / 105).map(|i| {
        format!("pub fn f{i:08}(x: u32) -> u32 {{\n    let y = x.wrapping_mul(3) + 1;\n    if y > 7 {{ y - 7 }} else {{ y }}\n}}")
    });
    write_lines(&dir.join("lib.rs"), lines);
}

/// One file of `n` lines, a constant each (1M lines: 24 MB).
fn many_lines(dir: &Path, n: usize) {
    let lines = (0..n).map(|i| format!("pub const C{i}: u32 = {i};"));
    write_lines(&dir.join("lib.rs"), lines);
}

/// One expression of `n` terms: `1+1+..`.
fn long_sum(dir: &Path, n: usize) {
    let sum = vec!["1"; n].join("+");
    write_lines(
        &dir.join("lib.rs"),
        std::iter::once(format!("pub const X: u64 = {sum};")),
    );
}

/// `n` files of one function each, a thousand to a folder, in no package.
/// One key registered `n` times, each under a `cfg` that excludes the others.
fn exclusive_cfgs(dir: &Path, n: usize) {
    let body: String = (0..n)
        .map(|i| format!("    #[cfg(target_os = \"os{i}\")]\n    register_backend(\"cuda\", a);\n"))
        .collect();
    std::fs::write(dir.join("lib.rs"), format!("pub fn init() {{\n{body}}}\n")).unwrap();
}

/// One key registered `n` times on one line: `n - 1` findings whose columns
/// and fingerprints are read along a line of `32 n` bytes.
fn findings_one_line(dir: &Path, n: usize) {
    let calls = "register_backend(\"cuda\", make); ".repeat(n);
    std::fs::write(dir.join("lib.rs"), format!("pub fn init() {{ {calls}}}\n")).unwrap();
}

/// `n` wrappers of a learned registration (`reg` rejects a second key),
/// each registering a key of its own, each called once by `init`: every
/// learned name was looked up through every other.
fn learned_wrappers(dir: &Path, n: usize) {
    wrappers(dir, n, false);
}

/// The same wrappers in a ring, each also calling the next: each round of
/// learning grows every wrapper's keys, up to the last round.
fn learned_wrappers_ring(dir: &Path, n: usize) {
    wrappers(dir, n, true);
}

/// A package whose `reg.rs` holds `n` wrappers of a learned registration,
/// each called from a file of its own: each file was searched for each
/// learned name, one at a time.
fn learned_wrappers_files(dir: &Path, n: usize) {
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"wrapped\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    let src = dir.join("src");
    std::fs::create_dir(&src).unwrap();
    wrappers(&src, n, false);
    std::fs::rename(src.join("lib.rs"), src.join("reg.rs")).unwrap();
    let mods = (0..n).map(|i| format!("pub mod c{i};"));
    write_lines(
        &src.join("lib.rs"),
        std::iter::once("pub mod reg;".to_string()).chain(mods),
    );
    for i in 0..n {
        let text = format!("pub fn c{i}(r: &mut crate::reg::R) {{ crate::reg::w{i}(r); }}\n");
        std::fs::write(src.join(format!("c{i}.rs")), text).unwrap();
    }
}

fn wrappers(dir: &Path, n: usize, ring: bool) {
    let registry = [
        "pub struct R { map: std::collections::HashMap<String, fn()> }",
        "impl R {",
        "    pub fn reg(&mut self, name: &str, f: fn()) {",
        "        if self.map.contains_key(name) { panic!(\"twice\") }",
        "        self.map.insert(name.to_string(), f);",
        "    }",
        "}",
        "pub fn f() {}",
    ];
    let wrappers = (0..n).map(move |i| {
        let next = match ring {
            true => format!(" w{}(r);", (i + 1) % n),
            false => String::new(),
        };
        format!("pub fn w{i}(r: &mut R) {{ r.reg(\"k{i}\", f);{next} }}")
    });
    let calls: String = match ring {
        true => "w0(r);".into(),
        false => (0..n).map(|i| format!(" w{i}(r);")).collect(),
    };
    let lines = (registry.iter().map(|l| l.to_string()))
        .chain(wrappers)
        .chain(std::iter::once(format!(
            "pub fn init(r: &mut R) {{{calls} }}"
        )));
    write_lines(&dir.join("lib.rs"), lines);
}

/// One key registered `n + 1` times, a line each: `n` findings in one file.
fn findings_one_file(dir: &Path, n: usize) {
    let calls = (0..=n).map(|_| "    register_backend(\"cuda\", make);".to_string());
    let lines = std::iter::once("pub fn init() {".to_string())
        .chain(calls)
        .chain(std::iter::once("}".to_string()));
    write_lines(&dir.join("lib.rs"), lines);
}

/// `n` files of one finding each (a key registered twice), a thousand to a
/// folder, in no package.
fn one_finding_files(dir: &Path, n: usize) {
    for i in 0..n {
        let folder = dir.join(format!("d{}", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir(&folder).unwrap();
        }
        let text = "pub fn init() {\n    register_backend(\"cuda\", a);\n    register_backend(\"cuda\", b);\n}\n";
        std::fs::write(folder.join(format!("f{i}.rs")), text).unwrap();
    }
}

/// `n` consecutive `if k.is_empty() {..}` (then `for`, `while`, `match`,
/// `if let` in turn) in one function: the `.`s of the statements were
/// counted as one chain, and the file refused past 2,000.
fn block_statements(dir: &Path, n: usize) {
    let kinds = [
        "    if k.is_empty() { f(); }",
        "    for x in k.iter() { g(x); }",
        "    while k.is_empty() { f(); }",
        "    match k.len() { 0 => f(), _ => {} }",
        "    if let Some(x) = k.first() { g(x); }",
    ];
    let lines = std::iter::once("pub fn run(k: &[u8]) {".to_string())
        .chain((0..n).map(|i| kinds[i % kinds.len()].to_string()))
        .chain(std::iter::once("}".to_string()));
    write_lines(&dir.join("lib.rs"), lines);
}

/// One call of `n` entries of a crate's own recursive macro (the shape of
/// vaultwarden's `make_config!`, which writes several items per entry and
/// calls itself for each): each repetition of the expansion copied the
/// bindings of every entry, and each `$f:expr` was parsed from all the
/// input left after it.
fn recursive_macro_call(dir: &Path, n: usize) {
    let definition = [
        "macro_rules! backends {",
        "    (@make $key:literal, $f:expr) => { registry().register_backend($key, $f) };",
        "    (@ty $t:ty) => { Option<$t> };",
        "    ($( $(#[doc = $doc:literal])* $name:ident : $t:ty = $key:literal, $f:expr; )+) => {",
        "        pub struct Settings { $( pub $name: backends! { @ty $t }, )+ }",
        "        pub fn init() { $( backends! { @make $key, $f }; )+ }",
        "        pub fn names() -> Vec<&'static str> { vec![$( stringify!($name), )+] }",
        "    };",
        "}",
        "backends! {",
    ];
    let entries = (0..n).map(|i| {
        format!("    /// Backend {i}\n    b{i}: u32 = \"key{i}\", |c: &Config| c.get({i}).unwrap_or_default();")
    });
    let lines = (definition.iter().map(|l| l.to_string()))
        .chain(entries)
        .chain(std::iter::once("}".to_string()));
    write_lines(&dir.join("lib.rs"), lines);
}

fn tiny_files(dir: &Path, n: usize) {
    for i in 0..n {
        let folder = dir.join(format!("d{}", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir(&folder).unwrap();
        }
        std::fs::write(folder.join(format!("f{i}.rs")), "pub fn f() {}\n").unwrap();
    }
}

/// The registry's crates as they are, or their `.rs` files copied without
/// the `Cargo.toml`s (so that no file is in a package).
fn registry(name: &str, manifests: bool, timeout: Duration) {
    let corpus = common::registry_corpus();
    if std::fs::read_dir(&corpus).map_or(0, |d| d.count()) == 0 {
        println!("{name:<26} skipped: no crates in {}", corpus.display());
        return;
    }
    if manifests {
        report(name, "registry", &corpus, "short", false, timeout);
        return;
    }
    let copy = tempfile::tempdir().unwrap();
    let (inputs, _) = backend_lint::run::discover::collect(std::slice::from_ref(&corpus), &corpus);
    for input in inputs {
        let to: PathBuf = copy.path().join(input.path.strip_prefix(&corpus).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&input.path, to).unwrap();
    }
    report(name, "registry", copy.path(), "short", false, timeout);
}
