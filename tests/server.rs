//! `backend-lint server` with real clients (issue 30): pytest-lsp's
//! scripted client for the protocol's edge cases
//! (`tests/editors/test_protocol.py`), and Neovim's built-in client
//! opening a crate, editing it, applying a quick fix and writing the file
//! (`tests/editors/nvim.lua`). `.ci/run` installs both; a missing one
//! fails the test, unless `BACKEND_LINT_SKIP_EDITOR_TESTS` is set (never
//! in CI), so that `cargo test` on a machine without them says so.

use std::path::{Path, PathBuf};
use std::process::Command;

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

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
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
