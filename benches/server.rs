//! The language server's latency (issue 30): a synthetic workspace of
//! 2,500 files (`SERVER_PACKAGES` packages of `SERVER_FILES` files, torsh's
//! size), one of them 1,000 lines long, served by the release binary over
//! stdio. It measures:
//! - the initial analysis: from `initialize` to the diagnostics of the
//!   open file, and to the whole workspace analysed (the server analyses
//!   the open file's package first and logs when it has done the others);
//!   the edits start after both;
//! - one keystroke: 1,000 edits of one character in the 1,000-line file,
//!   each one making a finding appear or go, from the edit sent to its
//!   diagnostics received (p50, p95, max);
//! - the server's resident memory after the first edit and after the last.
//!
//! `cargo bench --bench server`. `SERVER_WORKSPACE=DIR SERVER_FILE=REL`
//! serves a real workspace instead (torsh, a fresh checkout) and edits
//! `REL`: a line comparing `canonicalize_platform(..)` with `"CUDA"` added
//! at its end and taken away, in turn. `SERVER_BIN=PATH` serves with another
//! build (a baseline's; `SERVER_NO_WHOLE_LOG=1` for one that does not log
//! when the whole workspace is analysed), `SERVER_STDERR=1` shows the
//! server's stderr. The
//! numbers in docs/performance.md come from here; no test times anything.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A package's ordinary file: functions with nothing to report.
fn plain_file(n: usize) -> String {
    let mut s = format!("//! Module {n}.\n\n");
    for f in 0..8 {
        s.push_str(&format!(
            "pub fn f{f}(x: usize) -> usize {{\n    let y = x * {f} + {n};\n    y.wrapping_add(1)\n}}\n\n"
        ));
    }
    s
}

/// The workspace: `packages` packages of `files` files; package 0's
/// `src/big.rs` is the 1,000-line file edited, with a registration and a
/// comparison in it (parsed in full at each edit). Every tenth file of a
/// package registers a backend, so the package pass has work.
fn make_workspace(root: &Path, packages: usize, files: usize) {
    let members: Vec<String> = (0..packages).map(|p| format!("\"p{p}\"")).collect();
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[workspace]\nmembers = [{}]\nresolver = \"2\"\n",
            members.join(", ")
        ),
    )
    .unwrap();
    for p in 0..packages {
        let src = root.join(format!("p{p}/src"));
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(
            root.join(format!("p{p}/Cargo.toml")),
            format!("[package]\nname = \"p{p}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        )
        .unwrap();
        let mut lib = String::from(
            "pub fn register_backend(_name: &str, _f: fn()) {}\npub fn cpu() {}\n\
             pub fn canonicalize_platform(p: &str) -> String { p.to_lowercase() }\npub mod big;\n",
        );
        for f in 0..files.saturating_sub(2) {
            lib.push_str(&format!("pub mod m{f};\n"));
            let mut text = plain_file(f);
            if f % 10 == 0 {
                text.push_str(&format!(
                    "pub fn init() {{ crate::register_backend(\"b{f}\", crate::cpu); }}\n"
                ));
            }
            std::fs::write(src.join(format!("m{f}.rs")), text).unwrap();
        }
        std::fs::write(src.join("lib.rs"), lib).unwrap();
        std::fs::write(src.join("big.rs"), big_file()).unwrap();
    }
}

/// 1,000 lines; line 2 holds the comparison the edits toggle.
fn big_file() -> String {
    let mut s = String::from("//! The file edited.\n");
    s.push_str("pub fn is_cuda(p: &str) -> bool { crate::canonicalize_platform(p) == \"CUDA\" }\n");
    s.push_str("pub fn init() { crate::register_backend(\"big\", crate::cpu); }\n");
    let mut n = 0;
    while s.lines().count() < 1_000 {
        s.push_str(&format!(
            "pub fn g{n}(x: u64) -> u64 {{\n    x.rotate_left({}) ^ {n}\n}}\n",
            n % 63
        ));
        n += 1;
    }
    s
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
}

impl Server {
    fn start(bin: &str) -> Server {
        let stderr = match std::env::var_os("SERVER_STDERR") {
            Some(_) => Stdio::inherit(),
            None => Stdio::null(),
        };
        let mut child = Command::new(bin)
            .arg("server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                stdout.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Server {
            child,
            stdin,
            messages,
        }
    }

    fn send(&mut self, message: Value) {
        let body = serde_json::to_string(&message).unwrap();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Wait for the diagnostics of `uri`; how many there are.
    fn diagnostics_of(&self, uri: &str) -> usize {
        loop {
            let m = self
                .messages
                .recv_timeout(Duration::from_secs(120))
                .expect("diagnostics in time");
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().map_or(0, Vec::len);
            }
        }
    }

    /// Wait for a `window/logMessage` containing `text`.
    fn log_containing(&self, text: &str) {
        loop {
            let m = self
                .messages
                .recv_timeout(Duration::from_secs(300))
                .expect("the log message in time");
            if m["method"] == "window/logMessage"
                && (m["params"]["message"].as_str()).is_some_and(|s| s.contains(text))
            {
                return;
            }
        }
    }

    /// Wait for the response to request `id`.
    fn response(&self, id: u64) -> Value {
        loop {
            let m = self
                .messages
                .recv_timeout(Duration::from_secs(300))
                .expect("a response in time");
            if m["id"] == id && m.get("method").is_none() {
                return m;
            }
        }
    }

    /// The CPU time the server has used (user and system), from
    /// `/proc/PID/stat`: what a loaded machine changes less than the wall
    /// times.
    fn cpu(&self) -> Duration {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // The fields after the command's `)`: utime and stime are the 12th
        // and 13th, in clock ticks (100 a second on Linux).
        let ticks: u64 = (stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or(""))
            .split_whitespace()
            .skip(11)
            .take(2)
            .filter_map(|t| t.parse::<u64>().ok())
            .sum();
        Duration::from_millis(ticks * 10)
    }

    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        (status.lines())
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap_or(0)
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// One edit: the change to send, and how many diagnostics it leaves
/// (`None`: not known, a real workspace's file).
type Edit = (Value, Option<usize>);

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let (root, big, edit): (
        std::path::PathBuf,
        std::path::PathBuf,
        Box<dyn Fn(usize) -> Edit>,
    ) = match std::env::var_os("SERVER_WORKSPACE") {
        Some(root) => {
            let root = std::path::PathBuf::from(root);
            let file = root.join(std::env::var("SERVER_FILE").expect("SERVER_FILE"));
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(text.ends_with('\n'));
            let end = text.lines().count() as u32;
            println!(
                "workspace: {} ({} lines edited in {})",
                root.display(),
                end,
                file.display()
            );
            let line =
                "fn backend_lint_bench() -> bool { canonicalize_platform(\"x\") == \"CUDA\" }\n";
            let edit = move |version: usize| -> Edit {
                let (range, text) = match version % 2 {
                    0 => (
                        json!({"start": {"line": end, "character": 0},
                                     "end": {"line": end, "character": 0}}),
                        line,
                    ),
                    _ => (
                        json!({"start": {"line": end, "character": 0},
                                     "end": {"line": end + 1, "character": 0}}),
                        "",
                    ),
                };
                (json!([{"range": range, "text": text}]), None)
            };
            (root, file, Box::new(edit))
        }
        None => {
            let packages = env_usize("SERVER_PACKAGES", 10);
            let files = env_usize("SERVER_FILES", 250);
            let root = dir.path().join("ws");
            std::fs::create_dir_all(&root).unwrap();
            make_workspace(&root, packages, files);
            let big = root.join("p0/src/big.rs");
            let text = std::fs::read_to_string(&big).unwrap();
            println!(
                "workspace: {packages} packages of {files} files ({} files), the edited file {} lines",
                packages * files,
                text.lines().count()
            );
            // Line 1, the literal's four letters (UTF-16 columns, ASCII
            // here), `cuda` and `CUDA` in turn: the finding goes and
            // comes back.
            let line = text.lines().nth(1).unwrap();
            let col = line.find("\"CUDA\"").unwrap() as u32 + 1;
            let edit = move |version: usize| -> Edit {
                let letters = if version.is_multiple_of(2) {
                    "cuda"
                } else {
                    "CUDA"
                };
                let range = json!({"start": {"line": 1, "character": col},
                                       "end": {"line": 1, "character": col + 4}});
                (
                    json!([{"range": range, "text": letters}]),
                    Some(version % 2),
                )
            };
            (root, big, Box::new(edit))
        }
    };
    let edits = env_usize("SERVER_EDITS", 1_000);
    let uri = format!("file://{}", big.display());
    let text = std::fs::read_to_string(&big).unwrap();

    let bin = std::env::var("SERVER_BIN");
    let bin = bin.as_deref().unwrap_or(env!("CARGO_BIN_EXE_backend-lint"));
    println!("server: {bin}");
    let mut server = Server::start(bin);
    let started = Instant::now();
    server.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "capabilities": {},
            "workspaceFolders": [{"uri": format!("file://{}", root.display()), "name": "ws"}],
        }}),
    );
    server.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    server.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "rust", "version": 1, "text": text}
        }}),
    );
    // A hover is answered once the workspace and the open file are analysed.
    server.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}
        }}),
    );
    server.response(2);
    let initial = started.elapsed();
    println!(
        "initial analysis (initialize to the open file analysed): {initial:?} ({:?} CPU)",
        server.cpu()
    );
    // (A baseline built before `0006e09` analysed the whole workspace
    // before it answered, and logs nothing: `SERVER_NO_WHOLE_LOG=1`.)
    if std::env::var_os("SERVER_NO_WHOLE_LOG").is_none() {
        server.log_containing("the workspace analysed");
        println!(
            "initial analysis (initialize to the whole workspace analysed): {:?} ({:?} CPU)",
            started.elapsed(),
            server.cpu()
        );
    }

    let cpu_before = server.cpu();
    let mut times = Vec::with_capacity(edits);
    let mut rss_first = 0;
    for version in 0..edits {
        let (changes, expected) = edit(version);
        let sent = Instant::now();
        server.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version + 2},
                "contentChanges": changes,
            }}),
        );
        let n = server.diagnostics_of(&uri);
        times.push(sent.elapsed());
        if let Some(expected) = expected {
            assert_eq!(n, expected, "edit {version}");
        }
        if version == 0 {
            rss_first = server.rss_kib();
        }
    }
    let rss_last = server.rss_kib();
    let cpu_edits = server.cpu().saturating_sub(cpu_before);
    times.sort();
    println!(
        "keystroke to diagnostics, {edits} edits: p50 {:?}, p95 {:?}, max {:?}",
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        times[times.len() - 1]
    );
    println!(
        "CPU per edit (user and system, all threads): {:?}",
        cpu_edits / edits.max(1) as u32
    );
    println!(
        "RSS after the first edit {} MiB, after {edits} edits {} MiB ({:+.1}%)",
        rss_first / 1024,
        rss_last / 1024,
        (rss_last as f64 / rss_first as f64 - 1.0) * 100.0
    );
    server.send(json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    server.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    let _ = server.child.wait();
}
