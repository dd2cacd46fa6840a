//! Text from the checkout cannot inject output: registration keys, platform
//! literals, comments, suppression comments and a file name that carry line
//! breaks, terminal escapes (SGR, OSC 8 hyperlinks, OSC 0 titles), BEL and
//! other C0 and C1 controls, bidi overrides, line separators and a GitHub
//! workflow command go through every format of the real binary. Text
//! formats must show them visibly on the line they belong to; JSON formats
//! must give the original text back.

mod common;

use std::path::Path;
use std::process::Command;

use common::write;
use serde_json::Value;

/// What a hostile pull request writes: a workflow command on a line of its
/// own, escapes, controls, bidi overrides, a separator, Markdown and HTML.
const PAYLOAD: &str = "\n::error file=README.md,line=1::INJECTED\x1b[31m red \
    \x1b]8;;https://evil.example\x07link\x1b]8;;\x07\x1b]0;title\x07\x07\x01\x08\x0b\x0c\x7f\
    \u{9b}2J\u{85}\u{202e}\u{2066}\u{2028}| <img src=x> **b**";

/// `s` as a Rust string literal body made of escapes only.
fn escaped(s: &str) -> String {
    s.chars().flat_map(char::escape_default).collect()
}

/// The payload as a comment can hold it (no line break).
fn one_line(s: &str) -> String {
    s.replace(['\n', '\u{2028}'], " ")
}

/// A file name holding the payload (as a name can: no `/`).
fn payload_file(first: char) -> String {
    format!("{first}{}.rs", one_line(PAYLOAD).replace('/', "_"))
}

/// A crate whose findings quote the payload: duplicate keys written with
/// escapes, with the raw characters, and in a raw string over two lines; a
/// lowering platform; an invalid suppression comment; a file named with the
/// payload; one that does not parse (a module: not analysed) and one that no
/// target compiles (skipped, a warning on stderr).
fn hostile_crate(dir: &Path) {
    write(
        dir,
        "Cargo.toml",
        "[package]\nname = \"hostile\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    let escaped_key = format!("a{}\\r", escaped(PAYLOAD));
    let raw_key = format!("b{PAYLOAD}");
    let comment = one_line(PAYLOAD);
    let broken = payload_file('k');
    let lib = format!(
        "#[path = \"{}\"] mod broken;\n\
         pub struct Registry;\n\
         impl Registry {{ pub fn register_backend(&mut self, _n: &str, _f: fn()) {{}} }}\n\
         fn factory() {{}}\n\
         // {comment}\n\
         pub fn escaped(r: &mut Registry) {{\n    \
             r.register_backend(\"{escaped_key}\", factory);\n    \
             r.register_backend(\"{escaped_key}\", factory);\n\
         }}\n\
         pub fn raw(r: &mut Registry) {{\n    \
             r.register_backend(\"{raw_key}\", factory); /* {comment} */ r.register_backend(\"{raw_key}\", factory);\n\
         }}\n\
         pub fn raw_string(r: &mut Registry) {{\n    \
             r.register_backend(r#\"c{raw_key}\"#, factory);\n    \
             r.register_backend(r#\"c{raw_key}\"#, factory);\n\
         }}\n\
         pub fn lowering(ctx: &LoweringContext) {{\n    \
             lower(ctx, &[\"cpu\", \"d{escaped_key}\"]);\n\
         }}\n\
         // backend-lint: allow(e{}) --\n\
         pub fn after(r: &mut Registry) {{\n    \
             r.register_backend(\"f\", factory);\n\
         }}\n",
        escaped(&broken),
        comment.replace(['(', ')'], "")
    );
    let unparsable = format!("fn broken( {{ // {comment}\n");
    write(&dir.join("src"), &broken, &unparsable);
    write(&dir.join("src"), &payload_file('l'), &unparsable);
    write(dir, "src/lib.rs", lib);
    write(
        &dir.join("src"),
        &payload_file('g'),
        format!(
            "// {comment}\npub fn init(r: &mut crate::Registry) {{\n    \
             r.register_backend(\"h\", crate::factory);\n    \
             r.register_backend(\"h\", crate::factory);\n}}\n"
        ),
    );
}

struct Run {
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str], summary: Option<&Path>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_backend-lint"));
    cmd.current_dir(dir).args(["check", "."]).args(args);
    match summary {
        Some(path) => cmd.env("GITHUB_STEP_SUMMARY", path),
        None => cmd.env_remove("GITHUB_STEP_SUMMARY"),
    };
    let out = cmd.output().unwrap();
    let run = Run {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    // 2: the findings, and a file not analysed.
    assert_eq!(out.status.code(), Some(2), "{args:?}:\n{}", run.stderr);
    run
}

/// A character no output may hold raw: a control other than the line
/// break, a bidi control, a line or paragraph separator.
fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}'
        )
        || matches!(c, '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// No hidden character, and no line that starts a workflow command.
fn assert_inert(what: &str, text: &str) {
    if let Some(c) = text.chars().find(|&c| is_hidden(c)) {
        panic!("{what}: holds {c:?}:\n{text}");
    }
    if let Some(line) = text.lines().find(|l| l.trim_start().starts_with("::")) {
        panic!("{what}: a line starts a workflow command: {line:?}\n{text}");
    }
}

/// The text without `ESC [ digits ; ... m`: the colors of `--color always`.
fn without_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\x1b[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let params = after.find(|c: char| !(c.is_ascii_digit() || c == ';'));
        match params {
            Some(n) if after[n..].starts_with('m') => rest = &after[n + 1..],
            // Not a color: kept, for assert_inert to find.
            _ => {
                out.push_str("\x1b[");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every message, label and help of a `--format json` report.
fn json_texts(report: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for d in report["diagnostics"].as_array().unwrap() {
        for key in ["message", "label", "help"] {
            out.extend(d[key].as_str().map(str::to_string));
        }
        out.push(d["span"]["file"].as_str().unwrap().to_string());
    }
    out
}

fn hostile() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    hostile_crate(dir.path());
    dir
}

#[test]
fn text_formats_show_hostile_text_on_its_own_line() {
    let dir = hostile();
    let json = run(dir.path(), &["--format", "json"], None).stdout;
    let json: Value = serde_json::from_str(&json).unwrap();
    let count = |key: &str| json[key].as_array().unwrap().len();
    let short = run(dir.path(), &["--format", "short"], None).stdout;
    assert_inert("short", &short);
    assert_eq!(
        short.lines().count(),
        count("diagnostics") + count("errors") + count("skipped"),
        "{short}"
    );
    assert!(
        short.contains("a␊::error file=README.md,line=1::INJECTED␛[31m"),
        "{short}"
    );
    let never = run(dir.path(), &["--format", "human", "--color", "never"], None);
    assert_inert("human", &never.stdout);
    assert_inert("human, stderr", &never.stderr);
    // The human report lists skipped files itself (on stdout).
    assert!(
        never.stdout.contains("skipped `src/l ::error"),
        "{}",
        never.stdout
    );
    assert!(never.stdout.contains("␛]8;;https"), "{}", never.stdout);
    assert!(never.stdout.contains("\\u{202e}"), "{}", never.stdout);
    let always = run(
        dir.path(),
        &["--format", "human", "--color", "always"],
        None,
    )
    .stdout;
    let uncolored = without_sgr(&always);
    assert_inert("human --color always", &uncolored);
    assert_eq!(uncolored, never.stdout, "only colors differ");
}

#[test]
fn an_excerpt_header_counts_characters_of_the_file() {
    let dir = hostile();
    let short = run(dir.path(), &["--format", "short"], None).stdout;
    // The second registration of `raw` follows the raw payload on its line:
    // the excerpt's pictures and escapes, and colors, must not move its
    // column (miette counts bytes of what it is given).
    let raw = short
        .lines()
        .find(|l| l.contains("[duplicate_registration]: `b"))
        .unwrap();
    let at = raw.split(": ").next().unwrap();
    for color in ["never", "always"] {
        let human = run(dir.path(), &["--format", "human", "--color", color], None).stdout;
        let human = without_sgr(&human);
        assert!(human.contains(&format!("[{at}]")), "{color}: {at}\n{human}");
    }
}

#[test]
fn github_commands_are_ours_only() {
    let dir = hostile();
    let summary_dir = tempfile::tempdir().unwrap();
    let summary = summary_dir.path().join("summary.md");
    let out = run(dir.path(), &["--format", "github"], Some(&summary));
    assert_inert("github, stderr", &out.stderr);
    let mut findings = 0;
    for line in out.stdout.lines() {
        if let Some(c) = line.chars().find(|&c| is_hidden(c)) {
            panic!("github: holds {c:?}: {line:?}");
        }
        let command = ["::error ", "::warning ", "::notice "]
            .iter()
            .find(|c| line.starts_with(**c))
            .unwrap_or_else(|| panic!("github: not a command of ours: {line:?}"));
        let (properties, message) = line[command.len()..].split_once("::").unwrap();
        for property in properties.split(',') {
            let (key, value) = property.split_once('=').unwrap();
            assert!(
                ["file", "line", "endLine", "col", "endColumn", "title"].contains(&key),
                "{line:?}"
            );
            assert!(!value.contains(':'), "{line:?}");
        }
        let about_a_file = ["file not analysed", "file skipped"];
        if !line.starts_with("::notice ") && !about_a_file.iter().any(|t| properties.contains(t)) {
            findings += 1;
        }
        assert!(!message.contains("%0A::"), "{line:?}");
    }
    // The file name, shown visibly, with `:` and `,` escaped as properties.
    let file = "::error file=src/g %3A%3Aerror file=README.md%2Cline=1%3A%3AINJECTED␛[31m";
    assert!(out.stdout.contains(file), "{}", out.stdout);
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert_inert("step summary", &summary);
    let rows: Vec<&str> = summary.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(rows.len(), findings + 2, "{summary}");
    for row in rows {
        let markup = unescaped(row);
        assert_eq!(markup.matches('|').count(), 4, "{row}");
        assert!(!markup.contains(['<', '*']), "{row}");
    }
}

/// A table row without its backslash escapes: GitHub's table reads a
/// backslash and the character after it as one, and splits cells at the
/// `|` left.
fn unescaped(row: &str) -> String {
    let mut out = String::new();
    let mut chars = row.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => drop(chars.next()),
            c => out.push(c),
        }
    }
    out
}

#[test]
fn json_formats_escape_hostile_text_and_give_it_back() {
    let dir = hostile();
    let json = run(dir.path(), &["--format", "json"], None).stdout;
    assert_inert("json", &json);
    let report: Value = serde_json::from_str(&json).unwrap();
    let texts = json_texts(&report);
    let key = format!("b{PAYLOAD}");
    assert!(texts.iter().any(|t| t.contains(&key)), "{texts:?}");
    assert!(
        texts.contains(&format!("src/{}", payload_file('g'))),
        "{texts:?}"
    );
    let error = &report["errors"][0];
    assert_eq!(error["file"], format!("src/{}", payload_file('k')).as_str());
    for format in ["sarif", "gitlab"] {
        let text = run(dir.path(), &["--format", format], None).stdout;
        assert_inert(format, &text);
        let value: Value = serde_json::from_str(&text).unwrap();
        assert!(value.to_string().contains(&escaped_json(&key)), "{text}");
    }
    let rustc = run(dir.path(), &["--format", "rustc"], None).stdout;
    assert_inert("rustc", &rustc);
    let lines: Vec<Value> = rustc
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect();
    let reported = |key: &str| report[key].as_array().unwrap().len();
    assert_eq!(
        lines.len(),
        reported("diagnostics") + reported("errors") + reported("skipped")
    );
    let raw = lines
        .iter()
        .find(|l| l["message"].as_str().unwrap().contains(&key))
        .unwrap();
    // The lines of the key's span, as in the file.
    let lines: Vec<&str> = raw["spans"][0]["text"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert!(
        lines.join("\n").contains(&format!("\"{key}\"")),
        "{lines:?}"
    );
    let rendered = raw["rendered"].as_str().unwrap();
    assert_inert("rustc rendered", rendered);
    // Message, place, help, the fix's help and the documentation's: the
    // key's newline adds none.
    assert_eq!(rendered.lines().count(), 5, "{rendered}");
}

/// `s` as serde_json writes it inside a string, without the quotes.
fn escaped_json(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap();
    quoted[1..quoted.len() - 1].to_string()
}

#[test]
fn a_hostile_configuration_error_is_shown_visibly() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/lib.rs", "pub fn f() {}\n");
    let comment = one_line(PAYLOAD);
    let config = format!("# {comment}\nplatforms{comment} = 1\n");
    write(dir.path(), "backend-lint.toml", config);
    let out = run(dir.path(), &["--color", "never"], None);
    assert!(out.stderr.contains("␛]0;title␇"), "{}", out.stderr);
    assert_inert("configuration error", &out.stderr);
}

/// A baseline is committed, so its entries are the checkout's text: a stale
/// entry and an unknown key are shown visibly on stderr, one line each.
#[test]
fn a_hostile_baseline_is_shown_visibly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "pub fn f() {}\n").unwrap();
    let entry = serde_json::json!({
        "lint": "duplicate_registration",
        "path": format!("src/{PAYLOAD}.rs"),
        "fingerprint": "0:1",
        "message": format!("m{PAYLOAD}"),
    });
    let stale = serde_json::json!({ "version": 1, "findings": [entry] });
    std::fs::write(dir.path().join("stale.json"), stale.to_string()).unwrap();
    let mut unknown = serde_json::json!({ "version": 1, "findings": [] });
    unknown[PAYLOAD] = serde_json::json!(1);
    std::fs::write(dir.path().join("unknown.json"), unknown.to_string()).unwrap();
    for baseline in ["stale.json", "unknown.json"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_backend-lint"))
            .current_dir(dir.path())
            .args(["check", "src", "--baseline", baseline])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_inert(baseline, &stderr);
        assert!(stderr.contains("INJECTED"), "{baseline}: {stderr}");
    }
}

/// `--diff` prints file names and source lines: both are the checkout's.
/// A file whose name cannot be a patch header (a line break, a control) is
/// refused, and said so on stderr; the lines of the others are shown
/// visibly (a lone CR, ESC, BEL, RLO), tabs and CRLF line ends kept.
#[test]
fn a_diff_shows_hostile_names_and_lines_visibly() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"hostile\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    let fixable = |comment: &str| {
        format!(
            "pub fn is_cuda(name: &str) -> bool {{\n    // {comment}\n\t\
             crate::canonicalize_platform(name) == \"CUDA\"\r\n}}\n"
        )
    };
    let named = "a\n::error file=README.md,line=1::INJECTED\n.rs";
    let lib = format!(
        "#[path = \"{}\"] mod named;\nmod lines;\n\
         pub fn canonicalize_platform(p: &str) -> String {{ p.to_lowercase() }}\n",
        escaped(named)
    );
    write(dir.path(), "src/lib.rs", lib);
    write(&dir.path().join("src"), named, fixable("plain"));
    let hostile_line = "x\ry\x1b[2J\x07\u{202e}z";
    write(dir.path(), "src/lines.rs", fixable(hostile_line));
    let out = Command::new(env!("CARGO_BIN_EXE_backend-lint"))
        .current_dir(dir.path())
        .args(["check", ".", "--diff"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // CRLF and tabs kept as the file has them; nothing else hidden.
    assert_inert("diff", &stdout.replace("\r\n", "\n").replace('\t', " "));
    assert_inert("diff, stderr", &stderr);
    assert!(stdout.contains("--- a/src/lines.rs\n"), "{stdout}");
    assert!(stdout.contains("     // x␍y␛[2J␇\\u{202e}z\n"), "{stdout}");
    assert!(
        stdout.contains("+\tcrate::canonicalize_platform(name) == \"cuda\"\r\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("INJECTED"), "{stdout}");
    assert!(
        stderr.contains("src/a␊::error file=README.md,line=1::INJECTED␊.rs"),
        "{stderr}"
    );
    assert!(stderr.contains("patch header"), "{stderr}");
    // The diff is incomplete: the run could not do all its job.
    assert_eq!(out.status.code(), Some(2), "{stderr}");
}
