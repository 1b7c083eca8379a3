//! Test helpers: build a program from MLIR text with the whole kernel
//! library, run one function on a chosen work queue and capture results,
//! printed output and reported errors.

use std::sync::{Arc, Mutex};

use crate::exec::{ExecutionContext, Function, KernelRegistry, Program};
use crate::format::BefBuffer;
use crate::runtime::{AsyncValue, Diagnostic, HostContext};
use crate::translate::{TranslateOptions, mlir_to_bef};

/// Taken by every kernel test for its whole duration: the executor's
/// tests count live values process-wide and must not overlap ours.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    crate::exec::tests::LEAK_CHECK
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Both work queues; tests whose output order does not depend on the
/// queue run on each.
pub const QUEUES: [&str; 2] = ["s", "mstd:2"];

pub fn load(src: &str) -> Arc<Program> {
    let module = crate::text::parse_module(src, "test.mlir").expect("parses");
    let bytes = mlir_to_bef(
        &module,
        TranslateOptions {
            optional_sections: false,
        },
    )
    .expect("translates");
    let mut registry = KernelRegistry::new();
    super::register_all(&mut registry);
    Program::load(BefBuffer::copy_from(&bytes), "test.bef", &registry).expect("loads")
}

/// What one run produced.
pub struct Run {
    pub results: Vec<AsyncValue>,
    pub output: String,
    pub errors: Vec<Diagnostic>,
    #[allow(dead_code)] // kept for tests that inspect the context
    pub host: Arc<HostContext>,
}

impl Run {
    pub fn lines(&self) -> Vec<&str> {
        self.output.lines().collect()
    }

    pub fn error_messages(&self) -> Vec<String> {
        self.errors.iter().map(|d| d.message.clone()).collect()
    }

    /// Result `i` as a `T`, or its error message.
    pub fn result<T: Clone + 'static>(&self, i: usize) -> Result<T, String> {
        self.results[i]
            .get::<T>()
            .cloned()
            .map_err(|e| match self.results[i].error_diagnostic() {
                Some(d) => d.message.clone(),
                None => e.to_string(),
            })
    }
}

/// Runs function `name` of `src` on `queue` and waits for its results and
/// for the queue to be idle.
pub fn run(src: &str, name: &str, queue: &str) -> Run {
    run_with_args(src, name, queue, &[])
}

pub fn run_with_args(src: &str, name: &str, queue: &str, args: &[AsyncValue]) -> Run {
    let program = load(src);
    run_program(&program, name, queue, args)
}

pub fn run_program(program: &Arc<Program>, name: &str, queue: &str, args: &[AsyncValue]) -> Run {
    let output = Arc::new(Mutex::new(String::new()));
    let errors = Arc::new(Mutex::new(Vec::new()));
    let (out, errs) = (output.clone(), errors.clone());
    let host = Arc::new(
        HostContext::with_work_queue_name(queue)
            .expect("queue")
            .with_output_sink(move |text| out.lock().unwrap().push_str(text))
            .with_diagnostic_sink(move |d| errs.lock().unwrap().push(d.clone())),
    );
    let results = execute(program, name, &host, args);
    let output = output.lock().unwrap().clone();
    let errors = errors.lock().unwrap().clone();
    Run {
        results,
        output,
        errors,
        host,
    }
}

/// Runs `name` in an existing host context (e.g. to call it twice).
pub fn execute(
    program: &Arc<Program>,
    name: &str,
    host: &Arc<HostContext>,
    args: &[AsyncValue],
) -> Vec<AsyncValue> {
    let ctx = ExecutionContext::new(host.clone());
    let index = program.function_named(name).expect("function exists");
    let results = Function::new(program.clone(), index).execute(&ctx, args);
    host.await_values(&results);
    host.quiesce();
    results
}
