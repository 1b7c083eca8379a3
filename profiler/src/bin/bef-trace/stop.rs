//! Stopping a recording before its program ends: on the first interrupt
//! (Ctrl-C, SIGINT) or when `--duration` runs out, the run is cancelled
//! through its `CancelHandle` (kernels not started are skipped, functions
//! not started do not run) and the recording keeps what ran, marked
//! partial. A second interrupt, or one once the recording is made, ends
//! the process at once with status 130.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bef_trace::CancelHandle;
use signal_hook::consts::SIGINT;
use signal_hook::flag;

/// The exit status after an interrupt that ends the process.
pub const INTERRUPTED: i32 = 130;

/// Why a recording stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Interrupted (SIGINT).
    Interrupt,
    /// `--duration` ran out.
    Duration,
}

/// Watches for an interrupt and the deadline while a recording runs.
pub struct Watch {
    cancel: CancelHandle,
    interrupted: Arc<AtomicBool>,
    recorded: Arc<AtomicBool>,
    deadline: Option<Instant>,
    stopped: Option<Stop>,
}

impl Watch {
    /// Installs the interrupt handlers and starts the clock.
    pub fn start(cancel: CancelHandle, duration: Option<Duration>) -> Result<Watch, String> {
        let interrupted = Arc::new(AtomicBool::new(false));
        let recorded = Arc::new(AtomicBool::new(false));
        let install = || -> std::io::Result<()> {
            // The first interrupt sets `interrupted`; one that finds it set
            // (the second), or finds the recording made, ends the process.
            flag::register_conditional_shutdown(SIGINT, INTERRUPTED, interrupted.clone())?;
            flag::register_conditional_shutdown(SIGINT, INTERRUPTED, recorded.clone())?;
            flag::register(SIGINT, interrupted.clone())?;
            Ok(())
        };
        install().map_err(|e| format!("cannot handle interrupts: {e}"))?;
        Ok(Watch {
            cancel,
            interrupted,
            recorded,
            deadline: duration.and_then(|d| Instant::now().checked_add(d)),
            stopped: None,
        })
    }

    /// Cancels the run if an interrupt came or the deadline passed; the
    /// reason, the first time.
    pub fn check(&mut self) -> Option<Stop> {
        if self.stopped.is_some() {
            return None;
        }
        let stop = if self.interrupted.load(Ordering::Relaxed) {
            Stop::Interrupt
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Stop::Duration
        } else {
            return None;
        };
        self.cancel.cancel();
        self.stopped = Some(stop);
        Some(stop)
    }

    /// Why the run was stopped, if it was.
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped
    }

    /// The recording is made: from now on an interrupt ends the process.
    pub fn finish(&self) {
        self.recorded.store(true, Ordering::Relaxed);
    }
}

/// Parses `--duration`: a number with a unit (`500ms`, `30s`, `2m`, `1h`),
/// seconds without one.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let seconds_per_unit = match unit {
        "" | "s" => 1.0,
        "ms" => 1e-3,
        "m" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(format!(
                "unknown unit {unit:?}: use ms, s, m or h (e.g. 30s)"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration (e.g. 500ms, 30s, 2m)"))?;
    Duration::try_from_secs_f64(value * seconds_per_unit)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{text:?} is not a duration above zero that fits"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        for bad in [
            "",
            "0",
            "s",
            "1d",
            "-1s",
            "1e400",
            "99999999999999999999999h",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
