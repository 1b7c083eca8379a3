//! The generated host program of the translate benchmark, shared with the
//! `translate_profile` example so both measure the same text.

use std::fmt::Write as _;

/// Functions shaped like real test programs: constants, chains of
/// arithmetic, prints threaded on a chain, a call, a conditional region.
pub fn generate(target_bytes: usize) -> String {
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
