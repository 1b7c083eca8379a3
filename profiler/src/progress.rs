//! Progress of a long export on standard error: a line rewritten in place
//! (`bef-trace: perfetto: 45%`), shown only when the caller asks for it
//! (the binary does when standard error is a terminal, or with
//! `--progress`) and only once the work has taken a second, so quick
//! exports and tests print nothing.

use std::io::Write;
use std::time::{Duration, Instant};

/// How long work runs before its progress is shown.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// How often the line is rewritten.
const EVERY: Duration = Duration::from_millis(250);

/// Units of work between looks at the clock, so that counting costs
/// nothing per event.
const CHECK_EVERY: u64 = 1 << 14;

/// See the [module](self) documentation.
pub struct Progress {
    enabled: bool,
    label: &'static str,
    total: u64,
    done: u64,
    unchecked: u64,
    started: Instant,
    shown: Option<Instant>,
}

impl Progress {
    /// Progress of `total` units of work called `label`; silent unless
    /// `enabled`.
    pub fn new(enabled: bool, label: &'static str, total: u64) -> Progress {
        Progress {
            enabled,
            label,
            total,
            done: 0,
            unchecked: 0,
            started: Instant::now(),
            shown: None,
        }
    }

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
            Some(last) => now.duration_since(last) >= EVERY,
        };
        if due {
            self.shown = Some(now);
            let percent = (u128::from(self.done) * 100 / u128::from(self.total.max(1))).min(100);
            // Progress that cannot be shown is not worth failing for.
            let _ = write!(std::io::stderr(), "\rbef-trace: {}: {percent}%", self.label);
        }
    }
}

impl Drop for Progress {
    /// Ends the line, if one was shown.
    fn drop(&mut self) {
        if self.shown.is_some() {
            let _ = writeln!(std::io::stderr(), "\rbef-trace: {}: done", self.label);
        }
    }
}
