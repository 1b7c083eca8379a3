//! Whole-file reads of large files decode the isolated regions (function
//! bodies, each in its own nested IR section with its own value scope) on
//! two threads. The top level is read first with those regions deferred
//! (as `read_lazy` does); each thread then decodes its share with its own
//! copy of the attribute/type table (the first thread straight into the
//! module's values, the second into its own, moved behind them), and the
//! bodies are put back in file order. The result equals the sequential
//! read: values are renumbered canonically either way.

use super::Structure;
use super::ir::{Deferred, is_canonical, read_deferred, read_ir, read_ir_with};
use super::lazy::op_at;
use crate::bytecode::error::{BytecodeError, Result};
use crate::ir::{Module, Op, ValueData};

/// Nested sections smaller than this in total are decoded on one thread:
/// a second thread costs more than it saves on small files.
pub(super) const MIN_PARALLEL_BYTES: usize = 256 << 10;

/// A deferred region with the op it belongs to, taken out of the module.
type Job<'a> = (Deferred<'a>, Op);
/// A decoded op and where it goes.
type Done = (Vec<usize>, Op);

/// Reads the IR of `s`; in parallel when the deferred regions hold at
/// least `min_bytes` and nothing in the file depends on decoding order.
pub(super) fn read_ir_parallel<'a>(s: &mut Structure<'a>, min_bytes: usize) -> Result<Module> {
    if s.version < 2 || s.ir.remaining() < min_bytes || has_distinct_attributes(s) {
        // No nested sections before version 2; small files are not worth
        // a thread; `distinct` attributes are numbered in decoding order,
        // which only one thread keeps.
        return read_ir(s);
    }
    let (mut module, pending, top_in_order) = read_ir_with(s, true)?;
    let bytes: usize = pending.iter().map(|d| d.data.remaining()).sum();
    let mut jobs = Vec::with_capacity(pending.len());
    for deferred in pending {
        jobs.push(take_shell(&mut module, deferred)?);
    }
    if jobs.len() < 2 || bytes < min_bytes {
        module.values.reserve(values_hint(&jobs));
        let (done, in_order) = decode_all(s, jobs, &mut module.values)?;
        put_back(&mut module, done)?;
        renumber_unless(&mut module, top_in_order && in_order);
        return Ok(module);
    }
    // The first thread takes regions in file order until it has half the
    // bytes, decoding straight into the module's values; the second into
    // values of its own, moved behind them afterwards.
    let mut split = 0;
    let mut first_bytes = 0;
    while split < jobs.len() && first_bytes * 2 < bytes {
        first_bytes += jobs[split].0.data.remaining();
        split += 1;
    }
    let second_jobs = jobs.split_off(split);
    // Sized once: growing the vectors would copy them (and touch fresh
    // pages) several times over.
    let second_hint = values_hint(&second_jobs);
    module.values.reserve(values_hint(&jobs) + second_hint);
    let mut second_structure = s.clone();
    // Its own file name: the threads do not count references to one.
    second_structure.table.forget_file_name();
    // The first thread's value count, once it is done (`None` when it
    // failed): the second thread then moves its own values behind them
    // while its ops are still in its cache.
    let (base_tx, base_rx) = std::sync::mpsc::sync_channel::<Option<usize>>(1);
    let (first, second) = std::thread::scope(|scope| {
        // The thread owns its table copy, so freeing it overlaps the
        // first thread's work.
        let second = scope.spawn(move || {
            let mut values = Vec::with_capacity(second_hint);
            let (mut done, in_order) = decode_all(&mut second_structure, second_jobs, &mut values)?;
            drop(second_structure);
            // Nothing is shifted when the ids would not fit: the error is
            // reported below.
            if let Ok(Some(first_len)) = base_rx.recv()
                && let Some(base) = value_base(first_len, values.len())
            {
                for (_, op) in &mut done {
                    op.shift_nested_value_ids(base);
                }
            }
            Ok(((done, in_order), values))
        });
        let first = decode_all(s, jobs, &mut module.values);
        // Never blocks: the channel holds one message.
        let _ = base_tx.send(first.is_ok().then_some(module.values.len()));
        (first, second.join())
    });
    let second = second.map_err(|_| BytecodeError::new(0, "a decoding thread panicked"))?;
    // The first error in file order, as the sequential read reports it.
    let (first, first_in_order) = first?;
    let ((second, second_in_order), mut second_values) = second?;
    value_base(module.values.len(), second_values.len())
        .ok_or_else(|| BytecodeError::new(0, "too many values"))?;
    module.values.append(&mut second_values);
    put_back(&mut module, first)?;
    put_back(&mut module, second)?;
    // The bodies' values follow the top level's in file order.
    renumber_unless(
        &mut module,
        top_in_order && first_in_order && second_in_order,
    );
    Ok(module)
}

/// The first id of values that follow `before` others, when all `count`
/// of them get a `u32` id.
fn value_base(before: usize, count: usize) -> Option<u32> {
    let base = u32::try_from(before).ok()?;
    let count = u32::try_from(count).ok()?;
    base.checked_add(count).map(|_| base)
}

/// Renumbers the values of `module` unless they are known to be in
/// canonical order already (the check `renumber_values` starts with walks
/// the whole module).
fn renumber_unless(module: &mut Module, in_order: bool) {
    if in_order {
        debug_assert!(is_canonical(module));
    } else {
        module.renumber_values();
    }
}

/// About how many values `jobs` define: what the first region of each
/// declares (nested regions add a few), each count bounded by its
/// section's bytes as `open_region` bounds its reservation.
fn values_hint(jobs: &[Job<'_>]) -> usize {
    let declared = |d: &Deferred<'_>| -> usize {
        let mut r = d.data;
        match r.varint() {
            Ok(blocks) if blocks > 0 => {}
            _ => return 0,
        }
        r.varint()
            .ok()
            .and_then(|n| usize::try_from(n).ok())
            .map_or(0, |n| n.min(r.remaining() / 8))
    };
    let sum: usize = jobs.iter().map(|(d, _)| declared(d)).sum();
    sum + sum / 8
}

fn take_shell<'a>(module: &mut Module, deferred: Deferred<'a>) -> Result<Job<'a>> {
    let op = op_at(&mut module.op, &deferred.path).ok_or_else(|| missing(&deferred.path))?;
    Ok((deferred, std::mem::take(op)))
}

/// Decodes deferred regions (and everything inside them), their values
/// appended to `values`; the flag says whether in canonical order.
fn decode_all<'a>(
    s: &mut Structure<'a>,
    jobs: Vec<Job<'a>>,
    values: &mut Vec<ValueData>,
) -> Result<(Vec<Done>, bool)> {
    let mut in_order = true;
    let done = jobs
        .into_iter()
        .map(|(deferred, shell)| {
            let (op, nested, ordered) = read_deferred(s, shell, &deferred, values, false)?;
            debug_assert!(nested.is_empty(), "decoded without deferring");
            in_order &= ordered;
            Ok((deferred.path, op))
        })
        .collect::<Result<_>>()?;
    Ok((done, in_order))
}

/// Puts each decoded op back at its path.
fn put_back(module: &mut Module, done: Vec<Done>) -> Result<()> {
    for (path, op) in done {
        *op_at(&mut module.op, &path).ok_or_else(|| missing(&path))? = op;
    }
    Ok(())
}

fn has_distinct_attributes(s: &Structure<'_>) -> bool {
    s.table.attrs.iter().any(|span| {
        let mut r = span.data;
        if span.custom {
            s.table.dialects.get(span.dialect) == Some(&"builtin")
                && r.varint()
                    .is_ok_and(|code| code == crate::bytecode::builtin_attrs::DISTINCT)
        } else {
            r.rest().starts_with(b"distinct")
        }
    })
}

fn missing(path: &[usize]) -> BytecodeError {
    BytecodeError::new(0, format!("no op at path {path:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequential and the (forced) parallel read of `bytes`; `None`
    /// when the file's framing is already refused.
    fn both_ways(bytes: &[u8]) -> Option<(Result<Module>, Result<Module>)> {
        // An aligned copy, as `read_aligned` makes.
        let align = super::super::MAX_BUFFER_ALIGNMENT;
        let mut storage = vec![0u8; bytes.len() + align];
        let start = storage.as_ptr().align_offset(align);
        storage[start..start + bytes.len()].copy_from_slice(bytes);
        let aligned = &storage[start..start + bytes.len()];
        let (Ok(mut a), Ok(mut b)) = (Structure::parse(aligned), Structure::parse(aligned)) else {
            return None;
        };
        Some((read_ir(&mut a), read_ir_parallel(&mut b, 0)))
    }

    /// Isolated ops with results of their own and values inside: only the
    /// values inside move when a body is put back.
    #[test]
    fn bodies_keep_their_op_results() {
        let text = r#"
            %x = "test.source"() : () -> i32
            %r:2 = "test.isolated"() ({
              ^bb0(%a: i32, %b: f32):
                %c = "test.inner"(%a, %b) : (i32, f32) -> i64
                "test.use"(%c) : (i64) -> ()
            }) : () -> (i32, f32)
            %s = "test.isolated"() ({
              ^bb0(%d: i64):
                "test.use"(%d) : (i64) -> ()
            }) : () -> i8
            "test.use"(%r#1, %s, %x) : (f32, i8, i32) -> ()
        "#;
        let module = crate::text::parse_module(text, "t.mlir").expect("parses");
        let written = crate::bytecode::write(&module, &Default::default()).expect("writes");
        let Some((Ok(sequential), Ok(parallel))) = both_ways(&written.bytes) else {
            panic!("reads");
        };
        assert_eq!(parallel, sequential);
        assert_eq!(parallel.op, module.op);
    }

    /// Both paths on every shared vector (the parallel one forced on
    /// however small the file): the same module, or both an error.
    #[test]
    fn parallel_read_equals_sequential_read() {
        let dir = crate::test_corpus::corpus_path("vectors/mlir-bytecode");
        let mut compared = 0;
        for entry in std::fs::read_dir(&dir).expect("vectors") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "mlirbc") {
                continue;
            }
            let bytes = std::fs::read(&path).expect("readable");
            let Some(reads) = both_ways(&bytes) else {
                continue;
            };
            match reads {
                (Ok(sequential), Ok(parallel)) => {
                    assert!(sequential == parallel, "{}", path.display());
                    compared += 1;
                }
                (Err(_), Err(_)) => {}
                (s, p) => panic!(
                    "{}: sequential {:?}, parallel {:?}",
                    path.display(),
                    s.err(),
                    p.err()
                ),
            }
        }
        assert!(compared > 20, "only {compared} vectors compared");
    }
}
