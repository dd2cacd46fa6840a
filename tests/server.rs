//! `backend-lint server` with real clients (issue 30): pytest-lsp's
//! scripted client for the protocol's edge cases
//! (`tests/editors/test_protocol.py`), and Neovim's built-in client
//! opening a crate, editing it, applying a quick fix and writing the file
//! (`tests/editors/nvim.lua`). `.ci/run` installs both; a missing one
//! fails the test, unless `BACKEND_LINT_SKIP_EDITOR_TESTS` is set (never
//! in CI), so that `cargo test` on a machine without them says so.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::copy_dir;

fn editors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/editors")
}

/// Whether the test may be skipped for want of `tool`; panics otherwise.
fn missing(tool: &str, works: bool) -> bool {
    if works {
        return false;
    }
    if std::env::var_os("BACKEND_LINT_SKIP_EDITOR_TESTS").is_some() {
        eprintln!("skipped: {tool} is not installed (BACKEND_LINT_SKIP_EDITOR_TESTS is set)");
        return true;
    }
    panic!(
        "{tool} is not installed: .ci/run installs it; set BACKEND_LINT_SKIP_EDITOR_TESTS=1 \
         to skip the editor tests"
    );
}

#[test]
fn protocol_edge_cases_with_pytest_lsp() {
    let has = Command::new("python3")
        .args(["-c", "import pytest_lsp"])
        .output()
        .is_ok_and(|o| o.status.success());
    if missing("pytest-lsp (python3 -m pip install pytest-lsp)", has) {
        return;
    }
    let out = Command::new("python3")
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "test_protocol.py",
        ])
        .current_dir(editors())
        .env("BACKEND_LINT_BIN", env!("CARGO_BIN_EXE_backend-lint"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "pytest failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("passed"), "{stdout}");
}

#[test]
fn neovim_shows_findings_and_applies_a_fix() {
    let has = Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if missing("nvim (apt-get install neovim)", has) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("fixture");
    copy_dir(&editors().join("fixture"), &root);
    let out = Command::new("nvim")
        .args(["--headless", "--clean", "-u"])
        .arg(editors().join("nvim.lua"))
        .env("BACKEND_LINT_BIN", env!("CARGO_BIN_EXE_backend-lint"))
        .env("FIXTURE_ROOT", &root)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("OK"),
        "neovim's test failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    // The fix and the edit were written by Neovim.
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    assert!(
        lib.contains(r#"canonicalize_platform(p) == "cuda""#),
        "{lib}"
    );
}

/// The package of the open document is analysed and answered for first;
/// the other packages of the workspace after it, while the client sends
/// nothing: a large workspace does not keep the open file waiting.
#[test]
fn the_open_documents_package_goes_first_and_the_others_follow() {
    use lsp_server::{Connection, Message, Notification, Request};
    use serde_json::json;

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nmembers = [\"a\", \"b\"]\nresolver = \"2\"\n",
    )
    .unwrap();
    // The same finding in each package; `a` is discovered first.
    let lib = "pub fn canonicalize_platform(p: &str) -> String { p.to_lowercase() }\n\
               pub fn is_cuda(p: &str) -> bool { canonicalize_platform(p) == \"CUDA\" }\n";
    for name in ["a", "b"] {
        std::fs::create_dir_all(root.join(name).join("src")).unwrap();
        std::fs::write(
            root.join(name).join("Cargo.toml"),
            format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        )
        .unwrap();
        std::fs::write(root.join(name).join("src/lib.rs"), lib).unwrap();
    }
    let uri = |name: &str| format!("file://{}/{name}/src/lib.rs", root.display());

    let (server, client) = Connection::memory();
    let serving = std::thread::spawn(move || backend_lint::server::serve(&server));
    let send = |m: Message| client.sender.send(m).unwrap();
    let request = |id: i32, method: &str, params| {
        send(Message::Request(Request::new(
            id.into(),
            method.into(),
            params,
        )))
    };
    let notify = |method: &str, params| {
        send(Message::Notification(Notification::new(
            method.into(),
            params,
        )))
    };
    // All sent before the server reads any: what it does first is its choice.
    request(
        1,
        "initialize",
        json!({"capabilities": {},
               "workspaceFolders": [{"uri": format!("file://{}", root.display()), "name": "ws"}]}),
    );
    notify("initialized", json!({}));
    notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri("b"), "languageId": "rust", "version": 1, "text": lib}}),
    );
    request(
        2,
        "textDocument/hover",
        json!({"textDocument": {"uri": uri("b")}, "position": {"line": 0, "character": 0}}),
    );
    // What arrives, in order, until both files have their finding.
    let mut seen: Vec<String> = Vec::new();
    let mut published = (false, false);
    while !(published.0 && published.1) {
        let message = (client.receiver)
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the server answers in time");
        match message {
            Message::Response(r) => seen.push(format!("response {}", r.id)),
            Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => {
                let count = n.params["diagnostics"].as_array().map_or(0, Vec::len);
                let file = n.params["uri"].as_str().unwrap_or("").to_string();
                if file == uri("a") && count > 0 {
                    published.0 = true;
                    seen.push("a".into());
                }
                if file == uri("b") && count > 0 {
                    published.1 = true;
                    seen.push("b".into());
                }
            }
            _ => {}
        }
    }
    assert_eq!(seen, ["response 1", "b", "response 2", "a"]);
    request(3, "shutdown", json!(null));
    notify("exit", json!(null));
    drop(client);
    assert_eq!(serving.join().unwrap(), 0);
}

/// A client on an in-memory connection to the server, for the tests that
/// script the protocol from Rust.
struct Client {
    connection: lsp_server::Connection,
    serving: Option<std::thread::JoinHandle<u8>>,
    /// Each file's diagnostics as last published: (line, code) sorted.
    published: std::collections::HashMap<String, Vec<(u64, String)>>,
    next_id: i32,
}

impl Client {
    fn start(folder: &Path) -> Client {
        let (server, client) = lsp_server::Connection::memory();
        let serving = std::thread::spawn(move || backend_lint::server::serve(&server));
        let mut client = Client {
            connection: client,
            serving: Some(serving),
            published: Default::default(),
            next_id: 1,
        };
        client.request(
            "initialize",
            serde_json::json!({"capabilities": {},
                "workspaceFolders": [{"uri": format!("file://{}", folder.display()), "name": "ws"}]}),
        );
        client.notify("initialized", serde_json::json!({}));
        client
    }

    fn send(&self, m: lsp_server::Message) {
        self.connection.sender.send(m).unwrap();
    }

    fn request(&mut self, method: &str, params: serde_json::Value) {
        let id = self.next_id;
        self.next_id += 1;
        let request = lsp_server::Request::new(id.into(), method.into(), params);
        self.send(request.into());
    }

    fn notify(&self, method: &str, params: serde_json::Value) {
        self.send(lsp_server::Notification::new(method.into(), params).into());
    }

    /// Read what the server sends until `done` holds of the published
    /// diagnostics.
    fn until(&mut self, what: &str, done: impl Fn(&Self) -> bool) {
        let start = std::time::Instant::now();
        while !done(self) {
            let left = std::time::Duration::from_secs(60).saturating_sub(start.elapsed());
            let message = (self.connection.receiver.recv_timeout(left))
                .unwrap_or_else(|_| panic!("waited for {what}; published: {:?}", self.published));
            if let lsp_server::Message::Notification(n) = message
                && n.method == "textDocument/publishDiagnostics"
            {
                let uri = n.params["uri"].as_str().unwrap_or("").to_string();
                let mut found: Vec<(u64, String)> = (n.params["diagnostics"].as_array())
                    .into_iter()
                    .flatten()
                    .map(|d| {
                        let line = d["range"]["start"]["line"].as_u64().unwrap() + 1;
                        (line, d["code"].as_str().unwrap_or("").to_string())
                    })
                    .collect();
                found.sort();
                self.published.insert(uri, found);
            }
        }
    }

    fn stop(mut self) {
        self.request("shutdown", serde_json::json!(null));
        self.notify("exit", serde_json::json!(null));
        let serving = self.serving.take().unwrap();
        drop(self.connection);
        assert_eq!(serving.join().unwrap(), 0);
    }
}

/// What `backend-lint check` reports in the package at `root`, by file
/// URI: (line, lint) sorted.
fn check_findings(root: &Path) -> std::collections::HashMap<String, Vec<(u64, String)>> {
    let out = Command::new(env!("CARGO_BIN_EXE_backend-lint"))
        .args(["check", ".", "--format", "json", "--exit-zero"])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut by_file: std::collections::HashMap<String, Vec<(u64, String)>> = Default::default();
    for d in report["diagnostics"].as_array().unwrap() {
        let file = root.join(d["span"]["file"].as_str().unwrap());
        let file = format!("file://{}", file.display());
        let found = (
            d["span"]["line"].as_u64().unwrap(),
            d["lint"].as_str().unwrap().into(),
        );
        by_file.entry(file).or_default().push(found);
    }
    by_file.values_mut().for_each(|f| f.sort());
    by_file
}

/// A package made of a fixture's files (under `src/`).
fn package_of_fixture(root: &Path, fixture: &str) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture);
    std::fs::create_dir_all(root.join("src")).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            std::fs::copy(&path, root.join("src").join(path.file_name().unwrap())).unwrap();
        }
    }
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"m\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
}

/// The findings `check` gives only with the semantic model (a receiver's
/// type from a return type or a local, which of two functions of one name
/// a call reaches) are the server's too: at the start, and after edits of
/// a buffer inside fn bodies (which keep the model, its positions moved)
/// and of its items.
#[test]
fn the_server_gives_the_findings_check_gets_from_the_model() {
    for fixture in [
        "lints/impossible_value_comparison/bad_model_receivers",
        "lints/uncanonicalized_platform_comparison/bad_resolved_sources",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        package_of_fixture(&root, fixture);
        let expected = check_findings(&root);
        assert!(!expected.is_empty(), "{fixture}: check finds nothing");
        let mut client = Client::start(&root);
        let lib = format!("file://{}/src/lib.rs", root.display());
        let text = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
        client.notify(
            "textDocument/didOpen",
            serde_json::json!({"textDocument": {"uri": lib, "languageId": "rust", "version": 1, "text": text}}),
        );
        client.until(&format!("{fixture}: check's findings"), |c| {
            expected
                .iter()
                .all(|(file, found)| c.published.get(file) == Some(found))
        });
        client.stop();
    }
}

/// Edits of an open buffer: inside a fn body (the file's items are the
/// same: the model is kept, with the buffer's text and positions) and of
/// its items (the model is built again); the findings stay `check`'s on
/// the same text.
#[test]
fn findings_from_the_model_follow_the_edits_of_a_buffer() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    package_of_fixture(
        &root,
        "lints/impossible_value_comparison/bad_model_receivers",
    );
    let device = format!("file://{}/src/device.rs", root.display());
    let graph = format!("file://{}/src/graph.rs", root.display());
    let mut client = Client::start(&root);
    let text = std::fs::read_to_string(root.join("src/device.rs")).unwrap();
    client.notify(
        "textDocument/didOpen",
        serde_json::json!({"textDocument": {"uri": device, "languageId": "rust", "version": 1, "text": text}}),
    );
    let findings = |lines: &[u64]| -> Vec<(u64, String)> {
        (lines.iter())
            .map(|&l| (l, "impossible_value_comparison".to_string()))
            .collect()
    };
    client.until("the first findings", |c| {
        c.published.get(&device) == Some(&findings(&[43, 53, 76]))
            && c.published.get(&graph) == Some(&findings(&[13, 20]))
    });
    // Inside `supports_f64`'s body (line 43): two lines more, and the
    // comparison of `on_apple_gpu` (line 53) made possible.
    let mut text = text;
    let mut version = 1;
    let mut change =
        |c: &Client, text: &mut String, line: usize, from: usize, to: usize, new: &str| {
            let at: usize = text
                .split_inclusive('\n')
                .take(line - 1)
                .map(str::len)
                .sum();
            text.replace_range(at + from..at + to, new);
            version += 1;
            c.notify(
                "textDocument/didChange",
                serde_json::json!({"textDocument": {"uri": device, "version": version},
                "contentChanges": [{"range": {"start": {"line": line - 1, "character": from},
                                              "end": {"line": line - 1, "character": to}},
                                    "text": new}]}),
            );
        };
    change(
        &client,
        &mut text,
        43,
        0,
        0,
        "        let _a = 1;\n        let _b = 2;\n",
    );
    let mps = text.lines().nth(54).unwrap().find("mps").unwrap();
    change(&client, &mut text, 55, mps, mps + 3, "cpu");
    client.until("the findings moved by two lines, one gone", |c| {
        c.published.get(&device) == Some(&findings(&[45, 78]))
    });
    // A new comparison written in a body: only the model knows `kind`'s type.
    change(
        &client,
        &mut text,
        55,
        0,
        0,
        "    let kind = current_kind();\n    let _ = kind.name() == \"vulkan\";\n",
    );
    client.until("the new finding", |c| {
        c.published.get(&device) == Some(&findings(&[45, 56, 80]))
    });
    // An item added above (the items change: the model is built again).
    change(&client, &mut text, 3, 0, 0, "pub fn added() {}\n");
    client.until("the findings after a new item", |c| {
        c.published.get(&device) == Some(&findings(&[46, 57, 81]))
    });
    // What `check` says of the same text, written.
    std::fs::write(root.join("src/device.rs"), &text).unwrap();
    let expected = check_findings(&root);
    assert_eq!(client.published.get(&device), expected.get(&device));
    assert_eq!(client.published.get(&graph), expected.get(&graph));
    client.stop();
}

/// An edit that changes what the package learns (issue 19): the rejecting
/// body of `define_device` taken away (its wrapper `add_device` then
/// registers nothing, and the duplicate of `init_devices` goes) and put
/// back, twice. The files read again in the rounds of learning are kept
/// as each round read them (`run::cache`); at each step the findings are
/// `check`'s on the same text.
#[test]
fn an_edit_changing_what_is_learned_gives_check_s_findings() {
    let fixture = "lints/duplicate_registration/bad_helper_registries";
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("served");
    let mirror = dir.path().join("checked");
    package_of_fixture(&root, fixture);
    package_of_fixture(&mirror, fixture);
    let rejecting = std::fs::read_to_string(root.join("src/registry.rs")).unwrap();
    let rejection = "        if self.devices.contains_key(name) {\n            \
                     return Err(format!(\"device {name} already defined\"));\n        }\n";
    assert!(rejecting.contains(rejection));
    let accepting = rejecting.replace(rejection, "");
    // What `check` reports on each text, by the served package's URIs.
    let expected = |text: &str| {
        std::fs::write(mirror.join("src/registry.rs"), text).unwrap();
        let (from, to) = (mirror.display().to_string(), root.display().to_string());
        (check_findings(&mirror).into_iter())
            .map(|(uri, found)| (uri.replace(&from, &to), found))
            .collect::<std::collections::HashMap<_, _>>()
    };
    let (with_rejection, without) = (expected(&rejecting), expected(&accepting));
    assert_ne!(with_rejection, without, "the edit changes the findings");
    let registry = format!("file://{}/src/registry.rs", root.display());
    let mut client = Client::start(&root);
    client.notify(
        "textDocument/didOpen",
        serde_json::json!({"textDocument": {"uri": registry, "languageId": "rust", "version": 1, "text": rejecting}}),
    );
    let shows = |c: &Client, expected: &std::collections::HashMap<String, Vec<(u64, String)>>| {
        (expected.keys().chain(c.published.keys())).all(|file| {
            let published = c.published.get(file).map_or(&[][..], Vec::as_slice);
            published == expected.get(file).map_or(&[][..], Vec::as_slice)
        })
    };
    client.until("check's findings", |c| shows(c, &with_rejection));
    for (version, (text, expected)) in [
        (&accepting, &without),
        (&rejecting, &with_rejection),
        (&accepting, &without),
        (&rejecting, &with_rejection),
    ]
    .into_iter()
    .enumerate()
    {
        client.notify(
            "textDocument/didChange",
            serde_json::json!({"textDocument": {"uri": registry, "version": version + 2},
                               "contentChanges": [{"text": text}]}),
        );
        client.until(&format!("check's findings after edit {version}"), |c| {
            shows(c, expected)
        });
    }
    client.stop();
}
