//! Progress of long work on standard error, shown only when the caller
//! asks for it (the binary does when standard error is a terminal, or with
//! `--progress`) and only once the work has taken a second, so quick work
//! and tests print nothing. One [`Progress`] is handed to every export and
//! to the command's own steps, and tells work in one of two ways:
//! - work that counts its units ([`Progress::count`]): a percentage
//!   rewritten in place (`bef-trace: Perfetto: 45%`), then `done`;
//! - a step with nothing to count ([`Progress::step`]: reading, analysing,
//!   drawing): how long it has taken (`bef-trace: reading x.beftrace:
//!   3s`), rewritten each second, then how long it took.

use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long work runs before its progress is shown.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// How often a count is rewritten.
const COUNT_EVERY: Duration = Duration::from_millis(250);

/// How often a step is rewritten.
const STEP_EVERY: Duration = Duration::from_secs(1);

/// Units of work between looks at the clock, so that counting costs
/// nothing per event.
const CHECK_EVERY: u64 = 1 << 14;

/// Whether progress is shown; see the [module](self) documentation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    shown: bool,
}

impl Progress {
    /// Progress that is never shown.
    pub const HIDDEN: Progress = Progress { shown: false };

    /// Progress shown on standard error if `shown`.
    pub fn new(shown: bool) -> Progress {
        Progress { shown }
    }

    /// Whether progress is shown.
    pub fn shown(self) -> bool {
        self.shown
    }

    /// Counts progress through `total` units of work called `label`.
    pub fn count(self, label: &'static str, total: u64) -> Counter {
        Counter {
            enabled: self.shown,
            label,
            total,
            done: 0,
            unchecked: 0,
            started: Instant::now(),
            shown: None,
        }
    }

    /// Runs `work`, telling `what` (already escaped) and how long it has
    /// taken while it lasts.
    pub fn step<T>(self, what: &str, work: impl FnOnce() -> T) -> T {
        if !self.shown {
            return work();
        }
        let (done, finished) = mpsc::channel::<()>();
        let what = what.to_owned();
        let ticker = std::thread::spawn(move || {
            let started = Instant::now();
            let mut told = false;
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(STEP_EVERY) {
                told = true;
                let seconds = started.elapsed().as_secs();
                // Progress that cannot be shown is not worth failing for.
                let _ = write!(std::io::stderr(), "\rbef-trace: {what}: {seconds}s");
            }
            if told {
                let seconds = started.elapsed().as_secs_f64();
                let _ = writeln!(
                    std::io::stderr(),
                    "\rbef-trace: {what}: done in {seconds:.1}s"
                );
            }
        });
        let result = work();
        let _ = done.send(());
        let _ = ticker.join();
        result
    }
}

/// Work counting its units, from [`Progress::count`]; the line it showed,
/// if any, ends when it is dropped.
pub struct Counter {
    enabled: bool,
    label: &'static str,
    total: u64,
    done: u64,
    unchecked: u64,
    started: Instant,
    shown: Option<Instant>,
}

impl Counter {
    /// Counts `units` more done.
    pub fn advance(&mut self, units: u64) {
        self.done = self.done.saturating_add(units);
        self.unchecked = self.unchecked.saturating_add(units);
        if !self.enabled || self.unchecked < CHECK_EVERY {
            return;
        }
        self.unchecked = 0;
        let now = Instant::now();
        let due = match self.shown {
            None => now.duration_since(self.started) >= QUIET_FOR,
            Some(last) => now.duration_since(last) >= COUNT_EVERY,
        };
        if due {
            self.shown = Some(now);
            let percent = (u128::from(self.done) * 100 / u128::from(self.total.max(1))).min(100);
            // Progress that cannot be shown is not worth failing for.
            let _ = write!(std::io::stderr(), "\rbef-trace: {}: {percent}%", self.label);
        }
    }
}

impl Drop for Counter {
    /// Ends the line, if one was shown.
    fn drop(&mut self) {
        if self.shown.is_some() {
            let _ = writeln!(std::io::stderr(), "\rbef-trace: {}: done", self.label);
        }
    }
}
