//! Baselines and `--output` reports replace their file whole: a file-size
//! limit, a signal or a second writer never leaves a truncated file, and no
//! temporary file is left behind. Real `ulimit -f`, real signals, real
//! concurrent processes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use common::write;

const BIN: &str = env!("CARGO_BIN_EXE_backend-lint");

/// A folder with `n` duplicate registrations of `key`: `n - 1` findings.
fn registrations(dir: &Path, key: &str, n: usize) {
    let calls = format!("    register_backend(\"{key}\", make);\n").repeat(n);
    write(dir, "src/lib.rs", format!("pub fn init() {{\n{calls}}}\n"));
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

/// `backend-lint check src ARGS` in `dir`, under `sh -c 'ulimit -f BLOCKS; ...'`.
fn with_file_limit(dir: &Path, blocks: u32, args: &str) -> std::process::Output {
    Command::new("sh")
        .current_dir(dir)
        .arg("-c")
        .arg(format!(
            "ulimit -f {blocks} && exec \"$0\" check src {args}"
        ))
        .arg(BIN)
        .output()
        .unwrap()
}

#[test]
fn a_file_size_limit_leaves_the_old_baseline_whole() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    registrations(root, "cuda", 3);
    let out = Command::new(BIN)
        .current_dir(root)
        .args(["check", "src", "--write-baseline", "baseline.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let old = std::fs::read(root.join("baseline.json")).unwrap();
    // Now a baseline far over the limit (8 blocks are at most 8 KiB).
    registrations(root, "cuda", 400);
    let out = with_file_limit(root, 8, "--write-baseline baseline.json");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write the baseline"), "{stderr}");
    assert_eq!(std::fs::read(root.join("baseline.json")).unwrap(), old);
    assert_eq!(names(root), ["baseline.json", "src"]);
}

#[test]
fn a_file_size_limit_leaves_the_old_report_whole() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    registrations(root, "cuda", 400);
    std::fs::write(root.join("report.sarif"), "the old report\n").unwrap();
    let out = with_file_limit(
        root,
        8,
        "--quiet --format short --output sarif=report.sarif",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot write the sarif report to `report.sarif`"),
        "{stderr}"
    );
    // stdout (a pipe) is not limited: the findings were still printed.
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 399);
    assert_eq!(
        std::fs::read_to_string(root.join("report.sarif")).unwrap(),
        "the old report\n"
    );
    assert_eq!(names(root), ["report.sarif", "src"]);
}

/// The baseline file is the old one or a whole new one: it parses, and holds
/// `old` or `new` findings.
fn whole_baseline(path: &Path, counts: &[usize]) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("not a whole baseline ({e}): {} bytes", text.len()));
    let n = json["findings"].as_array().unwrap().len();
    assert!(
        counts.contains(&n),
        "{n} findings, expected one of {counts:?}"
    );
    n
}

/// The moment a run starts writing `baseline` (the file changes, or a
/// temporary file appears beside it): polled as fast as the test can.
fn wait_for_the_write(baseline: &Path, before: &[String]) {
    let old = std::fs::metadata(baseline).unwrap();
    let dir = baseline.parent().unwrap();
    let started = Instant::now();
    while started.elapsed().as_secs() < 120 {
        let now = std::fs::metadata(baseline);
        let changed = now.is_err()
            || now.is_ok_and(|m| m.len() != old.len() || m.modified().ok() != old.modified().ok());
        if changed || names(dir) != before {
            return;
        }
    }
    panic!("the run never wrote its baseline");
}

#[test]
fn a_signal_during_the_write_leaves_the_old_baseline_or_the_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let baseline = root.join("baseline.json");
    let run = || {
        Command::new(BIN)
            .current_dir(root)
            .args([
                "check",
                "src",
                "--quiet",
                "--write-baseline",
                "baseline.json",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut ended_by_signal = 0;
    for (round, signal) in (0..6).zip(["TERM", "INT", "HUP"].iter().cycle()) {
        registrations(root, "cuda", 3);
        assert!(run().wait().unwrap().success());
        let before = names(root);
        // A baseline of a few MiB: its write is long enough to be hit.
        registrations(root, "cuda", 20_000);
        let mut child = run();
        wait_for_the_write(&baseline, &before);
        let killed = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success());
        // Killed before or after the rename (which is atomic): either way
        // a whole baseline, and the temporary file removed.
        let status = child.wait().unwrap();
        ended_by_signal +=
            usize::from(std::os::unix::process::ExitStatusExt::signal(&status).is_some());
        whole_baseline(&baseline, &[2, 19_999]);
        assert_eq!(names(root), ["baseline.json", "src"], "round {round}");
    }
    // The signals came while the runs were writing, not after they ended.
    assert!(ended_by_signal > 0, "no run ended on its signal");
}

#[test]
fn two_runs_writing_one_baseline_leave_one_whole_file() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    registrations(&a, "cuda", 3_000);
    registrations(&b, "rocm", 2_990);
    let baseline: PathBuf = dir.path().join("baseline.json");
    let run = |krate: &Path| {
        Command::new(BIN)
            .current_dir(krate)
            .args(["check", "src", "--write-baseline"])
            .arg(&baseline)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    for round in 0..50 {
        let (mut first, mut second) = (run(&a), run(&b));
        assert!(first.wait().unwrap().success());
        assert!(second.wait().unwrap().success());
        whole_baseline(&baseline, &[2_999, 2_989]);
        assert_eq!(
            names(dir.path()),
            ["a", "b", "baseline.json"],
            "round {round}"
        );
    }
}

/// `--output` to a path that is not a regular file (a FIFO here, as
/// `/dev/stdout` would be) is written in place, not renamed over.
#[test]
fn a_report_to_a_fifo_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    registrations(root, "cuda", 2);
    let fifo = root.join("report.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = Command::new(BIN)
        .current_dir(root)
        .args(["check", "src", "--quiet", "--output", "json=report.fifo"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let json: serde_json::Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_eq!(json["summary"]["diagnostics"], 1);
    let kind = fifo.symlink_metadata().unwrap().file_type();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kind));
}

/// A checkout may commit `report.sarif -> ~/.bashrc` or `reports -> /etc`:
/// a report is never written through a link of the current folder. A link
/// at the report's path is replaced itself; a linked folder is refused.
#[test]
fn reports_are_never_written_through_a_link_of_the_checkout() {
    let dir = tempfile::tempdir().unwrap();
    let (checkout, outside) = (dir.path().join("checkout"), dir.path().join("outside"));
    registrations(&checkout, "cuda", 2);
    write(&outside, "victim.sh", "#!/bin/sh\necho kept\n");
    std::os::unix::fs::symlink(outside.join("victim.sh"), checkout.join("report.txt")).unwrap();
    std::os::unix::fs::symlink(&outside, checkout.join("reports")).unwrap();
    let run = |output: &str| {
        Command::new(BIN)
            .current_dir(&checkout)
            .args([
                "check", "src", "--quiet", "--format", "json", "--output", output,
            ])
            .output()
            .unwrap()
    };
    let out = run("short=report.txt");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let report = checkout.join("report.txt");
    assert!(!report.symlink_metadata().unwrap().is_symlink());
    assert!(
        std::fs::read_to_string(&report)
            .unwrap()
            .contains("duplicate_registration")
    );
    let out = run("short=reports/x.txt");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("`reports` is a link"));
    assert_eq!(names(&outside), ["victim.sh"]);
    assert_eq!(
        std::fs::read_to_string(outside.join("victim.sh")).unwrap(),
        "#!/bin/sh\necho kept\n"
    );
}

/// `--output json=/dev/stdout` with stdout appended to a log (`>> ci.log`):
/// the report is added to the log, never renamed over it or truncating it.
#[test]
fn a_report_to_dev_stdout_appends_to_where_stdout_goes() {
    let dir = tempfile::tempdir().unwrap();
    registrations(dir.path(), "cuda", 2);
    std::fs::write(dir.path().join("ci.log"), "earlier steps\n").unwrap();
    let status = Command::new("sh")
        .current_dir(dir.path())
        .arg("-c")
        .arg("\"$0\" check src --quiet --format short --output json=/dev/stdout >> ci.log")
        .arg(BIN)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let log = std::fs::read_to_string(dir.path().join("ci.log")).unwrap();
    assert!(log.starts_with("earlier steps\n"), "{log}");
    assert!(log.contains("error[duplicate_registration]"), "{log}");
    assert!(log.contains("\"diagnostics\""), "{log}");
}

/// The same links, with the run started outside the checkout (`cd /var/tmp;
/// backend-lint check CHECKOUT --output sarif=CHECKOUT/reports/z.sarif`):
/// every link between the analysed folder and the file is refused, for a
/// report and for a baseline alike, whatever the current folder.
#[test]
fn links_of_the_checkout_are_refused_from_outside_it_too() {
    let dir = tempfile::tempdir().unwrap();
    let (checkout, outside) = (dir.path().join("checkout"), dir.path().join("outside"));
    registrations(&checkout, "cuda", 2);
    std::fs::create_dir_all(checkout.join("out")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, checkout.join("reports")).unwrap();
    // A link deeper down, below a real folder.
    std::os::unix::fs::symlink(&outside, checkout.join("out/deep")).unwrap();
    // Started in a folder of its own, the checkout named by its full path.
    let elsewhere = tempfile::tempdir().unwrap();
    let run = |flag: &str, value: &str| {
        let value = value.replace("CHECKOUT", &checkout.display().to_string());
        Command::new(BIN)
            .current_dir(elsewhere.path())
            .arg("check")
            .arg(&checkout)
            .args(["--quiet", flag, &value])
            .output()
            .unwrap()
    };
    for (args, link) in [
        (["--output", "sarif=CHECKOUT/reports/z.sarif"], "reports"),
        (["--output", "sarif=CHECKOUT/out/deep/z.sarif"], "out/deep"),
        (["--write-baseline", "CHECKOUT/reports/b.json"], "reports"),
        (["--write-baseline", "CHECKOUT/out/deep/b.json"], "out/deep"),
    ] {
        let out = run(args[0], args[1]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("`{link}` is a link")),
            "{args:?}: {stderr}"
        );
        assert!(
            names(&outside).is_empty(),
            "{args:?}: {:?}",
            names(&outside)
        );
    }
    // A real folder of the checkout is written to, from outside it too.
    let out = run("--output", "sarif=CHECKOUT/out/z.sarif");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(checkout.join("out/z.sarif").is_file());
}
