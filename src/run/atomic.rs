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
    replace_unless_changed(path, bytes, None)
}

/// What identifies a file as read: its device and inode, modification
/// time and length. Another file renamed over it, or any write to it,
/// changes one of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    dev: u64,
    ino: u64,
    mtime: Option<std::time::SystemTime>,
    len: u64,
}

impl Seen {
    /// The file at `path` as it is now (a link itself, not its target).
    pub fn of(path: &Path) -> io::Result<Seen> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::symlink_metadata(path)?;
        Ok(Seen {
            dev: m.dev(),
            ino: m.ino(),
            mtime: m.modified().ok(),
            len: m.len(),
        })
    }
}

/// Why [`replace_unless_changed`] did not write: the file is not the one
/// seen. A type, so that callers tell it from other errors by what it is
/// ([`is_changed`]), not by its text.
#[derive(Debug)]
pub struct Changed;

impl std::fmt::Display for Changed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the file changed since it was read")
    }
}

impl std::error::Error for Changed {}

fn changed_error() -> io::Error {
    io::Error::other(Changed)
}

/// Whether `e` is [`replace_unless_changed`]'s refusal of a changed file.
pub fn is_changed(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Changed>())
}

/// [`replace`], but only if the file at `path` is still the one `seen`
/// describes: checked again right before the rename (under the lock), so
/// an edit made while the new text was written is kept, and the error is
/// a [`Changed`] ([`is_changed`]).
pub fn replace_unless_changed(path: &Path, bytes: &[u8], seen: Option<&Seen>) -> io::Result<()> {
    write_file(path, |out| out.write_all(bytes), seen)
}

/// [`replace`] with what `write` writes: a report written as it is made.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_file(path, write, None)
}

/// What [`replace`], [`replace_unless_changed`] and [`replace_with`] do.
fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    seen: Option<&Seen>,
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
            keep_owner(temp.as_file(), old);
        }
        let mut out = io::BufWriter::new(temp.as_file_mut());
        write(&mut out)?;
        out.flush()?;
        drop(out);
        temp.as_file().sync_all()
    })();
    let mut pending = lock();
    pending.retain(|p| *p != temp_path);
    // The last look before the rename: the file is still the one read.
    let unchanged = || match seen {
        Some(seen) if Seen::of(path).ok().as_ref() != Some(seen) => Err(changed_error()),
        _ => Ok(()),
    };
    // Renamed, or removed (dropped) on failure, while the lock is held.
    let result = written
        .and_then(|()| unchanged())
        .and_then(|()| temp.persist(path).map(drop).map_err(|e| e.error));
    drop(pending);
    result?;
    // The rename is durable once the folder is synced; a folder that cannot
    // be opened or synced (some filesystems) still holds the whole new file.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// As [`replace_with`], refusing too a link in a folder of `path` below any of
/// `untrusted`: the folders analysed, their packages and repositories. A
/// run started outside the checkout (`cd /var/tmp; backend-lint check
/// CHECKOUT --output sarif=CHECKOUT/reports/z.sarif`) names its files by
/// their full path, where the current folder's rule does not reach.
pub fn replace_within(
    path: &Path,
    untrusted: &[PathBuf],
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if !(path.starts_with("/dev") || path.starts_with("/proc")) {
        for root in untrusted {
            refuse_links_below(path, root)?;
        }
    }
    replace_with(path, write)
}

/// The new file gets the old one's owner and group where the process may
/// set them (root may set both; a user, a group it belongs to): else it
/// stays the process's, as a new file would be.
fn keep_owner(file: &std::fs::File, old: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    if std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_err() {
        let _ = std::os::unix::fs::fchown(file, None, Some(old.gid()));
    }
}

/// An error when a folder of `path` below the current folder is a link.
fn refuse_links_below_current_folder(path: &Path) -> io::Result<()> {
    match std::env::current_dir() {
        Ok(cwd) => refuse_links_below(path, &cwd),
        Err(_) => Ok(()),
    }
}

/// An error when a folder of `path` below `root` is a link (`root` itself
/// is where the user points; what is below it is the checkout's).
fn refuse_links_below(path: &Path, root: &Path) -> io::Result<()> {
    let abs = std::path::absolute(path)?;
    let root = std::path::absolute(root)?;
    let Ok(below) = abs.strip_prefix(&root) else {
        return Ok(());
    };
    let mut folder = root.clone();
    for part in below.parent().into_iter().flat_map(Path::components) {
        folder.push(part);
        if folder.symlink_metadata().is_ok_and(|m| m.is_symlink()) {
            return Err(io::Error::other(format!(
                "`{}` is a link: no report is written through a link of the checkout \
                 (`{}`), which may be untrusted",
                folder.strip_prefix(&root).unwrap_or(&folder).display(),
                root.display()
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

    /// An edit made after the file was last read, while the new text is
    /// being written, is kept: the rename does not happen.
    #[test]
    fn a_file_changed_after_it_was_seen_is_not_replaced() {
        use super::{Seen, replace_unless_changed};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.rs");
        std::fs::write(&path, "old").unwrap();
        let seen = Seen::of(&path).unwrap();
        replace_unless_changed(&path, b"fixed", Some(&seen)).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"fixed");
        // Saved by an editor meanwhile, as a new file renamed over it (same
        // length, so only its identity tells).
        let seen = Seen::of(&path).unwrap();
        std::fs::write(dir.path().join("saved"), "FIXED").unwrap();
        std::fs::rename(dir.path().join("saved"), &path).unwrap();
        let err = replace_unless_changed(&path, b"again", Some(&seen)).unwrap_err();
        assert_eq!(err.to_string(), "the file changed since it was read");
        assert_eq!(std::fs::read(&path).unwrap(), b"FIXED");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    /// The owner and group are kept where the process may set them: as root,
    /// any; else a group the user belongs to.
    #[test]
    fn a_file_keeps_its_owner_and_group() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lib.rs");
        std::fs::write(&path, "old").unwrap();
        let me = std::fs::metadata(&path).unwrap();
        let (uid, gid) = if me.uid() == 0 {
            (4242, 4343)
        } else {
            // A group of the user's other than the file's, if any.
            let out = std::process::Command::new("id").arg("-G").output().unwrap();
            let groups = String::from_utf8_lossy(&out.stdout).into_owned();
            let other = (groups.split_whitespace())
                .filter_map(|g| g.parse::<u32>().ok())
                .find(|g| *g != me.gid());
            match other {
                Some(g) => (me.uid(), g),
                None => return eprintln!("no second group to test with"),
            }
        };
        std::os::unix::fs::chown(&path, Some(uid), Some(gid)).unwrap();
        replace(&path, b"new").unwrap();
        let now = std::fs::metadata(&path).unwrap();
        assert_eq!((now.uid(), now.gid()), (uid, gid));
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
