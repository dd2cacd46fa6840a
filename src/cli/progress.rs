//! Progress on stderr, drawn only on a terminal and only after a second.

use std::io::IsTerminal;

/// Run `f` with a progress bar on stderr when it is a terminal (and `show`):
/// files done of the total, then that what they share is analysed. It is
/// drawn only after a second (whether or not a file is done by then), so
/// short runs print nothing.
pub(super) fn with_progress<R>(show: bool, f: impl FnOnce(&(dyn Fn(usize) + Sync)) -> R) -> R {
    if !show || !std::io::stderr().is_terminal() {
        return f(&|_| {});
    }
    let bar = indicatif::ProgressBar::hidden();
    let style =
        indicatif::ProgressStyle::with_template("{spinner} checking {pos}/{len} files{msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    after_a_second(&bar, || {
        f(&|total| {
            bar.set_length(total as u64);
            bar.inc(1);
            if bar.position() == total as u64 {
                bar.set_message(", then across files");
            }
        })
    })
}

/// Run `f` with a spinner saying `message` on stderr when it is a terminal
/// (and `show`), drawn only after a second.
pub(super) fn with_spinner<R>(show: bool, message: &'static str, f: impl FnOnce() -> R) -> R {
    if !show || !std::io::stderr().is_terminal() {
        return f();
    }
    let bar = indicatif::ProgressBar::hidden();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    bar.set_message(message);
    after_a_second(&bar, f)
}

/// Run `f`, drawing `bar` on stderr once it has run a second, and clear it.
pub(super) fn after_a_second<R>(bar: &indicatif::ProgressBar, f: impl FnOnce() -> R) -> R {
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let result = std::thread::scope(|scope| {
        scope.spawn(move || {
            let second = std::time::Duration::from_secs(1);
            if finished.recv_timeout(second) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(4));
                bar.enable_steady_tick(std::time::Duration::from_millis(250));
            }
        });
        let result = f();
        drop(done);
        result
    });
    bar.finish_and_clear();
    result
}
