//! A long step of the command (reading a recording, analysing it) told on
//! standard error while it lasts, when progress is shown: after a second,
//! `bef-trace: reading x.beftrace: 3s`, rewritten each second, then how
//! long it took. The exports count their own progress
//! (`bef_trace::progress`); these steps have no count to show.

use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long a step runs silently, and how often it is told after that.
const EVERY: Duration = Duration::from_secs(1);

/// Runs `work`, telling `what` (already escaped) while it lasts if `shown`.
pub fn run<T>(shown: bool, what: &str, work: impl FnOnce() -> T) -> T {
    if !shown {
        return work();
    }
    let (done, finished) = mpsc::channel::<()>();
    let what = what.to_owned();
    let ticker = std::thread::spawn(move || {
        let started = Instant::now();
        let mut told = false;
        while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(EVERY) {
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
