//! Writes one hostile recording (the shapes of `tests/common/hostile.rs`),
//! for measuring the tools on it:
//!
//! ```text
//! cargo run --release -p bef-trace --example hostile_recording -- SHAPE SCALE OUT
//! ```
//!
//! `SCALE` grows the recording linearly (about 24 bytes per unit).

#[allow(dead_code)]
#[path = "../tests/common/hostile.rs"]
mod hostile;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [shape, scale, out] = args.as_slice() else {
        let shapes: Vec<&str> = hostile::Shape::ALL.iter().map(|s| s.name()).collect();
        eprintln!(
            "usage: hostile_recording SHAPE SCALE OUT\nshapes: {}",
            shapes.join(", ")
        );
        return ExitCode::from(2);
    };
    let Some(shape) = hostile::Shape::from_name(shape) else {
        eprintln!("unknown shape {shape:?}");
        return ExitCode::from(2);
    };
    let Ok(scale) = scale.parse::<usize>() else {
        eprintln!("SCALE must be a number, not {scale:?}");
        return ExitCode::from(2);
    };
    let bytes = bef_trace::write(&hostile::recording(shape, scale));
    if let Err(e) = std::fs::write(out, &bytes) {
        eprintln!("cannot write {out}: {e}");
        return ExitCode::from(1);
    }
    println!("{} bytes", bytes.len());
    ExitCode::SUCCESS
}
