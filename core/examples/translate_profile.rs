//! Profiling driver for the text → BEF path: generates a program with the
//! generator of `benches/translate.rs` (size in MB from the first argument,
//! default 5) and runs `parse_module` + `mlir_to_bef` once. Meant for
//! `valgrind --tool=callgrind`.

use std::fmt::Write as _;

use bef::text::parse_module;
use bef::translate::{TranslateOptions, mlir_to_bef};

/// Functions shaped like real test programs: constants, chains of
/// arithmetic, prints threaded on a chain, a call, a conditional region.
fn generate(target_bytes: usize) -> String {
    let mut text = String::with_capacity(target_bytes + 4096);
    text.push_str("func.func @leaf(%a: i32, %b: i32) -> i32 {\n  %c = tfrt.add.i32 %a, %b\n  tfrt.return %c : i32\n}\n");
    let mut n = 0;
    while text.len() < target_bytes {
        writeln!(
            text,
            "func.func @f{n}(%x: i32, %ch0: !tfrt.chain) -> (i32, !tfrt.chain) {{"
        )
        .unwrap();
        writeln!(text, "  %one = tfrt.constant.i32 1").unwrap();
        let mut prev = "%x".to_string();
        for i in 0..40 {
            writeln!(text, "  %v{i} = tfrt.add.i32 {prev}, %one").unwrap();
            prev = format!("%v{i}");
        }
        writeln!(text, "  %ch1 = tfrt.print.i32 {prev}, %ch0").unwrap();
        writeln!(
            text,
            "  %s = tfrt.call @leaf({prev}, %one) : (i32, i32) -> i32"
        )
        .unwrap();
        writeln!(text, "  %cond = tfrt.constant.i1 1").unwrap();
        writeln!(text, "  %r = tfrt.if %cond, %s : (i32) -> (i32) {{").unwrap();
        writeln!(text, "    tfrt.return %s : i32").unwrap();
        writeln!(text, "  }} else {{").unwrap();
        writeln!(text, "    %t = tfrt.constant.i32 {n}").unwrap();
        writeln!(text, "    tfrt.return %t : i32").unwrap();
        writeln!(text, "  }}").unwrap();
        writeln!(text, "  %w = \"tfrt_test.identity\"(%r) {{note = \"generated\", weights = [1 : i32, 2 : i32]}} : (i32) -> i32").unwrap();
        writeln!(text, "  tfrt.return %w, %ch1 : i32, !tfrt.chain").unwrap();
        writeln!(text, "}}").unwrap();
        n += 1;
    }
    text
}

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let text = generate(mb << 20);
    let module = parse_module(&text, "generated.mlir").unwrap();
    let bytes = mlir_to_bef(&module, TranslateOptions::default()).unwrap();
    println!("{} bytes of text, {} bytes of BEF", text.len(), bytes.len());
}
