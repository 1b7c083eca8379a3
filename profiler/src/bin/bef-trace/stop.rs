//! Stopping a recording before its program ends: on the first interrupt
//! (Ctrl-C, SIGINT) or when `--duration` runs out, the run is cancelled
//! through its `CancelHandle` (kernels not started are skipped, functions
//! not started do not run) and the recording keeps what ran, marked
//! partial. A second interrupt, or one once the recording is made, ends
//! the process at once with status 130. SIGUSR1 asks for a snapshot of
//! what was recorded so far; the handler only sets a flag, and the
//! recording's watcher thread writes the snapshot.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bef_trace::CancelHandle;
use bef_trace::capture::flight::{SlowKernel, StopOn};
use bef_trace::capture::recording::StopReason;
use signal_hook::consts::{SIGINT, SIGUSR1};
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
    /// Set by SIGUSR1 until a snapshot is taken.
    snapshot: Arc<AtomicBool>,
    deadline: Option<Instant>,
    stopped: Option<Stop>,
}

impl Watch {
    /// Installs the interrupt handlers and starts the clock.
    pub fn start(cancel: CancelHandle, duration: Option<Duration>) -> Result<Watch, String> {
        let interrupted = Arc::new(AtomicBool::new(false));
        let recorded = Arc::new(AtomicBool::new(false));
        let snapshot = Arc::new(AtomicBool::new(false));
        let install = || -> std::io::Result<()> {
            // The first interrupt sets `interrupted`; one that finds it set
            // (the second), or finds the recording made, ends the process.
            flag::register_conditional_shutdown(SIGINT, INTERRUPTED, interrupted.clone())?;
            flag::register_conditional_shutdown(SIGINT, INTERRUPTED, recorded.clone())?;
            flag::register(SIGINT, interrupted.clone())?;
            flag::register(SIGUSR1, snapshot.clone())?;
            Ok(())
        };
        install().map_err(|e| format!("cannot handle interrupts: {e}"))?;
        Ok(Watch {
            cancel,
            interrupted,
            recorded,
            snapshot,
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
        self.cancel.cancel_because(match stop {
            Stop::Interrupt => StopReason::Interrupted,
            Stop::Duration => StopReason::Duration,
        });
        self.stopped = Some(stop);
        Some(stop)
    }

    /// Whether a snapshot was asked for (SIGUSR1) since the last call.
    pub fn snapshot_requested(&self) -> bool {
        self.snapshot.swap(false, Ordering::Relaxed)
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

/// Parses one `--stop-on` condition into `stop_on`: `error`, or
/// `slow:PATTERN>TIME` (a kernel pattern as `critical-path --speedup`
/// takes it, a time as `--duration`).
pub fn parse_stop_on(text: &str, stop_on: &mut StopOn) -> Result<(), String> {
    if text == "error" {
        stop_on.error = true;
        return Ok(());
    }
    let Some(slow) = text.strip_prefix("slow:") else {
        return Err(format!(
            "--stop-on {text:?}: give error or slow:PATTERN>TIME (slow:usleep>50ms)"
        ));
    };
    let Some((pattern, time)) = slow.rsplit_once('>') else {
        return Err(format!(
            "--stop-on {text:?}: a slow kernel is PATTERN>TIME (slow:usleep>50ms)"
        ));
    };
    if pattern.is_empty() {
        return Err(format!("--stop-on {text:?}: the kernel pattern is empty"));
    }
    let time = parse_duration(time).map_err(|e| format!("--stop-on {text:?}: {e}"))?;
    stop_on.slow.push(SlowKernel {
        pattern: pattern.to_string(),
        nanos: u64::try_from(time.as_nanos()).unwrap_or(u64::MAX),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_conditions_parse() {
        let mut stop_on = StopOn::default();
        parse_stop_on("error", &mut stop_on).unwrap();
        parse_stop_on("slow:usleep#3>50ms", &mut stop_on).unwrap();
        assert!(stop_on.error);
        assert_eq!(
            stop_on.slow,
            [SlowKernel {
                pattern: "usleep#3".into(),
                nanos: 50_000_000
            }]
        );
        for bad in [
            "",
            "errors",
            "slow:",
            "slow:usleep",
            "slow:>5ms",
            "slow:x>0",
            "slow:x>5d",
        ] {
            assert!(parse_stop_on(bad, &mut StopOn::default()).is_err(), "{bad}");
        }
    }

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
