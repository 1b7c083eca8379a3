//! Execution: generated host programs run on two work queues.

use arbitrary::Unstructured;
use bef::format::BefBuffer;

/// Random valid host program → BEF → run on `s` and on `mstd:2`: both runs
/// finish (bounded time), give the same results (values or error
/// messages), and leave no async value alive.
pub fn exec_programs(data: &[u8]) {
    use bef::exec::arbitrary_program::{ProgramLimits, arbitrary_program};
    let mut u = Unstructured::new(data);
    let Ok(generated) = arbitrary_program(&mut u, ProgramLimits::default()) else {
        return;
    };
    let source = &generated.source;
    let module = bef::text::parse_module(source, "generated.mlir")
        .unwrap_or_else(|d| panic!("generated program does not parse: {d:?}\n{source}"));
    let options = bef::translate::TranslateOptions {
        optional_sections: false,
    };
    let bytes = bef::translate::mlir_to_bef(&module, options)
        .unwrap_or_else(|d| panic!("generated program does not translate: {d:?}\n{source}"));
    let before = bef::runtime::live_async_values();
    let single = run_generated(&bytes, "s", source);
    let multi = run_generated(&bytes, "mstd:2", source);
    assert_eq!(
        single, multi,
        "results differ between work queues\n{source}"
    );
    assert_eq!(single.len(), generated.results);
    assert_eq!(
        bef::runtime::live_async_values(),
        before,
        "async values leaked\n{source}"
    );
}

/// Results of `@main` as values or error messages, computed on another
/// thread so that a deadlock fails the run instead of hanging it.
fn run_generated(bef: &[u8], queue: &str, source: &str) -> Vec<Result<i32, String>> {
    use std::sync::{Arc, mpsc};
    let program = bef::exec::Program::load(
        BefBuffer::copy_from(bef),
        "generated.bef",
        crate::standard_registry(),
    )
    .unwrap_or_else(|e| panic!("generated program does not load: {e}\n{source}"));
    let label = queue.to_string();
    let queue = label.clone();
    let (done, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let host = bef::runtime::HostContext::with_work_queue_name(&queue)
            .expect("valid queue")
            .with_diagnostic_sink(|_| {});
        let ctx = bef::exec::ExecutionContext::new(Arc::new(host));
        let main = program.function_named("main").expect("generated @main");
        let f = bef::exec::Function::new(program.clone(), main);
        let results = f.execute(&ctx, &[]);
        ctx.host().await_values(&results);
        ctx.host().quiesce();
        let shown: Vec<Result<i32, String>> = results
            .iter()
            .map(|v| match v.error_diagnostic() {
                Some(d) => Err(d.message.clone()),
                None => v.get::<i32>().copied().map_err(|e| e.to_string()),
            })
            .collect();
        // Everything this run made is released before the caller counts
        // live values.
        drop(results);
        drop(ctx);
        let _ = done.send(shown);
    });
    wait.recv_timeout(std::time::Duration::from_secs(30))
        .unwrap_or_else(|_| panic!("no result within 30 s on '{label}' (deadlock?)\n{source}"))
}
