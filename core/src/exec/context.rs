//! What an execution carries besides its function: the host context, the
//! request's resource context and, for tools, an observer.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::observer::{Caller, ExecutionId, Observer};
use crate::runtime::{AsyncValue, Diagnostic, HostContext};

/// Named objects that live as long as one request (for the runner: one
/// top-level function run), such as `tfrt.once`'s cached results. Unlike the
/// host's shared contexts they are released when the request ends, so they
/// do not count as leaks.
#[derive(Default)]
pub struct ResourceContext {
    resources: Mutex<HashMap<String, Arc<dyn Any + Send + Sync>>>,
}

impl ResourceContext {
    /// The resource `name`, created by `create` on first use. `None` if a
    /// resource of that name has another type.
    pub fn get_or_create<T: Any + Send + Sync>(
        &self,
        name: &str,
        create: impl FnOnce() -> T,
    ) -> Option<Arc<T>> {
        let mut resources = self.resources.lock().unwrap_or_else(|e| e.into_inner());
        let entry = resources
            .entry(name.to_string())
            .or_insert_with(|| Arc::new(create()) as Arc<dyn Any + Send + Sync>)
            .clone();
        entry.downcast::<T>().ok()
    }
}

/// Cheap to clone (three `Arc`s); kernels clone it into their continuations.
#[derive(Clone)]
pub struct ExecutionContext {
    host: Arc<HostContext>,
    resources: Arc<ResourceContext>,
    /// Behind one pointer, so that unobserved contexts stay three pointers
    /// wide: a wider context measurably slowed the executor's loop.
    observation: Option<Arc<Observation>>,
}

/// The observer of a context, and the kernel the context was handed to.
struct Observation {
    observer: Arc<dyn Observer>,
    /// Functions run with the context (or a clone kept in a continuation)
    /// name it as their caller.
    caller: Option<Caller>,
}

impl std::fmt::Debug for ExecutionContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecutionContext")
            .field("host", &self.host)
            .field("observed", &self.observation.is_some())
            .field("caller", &self.caller())
            .finish()
    }
}

static NEXT_EXECUTION: AtomicU64 = AtomicU64::new(1);

impl ExecutionContext {
    /// A context for one request, with a fresh resource context.
    pub fn new(host: Arc<HostContext>) -> Self {
        ExecutionContext {
            host,
            resources: Arc::default(),
            observation: None,
        }
    }

    /// The request's resources.
    pub fn resources(&self) -> &ResourceContext {
        &self.resources
    }

    /// Attaches `observer`: every function run with this context (or one
    /// derived from it by the kernels it runs) reports its events to it.
    pub fn with_observer(mut self, observer: Arc<dyn Observer>) -> Self {
        // An observer may sample the live values (the profiler does).
        crate::runtime::track_live_async_values();
        self.observation = Some(Arc::new(Observation {
            observer,
            caller: self.caller(),
        }));
        self
    }

    /// The kernel this context was handed to, when an observer is attached
    /// (`None` for the context the host made, and always without an
    /// observer): functions run with it report it as their caller.
    #[inline]
    pub fn caller(&self) -> Option<Caller> {
        self.observation.as_ref().and_then(|o| o.caller)
    }

    /// This context as handed to kernel `caller` (observed executions
    /// only: unobserved ones have no caller to report, and get a plain
    /// clone).
    pub(crate) fn called_from(&self, caller: Caller) -> ExecutionContext {
        ExecutionContext {
            host: self.host.clone(),
            resources: self.resources.clone(),
            observation: self.observation.as_ref().map(|o| {
                Arc::new(Observation {
                    observer: o.observer.clone(),
                    caller: Some(caller),
                })
            }),
        }
    }

    /// Makes `caller` the caller of this context, made by
    /// [`called_from`](Self::called_from), if nothing else holds it (no
    /// clone of it was kept); false otherwise.
    pub(crate) fn rename_caller(&mut self, caller: Caller) -> bool {
        match self.observation.as_mut().and_then(Arc::get_mut) {
            Some(observation) => {
                observation.caller = Some(caller);
                true
            }
            None => false,
        }
    }

    /// The host context: work queue, allocator, cancellation, diagnostics.
    #[inline]
    pub fn host(&self) -> &HostContext {
        &self.host
    }

    /// The host context, to keep (e.g. in work sent to another thread).
    pub fn host_arc(&self) -> &Arc<HostContext> {
        &self.host
    }

    /// The attached observer, if any.
    #[inline]
    pub fn observer(&self) -> Option<&dyn Observer> {
        self.observation.as_deref().map(|o| &*o.observer)
    }

    /// The attached observer, to keep (in a waiter that may outlive the
    /// execution).
    pub(crate) fn observer_arc(&self) -> Option<Arc<dyn Observer>> {
        self.observation.as_ref().map(|o| o.observer.clone())
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
