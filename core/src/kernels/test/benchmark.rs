//! Benchmark kernels: `tfrt_test.benchmark` runs a function repeatedly on
//! the work queue (one run after the other) and `tfrt_test.sync_benchmark`
//! runs a sync function in a loop on the calling thread; both print the
//! reference's `BM:<name>:...` statistics lines. `tfrt_test.test_cost`
//! prints its `id` attribute (the `_tfrt_cost` attribute it is written
//! with never reaches the kernel).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::exec::{
    AnyArgument, Attribute, ExecutionContext, Function, KernelFrame, KernelRegistry, Out,
};
use crate::format::FunctionKind;
use crate::runtime::{AsyncValue, Chain, Diagnostic, ErrorCode, HostContext};

/// `num_warmup_runs` when the program leaves it out (the reference op's
/// default).
const DEFAULT_WARMUP_RUNS: i32 = 1;

/// Most measured runs a benchmark kernel makes (each keeps its times for
/// the percentiles), and most warm-up runs (which keep nothing); the
/// reference's own benchmarks ask for this many measured runs and a
/// warm-up run.
pub const MAX_BENCHMARK_RUNS: i32 = 1_000_000;

/// Longest `duration_secs` a benchmark kernel takes (ten minutes).
pub const MAX_BENCHMARK_SECONDS: i32 = 600;

/// CPU time used by the process so far, like C's `clock()`: every thread's,
/// including threads that have exited (summing the live threads' times
/// instead would go backwards when a worker exits); zero where the clock is
/// not available.
#[cfg(unix)]
fn process_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec, the only memory the call
    // writes.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    )
}

#[cfg(not(unix))]
fn process_cpu_time() -> Duration {
    Duration::ZERO
}

/// What a benchmark kernel's attributes ask for.
#[derive(Clone, Debug, PartialEq)]
struct Settings {
    name: String,
    duration: Duration,
    max_count: i32,
    num_warmup_runs: i32,
}

/// Run counts and timings of one benchmark.
struct Stats {
    settings: Settings,
    count: i32,
    run_start: Option<(Instant, Duration)>,
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
    total_wall: Duration,
    total_cpu: Duration,
}

impl Stats {
    fn new(settings: Settings) -> Self {
        Stats {
            settings,
            count: 0,
            run_start: None,
            wall: Vec::new(),
            cpu: Vec::new(),
            total_wall: Duration::ZERO,
            total_cpu: Duration::ZERO,
        }
    }

    fn start_run(&mut self) {
        self.count += 1;
        let cpu = process_cpu_time();
        self.run_start = Some((Instant::now(), cpu));
    }

    /// Records the run just finished unless it was a warm-up run.
    fn stop_run(&mut self) {
        let Some((start_wall, start_cpu)) = self.run_start.take() else {
            return;
        };
        if self.count <= self.settings.num_warmup_runs {
            return;
        }
        let wall = start_wall.elapsed();
        let cpu = process_cpu_time().saturating_sub(start_cpu);
        self.wall.push(wall);
        self.cpu.push(cpu);
        self.total_wall += wall;
        self.total_cpu += cpu;
    }

    fn more_runs(&self) -> bool {
        i64::from(self.count)
            < i64::from(self.settings.max_count) + i64::from(self.settings.num_warmup_runs)
            && self.total_wall < self.settings.duration
    }

    /// The statistics lines, as the reference prints them.
    fn summary(&mut self) -> String {
        self.wall.sort_unstable();
        self.cpu.sort_unstable();
        fn percentile(p: f64, times: &[Duration]) -> u128 {
            let i = ((times.len() as f64 * p) as usize).min(times.len().saturating_sub(1));
            times.get(i).map_or(0, Duration::as_nanos)
        }
        let utilization = if self.total_wall.is_zero() {
            0.0
        } else {
            self.total_cpu.as_nanos() as f64 * 100.0 / self.total_wall.as_nanos() as f64
        };
        let prefix = format!("BM:{}:", self.settings.name);
        let mut out = String::new();
        let mut line = |label: &str, value: String| {
            out.push_str(&format!("{prefix}{label}: {value}\n"));
        };
        line("Duration(ns)", self.total_wall.as_nanos().to_string());
        line("Count", self.wall.len().to_string());
        line("Time Min(ns)", percentile(0.0, &self.wall).to_string());
        line("Time 50%(ns)", percentile(0.5, &self.wall).to_string());
        line("Time 95%(ns)", percentile(0.95, &self.wall).to_string());
        line("Time 99%(ns)", percentile(0.99, &self.wall).to_string());
        line("CPU Min(ns)", percentile(0.0, &self.cpu).to_string());
        line("CPU 50%(ns)", percentile(0.5, &self.cpu).to_string());
        line("CPU 95%(ns)", percentile(0.95, &self.cpu).to_string());
        line("CPU 99%(ns)", percentile(0.99, &self.cpu).to_string());
        line("CPU utilization(percent)", format_general(utilization));
        out
    }
}

/// A double as C++ streams print it by default (`%g`, 6 significant
/// digits).
fn format_general(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let exponent = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&exponent) {
        let s = format!("{x:.5e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = trim_zeros(mantissa);
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    let decimals = (5 - exponent).max(0) as usize;
    trim_zeros(&format!("{x:.decimals$}")).to_string()
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn invalid(message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(message).with_code(ErrorCode::InvalidArgument)
}

/// Reads the i32 attribute at position `index` (absent: `default`).
fn i32_attribute(
    frame: &KernelFrame<'_>,
    index: usize,
    what: &str,
    default: Option<i32>,
) -> Result<i32, Diagnostic> {
    let reader = crate::exec::attribute::AttributeReader {
        section: frame.attribute_section(),
    };
    match frame.attribute_offsets().get(index) {
        Some(&offset) => reader
            .scalar::<i32>(offset)
            .map_err(|e| invalid(format!("'{}' {what}: {e}", frame.kernel_name()))),
        None => default.ok_or_else(|| {
            invalid(format!(
                "'{}' expects a {what} attribute (attribute #{index})",
                frame.kernel_name()
            ))
        }),
    }
}

/// Attributes in their (alphabetical) order: `duration_secs`,
/// `max_count`, `name` (if `named`) and `num_warmup_runs` (optional).
fn settings(frame: &KernelFrame<'_>, name: Option<String>) -> Result<Settings, Diagnostic> {
    let duration_secs = i32_attribute(frame, 0, "duration_secs", None)?;
    let max_count = i32_attribute(frame, 1, "max_count", None)?;
    let (name, warmup_index) = match name {
        Some(name) => (name, 2),
        None => {
            let reader = crate::exec::attribute::AttributeReader {
                section: frame.attribute_section(),
            };
            let offset = *frame.attribute_offsets().get(2).ok_or_else(|| {
                invalid(format!(
                    "'{}' expects a name attribute (attribute #2)",
                    frame.kernel_name()
                ))
            })?;
            let name = reader
                .string(offset)
                .map_err(|e| invalid(format!("'{}' name: {e}", frame.kernel_name())))?;
            (name.to_string(), 3)
        }
    };
    let num_warmup_runs = i32_attribute(
        frame,
        warmup_index,
        "num_warmup_runs",
        Some(DEFAULT_WARMUP_RUNS),
    )?;
    if duration_secs < 0 || max_count < 0 || num_warmup_runs < 0 {
        return Err(invalid(format!(
            "'{}': duration_secs ({duration_secs}), max_count ({max_count}) and \
             num_warmup_runs ({num_warmup_runs}) must not be negative",
            frame.kernel_name()
        )));
    }
    if duration_secs > MAX_BENCHMARK_SECONDS
        || max_count > MAX_BENCHMARK_RUNS
        || num_warmup_runs > MAX_BENCHMARK_RUNS
    {
        return Err(invalid(format!(
            "'{}': duration_secs ({duration_secs}) may be at most {MAX_BENCHMARK_SECONDS}, \
             and max_count ({max_count}) and num_warmup_runs ({num_warmup_runs}) at most \
             {MAX_BENCHMARK_RUNS} runs each",
            frame.kernel_name()
        ))
        .with_code(ErrorCode::ResourceExhausted));
    }
    Ok(Settings {
        name,
        duration: Duration::from_secs(duration_secs as u64),
        max_count,
        num_warmup_runs,
    })
}

/// An asynchronous benchmark in progress.
struct AsyncBenchmark {
    stats: Mutex<Stats>,
    body: Function,
    args: Vec<AsyncValue>,
    ctx: ExecutionContext,
    done: Option<AsyncValue>,
}

impl AsyncBenchmark {
    /// Starts one run on the work queue; when its result is available the
    /// next run starts, or the summary is printed.
    fn start_run(self: Arc<Self>) {
        self.stats
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .start_run();
        let ctx = self.ctx.clone();
        ctx.enqueue_work(move || {
            let results = self.body.execute(&self.ctx, &self.args);
            let result = results[0].clone();
            result.and_then(move || {
                drop(results);
                let more = {
                    let mut stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
                    stats.stop_run();
                    stats.more_runs()
                };
                if more {
                    self.start_run();
                } else {
                    let summary = self
                        .stats
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .summary();
                    self.ctx.host().print(&summary);
                    if let Some(done) = &self.done {
                        done.emplace(Chain);
                    }
                }
            });
        });
    }
}

crate::kernel! {
    /// `tfrt_test.benchmark %args... {duration_secs, max_count, name,
    /// num_warmup_runs} @f -> !tfrt.chain`: runs `f` on the work queue
    /// until the settings say stop, then prints the summary.
    fn benchmark(
        _arguments: crate::exec::RemainingArguments,
        _settings: crate::exec::RemainingAttributes,
        _body: crate::exec::RemainingFunctions,
        _done: crate::exec::RemainingResults,
        frame: &KernelFrame,
    ) {
        run_benchmark(frame)
    }
}

crate::kernel! {
    /// `tfrt_test.sync_benchmark %args... {duration_secs, max_count,
    /// num_warmup_runs} @f`: runs the sync function `f` in place until the
    /// settings say stop, then prints the summary.
    fn sync_benchmark(
        _arguments: crate::exec::RemainingArguments,
        _settings: crate::exec::RemainingAttributes,
        _body: crate::exec::RemainingFunctions,
        _done: crate::exec::RemainingResults,
        frame: &KernelFrame,
    ) {
        run_sync_benchmark(frame)
    }
}

/// The body of `tfrt_test.benchmark`, which reads the frame by position.
fn run_benchmark(frame: &KernelFrame<'_>) {
    let result = (|| -> Result<(), Diagnostic> {
        let body = frame.function(0).ok_or_else(|| {
            invalid(format!(
                "'{}' expects the function to benchmark",
                frame.kernel_name()
            ))
        })?;
        let settings = settings(frame, None)?;
        if body.num_results() != 1 {
            return Err(invalid(
                "Benchmark op requires the input function have exactly one return value",
            ));
        }
        if body.num_arguments() != frame.arguments().len() {
            return Err(invalid(format!(
                "function '{}' takes {} arguments but the benchmark passes {}",
                body.name(),
                body.num_arguments(),
                frame.arguments().len()
            )));
        }
        let done = (frame.num_results() > 0).then(AsyncValue::unconstructed::<Chain>);
        if let Some(done) = &done {
            frame.set_result(0, done.clone());
        }
        let run = Arc::new(AsyncBenchmark {
            stats: Mutex::new(Stats::new(settings)),
            body,
            args: frame.arguments().to_vec(),
            ctx: frame.context().clone(),
            done,
        });
        run.start_run();
        Ok(())
    })();
    if let Err(diag) = result {
        frame.report(diag);
    }
}

/// The body of `tfrt_test.sync_benchmark`, which reads the frame by position.
fn run_sync_benchmark(frame: &KernelFrame<'_>) {
    let result = (|| -> Result<(), Diagnostic> {
        let body = frame.function(0).ok_or_else(|| {
            invalid(format!(
                "'{}' expects the function to benchmark",
                frame.kernel_name()
            ))
        })?;
        if body.kind() != FunctionKind::Sync {
            return Err(invalid(
                "SyncBenchmark op requires the input function be a sync function",
            ));
        }
        if body.num_results() != 0 {
            return Err(invalid(
                "SyncBenchmark op requires the input function have zero return value",
            ));
        }
        if body.num_arguments() != frame.arguments().len() {
            return Err(invalid(
                "Incorrect number of arguments for the target function for the SyncBenchmark op",
            ));
        }
        let settings = settings(frame, Some(body.name().to_string()))?;
        let mut stats = Stats::new(settings);
        while stats.more_runs() {
            stats.start_run();
            // A sync function with no results reports its errors to the
            // host as they happen; nothing to collect.
            let _ = body.execute(frame.context(), frame.arguments());
            stats.stop_run();
        }
        frame.host().print(&stats.summary());
        for i in 0..frame.num_results() {
            frame.set_result(i, AsyncValue::available(Chain));
        }
        Ok(())
    })();
    if let Err(diag) = result {
        frame.report(diag);
    }
}

crate::kernel! {
    /// `tfrt_test.test_cost %x {id = N : i64}`: prints `id: N` and returns `x`.
    fn test_cost(value: AnyArgument, id: Attribute<i64>, out: Out<crate::runtime::AsyncValue>, host: &HostContext) {
        host.print(&format!("id: {}\n", *id));
        out.set((*value).clone());
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.benchmark", benchmark);
    registry.add_kernel("tfrt_test.sync_benchmark", sync_benchmark);
    registry.add_kernel("tfrt_test.test_cost", test_cost);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn general_format_matches_cpp_streams() {
        assert_eq!(format_general(99.5), "99.5");
        assert_eq!(format_general(100.0), "100");
        assert_eq!(format_general(12.3456789), "12.3457");
        assert_eq!(format_general(0.0), "0");
        assert_eq!(format_general(1234567.0), "1.23457e+06");
        assert_eq!(format_general(0.000012), "1.2e-05");
    }

    #[test]
    #[cfg(unix)]
    fn cpu_time_advances_with_work() {
        // Spin until a millisecond of CPU time has passed (bounded in wall
        // time, so a clock that never moves fails instead of hanging).
        let before = process_cpu_time();
        let start = Instant::now();
        let mut x = 0u64;
        while process_cpu_time() < before + Duration::from_millis(1) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "CPU time stayed at {before:?} ({x} iterations)"
            );
            for _ in 0..10_000 {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        }
        // Never behind the previous reading, whatever other threads do.
        let after = process_cpu_time();
        assert!(after >= before + Duration::from_millis(1));
    }

    #[test]
    fn run_counts_follow_warmups_and_max_count() {
        let mut stats = Stats::new(Settings {
            name: "x".into(),
            duration: Duration::from_secs(10),
            max_count: 3,
            num_warmup_runs: 2,
        });
        let mut runs = 0;
        while stats.more_runs() {
            stats.start_run();
            stats.stop_run();
            runs += 1;
        }
        assert_eq!(runs, 5);
        assert_eq!(stats.wall.len(), 3);
        let summary = stats.summary();
        assert!(summary.contains("BM:x:Count: 3\n"), "{summary}");
    }
}
