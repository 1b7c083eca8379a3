//! The cost of re-packing constant weights, timed call by call: the
//! `mlp_forward` pass of `benches/models.rs` with the packed weights
//! reused and without (`packed_gemm::reuse_packed_weights`), on the work
//! queues `s` and `mstd:2`; and its first product alone (100×784×512 f32)
//! through the `gemm` crate, the packed driver packing B each call, and
//! reusing one packed B. The cases alternate call by call, so a loaded
//! machine slows them alike; each line gives the fastest call, the 10th
//! percentile and the median.
//!
//! `cargo run --release -p bef --features cli --example packed_weights -- [CALLS]`
//! (CALLS per case, default 2000)

use std::time::{Duration, Instant};

use bef::kernels::tensor::packed_gemm::{self, PackedRhs};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;
#[path = "../benches/support/models.rs"]
mod models;

#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

/// A named computation to time.
type Case<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// Times `cases` alternately, `calls` times each, after one warm-up call.
fn alternate(calls: usize, cases: &mut [Case<'_>]) {
    for (_, case) in cases.iter_mut() {
        case();
    }
    let mut times = vec![Vec::with_capacity(calls); cases.len()];
    for _ in 0..calls {
        for (index, (_, case)) in cases.iter_mut().enumerate() {
            let start = Instant::now();
            case();
            times[index].push(start.elapsed());
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    for ((name, _), times) in cases.iter().zip(&mut times) {
        times.sort();
        println!(
            "{name:32} fastest {:.3} ms  p10 {:.3} ms  median {:.3} ms",
            ms(times[0]),
            ms(times[times.len() / 10]),
            ms(times[times.len() / 2])
        );
    }
}

fn main() {
    global_alloc::keep_freed_memory();
    let calls: usize = match std::env::args().nth(1) {
        None => 2000,
        Some(text) => match text.parse() {
            Ok(calls) if calls > 0 => calls,
            _ => {
                eprintln!("packed_weights: CALLS must be a positive integer, got {text:?}");
                std::process::exit(2);
            }
        },
    };
    let (m, k, n) = (
        models::BATCH as usize,
        models::INPUTS as usize,
        models::HIDDEN as usize,
    );
    let a: Vec<f32> = (0..m * k).map(|i| (i % 13) as f32 * 0.25 - 1.5).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 7) as f32 * 0.5 - 1.5).collect();
    let mut c = vec![0.0f32; m * n];
    let mut c_packed = c.clone();
    let mut c_reused = c.clone();
    if let Some(packed) = PackedRhs::new(&b, k, n) {
        println!("product {m}x{k}x{n} f32, one thread:");
        alternate(
            calls,
            &mut [
                (
                    "gemm",
                    Box::new(|| models::gemm_product(m, k, n, &a, &b, &mut c)),
                ),
                (
                    "packed, packing each call",
                    Box::new(|| {
                        let each = PackedRhs::new(&b, k, n).expect("AVX-512F");
                        packed_gemm::multiply_all(&each, 1.0, &a, m, 0.0, &mut c_packed)
                    }),
                ),
                (
                    "packed, reused",
                    Box::new(|| packed_gemm::multiply_all(&packed, 1.0, &a, m, 0.0, &mut c_reused)),
                ),
            ],
        );
    } else {
        println!("this CPU has no AVX-512F: products go through gemm");
    }
    for queue in models::QUEUES {
        println!("mlp_forward under {queue}:");
        let runner = models::runner(queue);
        let forward = models::function(&runner, "mlp_forward");
        let args = models::mlp_args();
        alternate(
            calls,
            &mut [
                (
                    "gemm (weights packed each call)",
                    Box::new(|| {
                        packed_gemm::reuse_packed_weights(false);
                        models::call(&runner, &forward, &args)
                    }),
                ),
                (
                    "packed weights reused",
                    Box::new(|| {
                        packed_gemm::reuse_packed_weights(true);
                        models::call(&runner, &forward, &args)
                    }),
                ),
            ],
        );
    }
}
