//! Replacing a file whole. Baselines and `--output` reports are written to a
//! temporary file in the same folder, synced, then renamed over the old file:
//! whatever happens meanwhile (a full disk, a file-size limit, SIGINT or
//! SIGTERM, a second run writing the same file), a reader finds the old file
//! or the new one, never a truncated one, and no temporary file is left.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// Temporary files being written, removed by the signal watcher. The lock is
/// also held while a temporary file is renamed into place, so the watcher
/// never removes a file that has just become the real one, and a writer never
/// renames after the watcher has started to exit.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Write `bytes` to `path`, replacing it whole (see the module's doc).
///
/// The new file keeps the old one's permissions (a new file gets 0o666 less
/// the umask, as `fs::write` gives it). Links are never written through:
/// the current folder may be an untrusted checkout, where a committed
/// `report.sarif -> ~/.bashrc` or `reports -> /elsewhere` would have the
/// report overwrite a file outside it. So a link at `path` is replaced
/// itself, and a path whose folders below the current one include a link
/// is refused. A device the user names (`/dev/stdout`, `/proc/self/fd/1`)
/// is appended to in place: renaming over it is impossible, and truncating
/// it would cut a log that stdout is redirected to.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace_with(path, |out| out.write_all(bytes))
}

/// [`replace`] with what `write` writes: a report written as it is made.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if path.starts_with("/dev") || path.starts_with("/proc") {
        let mut file = std::fs::OpenOptions::new().append(true).open(path)?;
        return write(&mut file);
    }
    refuse_links_below_current_folder(path)?;
    let old = std::fs::symlink_metadata(path).ok();
    if old
        .as_ref()
        .is_some_and(|m| !m.is_file() && !m.is_symlink())
    {
        // A FIFO: it cannot be renamed over (and git cannot commit one).
        return write(&mut std::fs::File::create(path)?);
    }
    // A link keeps nothing of its target, permissions included.
    let old = old.filter(|m| m.is_file());
    watch_signals();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    let prefix = format!(
        ".{}.",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // Made and listed under the lock: a signal in between would leave it.
    let mut temp = {
        let mut pending = lock();
        let temp = builder.tempfile_in(dir)?;
        pending.push(temp.path().to_path_buf());
        temp
    };
    let temp_path = temp.path().to_path_buf();
    // Whatever fails from here, `temp` is dropped on return, which removes it.
    let written = (|| {
        // The old permissions before the bytes: a private file's new text
        // is never readable by more than the old one was.
        if let Some(old) = &old {
            temp.as_file().set_permissions(old.permissions())?;
        }
        let mut out = io::BufWriter::new(temp.as_file_mut());
        write(&mut out)?;
        out.flush()?;
        drop(out);
        temp.as_file().sync_all()
    })();
    let mut pending = lock();
    pending.retain(|p| *p != temp_path);
    // Renamed, or removed (dropped) on failure, while the lock is held.
    let result = written.and_then(|()| temp.persist(path).map(drop).map_err(|e| e.error));
    drop(pending);
    result?;
    // The rename is durable once the folder is synced; a folder that cannot
    // be opened or synced (some filesystems) still holds the whole new file.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// An error when a folder of `path` below the current folder is a link.
fn refuse_links_below_current_folder(path: &Path) -> io::Result<()> {
    let Ok(cwd) = std::env::current_dir() else {
        return Ok(());
    };
    let abs = std::path::absolute(path)?;
    let Ok(below) = abs.strip_prefix(&cwd) else {
        return Ok(());
    };
    let mut folder = cwd.clone();
    for part in below.parent().into_iter().flat_map(Path::components) {
        folder.push(part);
        if folder.symlink_metadata().is_ok_and(|m| m.is_symlink()) {
            return Err(io::Error::other(format!(
                "`{}` is a link: no report is written through a link in this folder, \
                 which may be an untrusted checkout",
                folder.strip_prefix(&cwd).unwrap_or(&folder).display()
            )));
        }
    }
    Ok(())
}

fn lock() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Once per process, before the first temporary file: SIGINT, SIGTERM and
/// SIGHUP remove the temporary files being written, then end the process as
/// the signal would. SIGXFSZ (over `ulimit -f`) is
/// caught so that the write fails with an error instead of killing the
/// process, and the temporary file is removed as on any other error.
fn watch_signals() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
        let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let _ = signal_hook::flag::register(SIGXFSZ, caught);
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let pending = lock();
                for p in pending.iter() {
                    let _ = std::fs::remove_file(p);
                }
                // End as the signal would have, so that a parent (a shell,
                // make, xargs) sees the signal, not an exit code.
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::replace;

    #[test]
    fn a_file_is_replaced_whole_and_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        replace(&path, b"first").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        replace(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    #[test]
    fn a_link_is_replaced_itself_never_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        std::fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        replace(&link, b"new").unwrap();
        assert!(!link.symlink_metadata().unwrap().is_symlink());
        assert_eq!(std::fs::read(&link).unwrap(), b"new");
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
    }

    #[test]
    fn a_folder_that_does_not_exist_is_an_error_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("report.json");
        assert!(replace(&path, b"x").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
