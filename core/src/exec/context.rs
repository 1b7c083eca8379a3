//! What an execution carries besides its function: the host context and,
//! for tools, an observer.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::observer::{ExecutionId, Observer};
use crate::runtime::{AsyncValue, Diagnostic, HostContext};

/// Cheap to clone (two `Arc`s); kernels clone it into their continuations.
#[derive(Clone)]
pub struct ExecutionContext {
    host: Arc<HostContext>,
    observer: Option<Arc<dyn Observer>>,
}

impl std::fmt::Debug for ExecutionContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecutionContext")
            .field("host", &self.host)
            .field("observed", &self.observer.is_some())
            .finish()
    }
}

static NEXT_EXECUTION: AtomicU64 = AtomicU64::new(1);

impl ExecutionContext {
    pub fn new(host: Arc<HostContext>) -> Self {
        ExecutionContext {
            host,
            observer: None,
        }
    }

    pub fn with_observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.observer = Some(observer);
        self
    }

    #[inline]
    pub fn host(&self) -> &HostContext {
        &self.host
    }

    pub fn host_arc(&self) -> &Arc<HostContext> {
        &self.host
    }

    #[inline]
    pub fn observer(&self) -> Option<&dyn Observer> {
        self.observer.as_deref()
    }

    /// A fresh execution id (only drawn when an observer is attached).
    pub(crate) fn next_execution_id() -> ExecutionId {
        NEXT_EXECUTION.fetch_add(1, Ordering::Relaxed)
    }

    /// Reports `diag` to the host's diagnostic sink and returns it as an
    /// error value.
    pub fn emit_error(&self, diag: Diagnostic) -> AsyncValue {
        self.host.emit_error(diag)
    }

    /// Runs `f` on the work queue.
    pub fn enqueue_work(&self, f: impl FnOnce() + Send + 'static) {
        self.host.enqueue_work(f)
    }
}
