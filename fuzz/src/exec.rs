//! Execution: generated host programs run on two work queues.

use std::sync::Arc;

use arbitrary::Unstructured;
use bef::exec::Observer;
use bef::format::BefBuffer;

/// The call-depth limit of the generated runs: above the deepest bounded
/// recursion the generator writes, low enough that runaway recursion ends
/// quickly.
const CALL_DEPTH_LIMIT: usize = 4_000;

/// Random valid host program → BEF → run on `s` and on `mstd:2`: both runs
/// finish (bounded time), give the same results (values or error
/// messages), and leave no async value alive. Then the same BEF with one
/// operand rewired to a result of its own kernel or of a kernel downstream
/// (a dataflow cycle, used-by lists consistent): `verify` must reject it
/// naming the cycle, and loading for execution must refuse it.
pub fn exec_programs(data: &[u8]) {
    exec_program_and_cycle(data);
}

/// What one input of [`exec_programs`] exercised: the program's source
/// (`None` when the generator built none from it), and whether a rewired
/// copy with a dataflow cycle was checked too.
pub fn exec_program_and_cycle(data: &[u8]) -> (Option<String>, bool) {
    exec_program_observed(data, None)
}

/// The program an input of [`exec_programs`] generates (its MLIR text),
/// or why the generator built none (the input ran short, or a choice
/// had nothing to choose from).
pub fn generated_program(data: &[u8]) -> Result<String, arbitrary::Error> {
    generate(&mut Unstructured::new(data)).map(|g| g.source)
}

fn generate(
    u: &mut Unstructured,
) -> arbitrary::Result<bef::exec::arbitrary_program::GeneratedProgram> {
    use bef::exec::arbitrary_program::{ProgramLimits, arbitrary_program};
    arbitrary_program(u, ProgramLimits::default(), kernel_menu())
}

/// The registered kernels generated programs call (built once).
pub fn kernel_menu() -> &'static bef::exec::arbitrary_program::KernelMenu {
    static MENU: std::sync::OnceLock<bef::exec::arbitrary_program::KernelMenu> =
        std::sync::OnceLock::new();
    MENU.get_or_init(|| {
        bef::exec::arbitrary_program::KernelMenu::from_registry(crate::standard_registry())
    })
}

/// [`exec_program_and_cycle`] with `observer` attached to both runs, so
/// that a tool learns which kernels ran (`corpus-coverage`).
pub fn exec_program_observed(
    data: &[u8],
    observer: Option<Arc<dyn Observer>>,
) -> (Option<String>, bool) {
    let mut u = Unstructured::new(data);
    let Ok(generated) = generate(&mut u) else {
        return (None, false);
    };
    let source = &generated.source;
    let module = bef::text::parse_module(source, "generated.mlir")
        .unwrap_or_else(|d| panic!("generated program does not parse: {d:?}\n{source}"));
    let options = bef::translate::TranslateOptions {
        optional_sections: false,
    };
    let bytes = bef::translate::mlir_to_bef(&module, options)
        .unwrap_or_else(|d| panic!("generated program does not translate: {d:?}\n{source}"));
    // The leak check needs the count, which release builds keep only when
    // asked (switching it on is for good, so this costs one store).
    bef::runtime::track_live_async_values();
    let before = bef::runtime::live_async_values();
    let single = run_generated(&bytes, "s", source, observer.clone());
    let multi = run_generated(&bytes, "mstd:2", source, observer);
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
    // The model decodes from a file with its optional sections.
    let full = bef::translate::mlir_to_bef(&module, bef::translate::TranslateOptions::default())
        .expect("what translates without optional sections translates with them");
    let cyclic = with_dataflow_cycle(&full, &mut u);
    if let Some(cyclic) = &cyclic {
        let buffer = BefBuffer::copy_from(cyclic);
        let file = buffer.open().expect("the rewired file opens");
        let problems = bef::format::verify(&file).expect_err("a dataflow cycle is rejected");
        assert!(
            problems
                .iter()
                .any(|p| p.to_string().contains("can never run")),
            "the cycle is not named: {problems:?}\n{source}"
        );
        let refused = bef::exec::Program::load(buffer, "cycle.bef", crate::standard_registry());
        assert!(refused.is_err(), "a file with a cycle loads\n{source}");
    }
    (Some(generated.source), cyclic.is_some())
}

/// `bef` with one operand of one kernel rewired to a result of that kernel
/// or of a kernel that (transitively) uses its results, used-by lists
/// recomputed; `None` when `u` runs out or no kernel has an operand.
fn with_dataflow_cycle(bef: &[u8], u: &mut Unstructured) -> Option<Vec<u8>> {
    let buffer = BefBuffer::copy_from(bef);
    let mut module = buffer.open().ok()?.to_module().ok()?;
    let bodies: Vec<usize> = (0..module.functions.len())
        .filter(|&i| module.functions[i].body.is_some())
        .collect();
    let function = *u.choose(&bodies).ok()?;
    let body = module.functions[function].body.as_mut()?;
    let readers: Vec<usize> = (1..body.kernels.len())
        .filter(|&k| !body.kernels[k].args.is_empty())
        .collect();
    let reader = *u.choose(&readers).ok()?;
    // The reader and everything downstream of it, through used-by lists.
    let mut downstream = vec![reader];
    let mut seen = vec![false; body.kernels.len()];
    seen[reader] = true;
    let mut next = 0;
    while next < downstream.len() {
        for users in &body.kernels[downstream[next]].used_by {
            for &user in users {
                let user = user as usize;
                if user < seen.len() && !seen[user] {
                    seen[user] = true;
                    downstream.push(user);
                }
            }
        }
        next += 1;
    }
    downstream.retain(|&k| !body.kernels[k].results.is_empty());
    let producer = *u.choose(&downstream).ok()?;
    let register = *u.choose(&body.kernels[producer].results).ok()?;
    let kernel = &mut body.kernels[reader];
    let operand = u.choose_index(kernel.args.len()).ok()?;
    kernel.args[operand] = register;
    body.compute_used_by();
    bef::format::encode(&module).ok()
}

/// Results of `@main` as values or error messages, computed on another
/// thread so that a deadlock fails the run instead of hanging it.
fn run_generated(
    bef: &[u8],
    queue: &str,
    source: &str,
    observer: Option<Arc<dyn Observer>>,
) -> Vec<Result<i32, String>> {
    use std::sync::mpsc;
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
            .with_diagnostic_sink(|_| {})
            // Kernel prints are run but not shown: standard output is the
            // tools' (`corpus-coverage --json`), and fuzzing wants speed.
            .with_output_sink(|_| {})
            .with_max_call_depth(CALL_DEPTH_LIMIT);
        let mut ctx = bef::exec::ExecutionContext::new(Arc::new(host));
        if let Some(observer) = observer {
            ctx = ctx.with_observer(observer);
        }
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
