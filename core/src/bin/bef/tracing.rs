//! `bef run --enable-tracing`: the reference runner's debug tracing sink.
//! Scopes open and close as `Scope:NAME` and `End Scope` lines on standard
//! output: the run (`Bef Executor`, default level), each function the
//! runner calls (`Function: NAME`, debug level) and each kernel those run
//! that runs (its name, debug level, from the executor's observer
//! events; a kernel skipped for an error argument is not traced).
//!
//! The reference writes these lines to a buffered stream that is flushed
//! when its buffer fills or the run ends, so they come after the runner's
//! own (flushed) lines; this sink does the same, flushing at
//! [`FLUSH_BYTES`] and at the end.

use std::collections::HashMap;
use std::sync::Mutex;
use std::thread::ThreadId;

use bef::exec::{ExecEvent, Observer};
use clap::ValueEnum;

/// Buffered trace text written out once it grows past this many bytes.
pub const FLUSH_BYTES: usize = 64 * 1024;

/// Which scopes are traced: each level includes the ones before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum TracingLevel {
    /// The run's own scope.
    #[default]
    Default,
    /// As `default` (the reference has no scope at this level in the
    /// runner).
    Verbose,
    /// Also each function the runner calls and each kernel.
    Debug,
}

/// The debug tracing sink of one run.
pub struct DebugTracing {
    level: TracingLevel,
    buffer: Mutex<String>,
    /// Per thread, the kernel that started last and is not yet known to
    /// run rather than be skipped.
    pending: Mutex<HashMap<ThreadId, String>>,
}

impl DebugTracing {
    /// A sink recording scopes up to `level`.
    pub fn new(level: TracingLevel) -> Self {
        DebugTracing {
            level,
            buffer: Mutex::new(String::new()),
            pending: Mutex::new(HashMap::new()),
        }
    }

    /// Whether scopes of `level` are recorded.
    pub fn traces(&self, level: TracingLevel) -> bool {
        level <= self.level
    }

    /// Opens a scope of `level` named `name` (if that level is traced).
    pub fn push_scope(&self, level: TracingLevel, name: &str) {
        if self.traces(level) {
            self.append(&format!("Scope:{name}\n"));
        }
    }

    /// Closes the innermost scope of `level` (if that level is traced).
    pub fn pop_scope(&self, level: TracingLevel) {
        if self.traces(level) {
            self.append("End Scope\n");
        }
    }

    /// Writes out what is buffered.
    pub fn flush(&self) {
        let mut buffer = self.buffer.lock().unwrap_or_else(|e| e.into_inner());
        write_out(&mut buffer);
    }

    fn append(&self, text: &str) {
        let mut buffer = self.buffer.lock().unwrap_or_else(|e| e.into_inner());
        buffer.push_str(text);
        if buffer.len() >= FLUSH_BYTES {
            write_out(&mut buffer);
        }
    }
}

fn write_out(buffer: &mut String) {
    if buffer.is_empty() {
        return;
    }
    crate::console::out(buffer);
    buffer.clear();
}

impl Observer for DebugTracing {
    fn on_event(&self, event: &ExecEvent<'_>) {
        // The reference traces a kernel only when it runs, not when an
        // error argument or a cancellation skips it; a start is known to be
        // a run at the first event after it on its thread (a nested
        // function's, or its end), so it waits until then.
        let thread = event.thread();
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let started = pending.remove(&thread);
        drop(pending);
        match (event, started) {
            (ExecEvent::KernelEnd { skipped: true, .. }, Some(_)) => {}
            (event, started) => {
                if let Some(name) = started {
                    self.push_scope(TracingLevel::Debug, &name);
                }
                match event {
                    ExecEvent::KernelStart { name, .. } => {
                        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                        pending.insert(thread, (*name).to_owned());
                    }
                    ExecEvent::KernelEnd { skipped: false, .. } => {
                        self.pop_scope(TracingLevel::Debug);
                    }
                    _ => {}
                }
            }
        }
    }
}

impl Drop for DebugTracing {
    fn drop(&mut self) {
        self.flush();
    }
}
