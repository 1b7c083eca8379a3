//! Profiling driver for the MLIR bytecode reader and writer: reads FILE
//! once, then reads it (without freeing the result) or re-writes it at its
//! own version N more times. Meant for `valgrind --tool=callgrind`, whose
//! instruction counts stay stable where this VM's timings do not; subtract
//! a run with N = 0 to get the cost of N operations.
//!
//! `cargo run --release --example bytecode_profile -- FILE read|write N`

use bef::bytecode::{WriteOptions, read_aligned, write};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the counts are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

fn main() -> Result<(), String> {
    global_alloc::keep_freed_memory();
    let args: Vec<String> = std::env::args().collect();
    let [_, file, what, n] = args.as_slice() else {
        return Err("usage: bytecode_profile FILE read|write N".into());
    };
    let n: usize = n.parse().map_err(|e| format!("N: {e}"))?;
    let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    let module = read_aligned(&bytes).map_err(|e| e.to_string())?;
    let origin = module.origin.clone().ok_or("the module has no origin")?;
    let options = WriteOptions {
        version: origin.version,
        producer: origin.producer.clone(),
    };
    for _ in 0..n {
        match what.as_str() {
            // Freeing is not part of reading (as in the criterion bench).
            "read" => std::mem::forget(read_aligned(&bytes).map_err(|e| e.to_string())?),
            "write" => {
                std::hint::black_box(write(&module, &options).map_err(|e| e.to_string())?);
            }
            other => return Err(format!("unknown operation '{other}'")),
        }
    }
    Ok(())
}
