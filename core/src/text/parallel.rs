//! Large files are parsed on two threads. The text is cut at a line that
//! starts a top-level `func.func` near its middle; each part is parsed by
//! its own parser and the second part's values are moved behind the
//! first's. The result equals the sequential parse:
//!
//! - The cut follows a newline, where no token (but a multi-line dialect
//!   body, which then fails to lex in the first part) continues, and the
//!   second part starts with an op name, which no item of the first part
//!   can take as its continuation.
//! - The first part may define aliases and top-level values; the second
//!   part must define neither (else it could clash with the first, which
//!   the sequential parse reports). A use in one part of what the other
//!   defines fails to parse.
//!
//! When a part fails or the second part defines something shared, the
//! whole text is parsed sequentially, so errors are the sequential ones.
//! Text without a top-level `func.func` line (one `module { ... }`) is
//! parsed sequentially as well.

use super::parser::{Parser, R, top_level_module};
use crate::ir::{Location, Module, Op, ValueData};

/// Texts shorter than this are parsed on one thread: a second thread
/// costs more than it saves on small files.
pub(super) const MIN_PARALLEL_BYTES: usize = 256 << 10;

/// Where the second part may start.
const CUT_BEFORE: &str = "\nfunc.func ";

/// Parses `source` (starting at 1-based line `first_line` of its file), on
/// two threads when it has at least `min_bytes` and a place to cut.
pub(super) fn parse(source: &str, file: &str, first_line: u32, min_bytes: usize) -> R<Module> {
    let sequential = || Parser::new(source, file, first_line)?.parse_top_level();
    if source.len() < min_bytes.max(1) {
        return sequential();
    }
    let Some(cut) = cut_point(source) else {
        return sequential();
    };
    let (head, tail) = source.split_at(cut);
    let newlines = count_newlines(head.as_bytes());
    let Some(tail_line) = u32::try_from(newlines)
        .ok()
        .and_then(|n| first_line.max(1).checked_add(n))
    else {
        return sequential();
    };
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| parse_part(tail, file, tail_line, true));
        let first = parse_part(head, file, first_line, false);
        (first, second.join())
    });
    match (first, second) {
        (Some(first), Ok(Some(second))) => merge(first, second, file).map_or_else(sequential, Ok),
        _ => sequential(),
    }
}

/// Newlines in `bytes`, counted in blocks the compiler can vectorize.
fn count_newlines(bytes: &[u8]) -> usize {
    let blocks = bytes.chunks_exact(64);
    let tail = blocks.remainder().iter().filter(|&&c| c == b'\n').count();
    let counted: usize = blocks
        .map(|block| block.iter().map(|&c| u8::from(c == b'\n')).sum::<u8>() as usize)
        .sum();
    counted + tail
}

/// The start of the line nearest after the middle of `source` that begins
/// a top-level `func.func`.
fn cut_point(source: &str) -> Option<usize> {
    let mut mid = source.len() / 2;
    while !source.is_char_boundary(mid) {
        mid += 1;
    }
    source[mid..].find(CUT_BEFORE).map(|at| mid + at + 1)
}

/// A part's top-level ops and their values.
struct Part {
    ops: Vec<Op>,
    values: Vec<ValueData>,
}

/// Parses one part; `None` when it fails, or when `second` and it defines
/// something the other part could share.
fn parse_part(text: &str, file: &str, first_line: u32, second: bool) -> Option<Part> {
    let mut parser = Parser::new(text, file, first_line).ok()?;
    let ops = parser.parse_top_ops().ok()?;
    if second && !parser.defines_nothing_shared() {
        return None;
    }
    Some(canonical(ops, parser.take_values()))
}

/// The part with its values renumbered in canonical order (on the part's
/// own thread), so that the merged module needs no renumbering.
fn canonical(ops: Vec<Op>, values: Vec<ValueData>) -> Part {
    let mut module = Module::new(Location::Unknown);
    module.values = values;
    module.body_mut().ops = ops;
    module.renumber_values();
    Part {
        ops: std::mem::take(&mut module.body_mut().ops),
        values: module.values,
    }
}

/// The module of both parts, the second's values moved behind the
/// first's (both canonical, so the whole is); `None` when the ids would
/// not fit.
fn merge(first: Part, second: Part, file: &str) -> Option<Module> {
    let Part {
        mut ops,
        mut values,
    } = first;
    let base = u32::try_from(values.len()).ok()?;
    u32::try_from(second.values.len())
        .ok()
        .and_then(|count| base.checked_add(count))?;
    let mut second_ops = second.ops;
    for op in &mut second_ops {
        for v in op.operands.iter_mut().chain(op.results.iter_mut()) {
            v.0 += base;
        }
        op.shift_nested_value_ids(base);
    }
    values.extend(second.values);
    ops.extend(second_ops);
    Some(top_level_module(ops, values, file))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequential and the (forced) parallel parse of `text`.
    fn both_ways(text: &str) -> (R<Module>, R<Module>) {
        (
            Parser::new(text, "t.mlir", 1).and_then(Parser::parse_top_level),
            parse(text, "t.mlir", 1, 0),
        )
    }

    fn assert_same(text: &str) {
        match both_ways(text) {
            (Ok(sequential), Ok(parallel)) => assert!(sequential == parallel, "{text}"),
            (Err(s), Err(p)) => assert_eq!(s, p, "{text}"),
            (s, p) => panic!("{text}: sequential {:?}, parallel {:?}", s.err(), p.err()),
        }
    }

    #[test]
    fn newlines_are_counted() {
        for len in [0, 1, 63, 64, 65, 200] {
            let text: Vec<u8> = (0..len)
                .map(|i| if i % 3 == 0 { b'\n' } else { b'x' })
                .collect();
            let expected = text.iter().filter(|&&c| c == b'\n').count();
            assert_eq!(count_newlines(&text), expected, "{len}");
        }
    }

    #[test]
    fn parts_merge_into_the_sequential_module() {
        let function = |name: &str| {
            format!(
                "func.func @{name}(%x: i32) -> i32 {{\n  %y = tfrt.add.i32 %x, %x\n  tfrt.return %y : i32\n}}\n"
            )
        };
        let text: String = (0..8).map(|i| function(&format!("f{i}"))).collect();
        assert_same(&text);
        assert!(cut_point(&text).is_some());
        // Aliases in the first part, used in the second: sequential.
        assert_same(&format!(
            "!c = !tfrt.chain\n{text}func.func @g(%c: !c) {{\n  tfrt.return\n}}\n"
        ));
        // An alias defined in both parts is an error either way.
        let alias = "#a = 1 : i32\n";
        let half = function("h");
        assert_same(&format!("{alias}{half}{alias}{half}{text}"));
        // A top-level value defined twice, once per part.
        let value = "%v = \"test.v\"() : () -> i32\n";
        assert_same(&format!("{value}{text}{value}{text}"));
        // Location aliases defined after their uses, in either part.
        let located = |name: &str| format!("func.func @{name}() {{\n  tfrt.return loc(#l)\n}}\n");
        assert_same(&format!(
            "{}{text}{}#l = loc(\"x\":1:2)\n",
            located("a"),
            located("b")
        ));
        // A dialect body spanning the cut.
        assert_same(&format!(
            "{text}\"test.t\"() {{a = #x<\nfunc.func >}} : () -> ()\n{text}"
        ));
    }

    /// Every corpus program parses the same either way.
    #[test]
    fn corpus_parses_the_same_on_two_threads() {
        let chunks = crate::test_corpus::corpus_chunks();
        for (_, chunk) in &chunks {
            assert_same(chunk);
        }
        let compared = chunks.len();
        assert!(compared > 20, "only {compared} programs compared");
    }
}
