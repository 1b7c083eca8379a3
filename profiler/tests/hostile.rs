//! Recordings from untrusted bytes: arbitrary bytes, and valid recordings
//! damaged at random, read to a recording or an error at an offset, never
//! a panic, and never needing more memory than a small multiple of the
//! input (every count is checked against the bytes left before anything
//! is allocated). Whatever reads also analyses and exports.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bef_trace::critical_path::{self, CriticalOptions};
use bef_trace::{Model, chrome, perfetto, stats};
use proptest::prelude::*;

/// Counts this thread's live bytes and their peak, so that a test can
/// bound what one call allocates.
struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn note(delta: isize) {
    // `try_with`: during thread teardown the counters may be gone.
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add_signed(delta);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are const-initialised thread locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as isize);
        // SAFETY: the caller's contract for `alloc` is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize));
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size as isize - layout.size() as isize);
        // SAFETY: the caller's contract for `realloc` is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most `read` may need beyond what it returns... and what it returns:
/// 64 bytes per input byte, plus a little.
fn bound(len: usize) -> usize {
    64 * len + (64 << 10)
}

/// Reads `bytes`, checking the memory bound; exports what reads.
fn read_and_export(bytes: &[u8]) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let result = bef_trace::read(bytes);
    let peak = PEAK.with(Cell::get) - base;
    assert!(
        peak <= bound(bytes.len()),
        "reading {} bytes needed {peak} bytes",
        bytes.len()
    );
    match result {
        Ok(recording) => {
            let model = Model::new(&recording);
            let _ = perfetto::export(&model);
            let _ = chrome::export(&model);
            let _ = stats::stats(&model);
            let _ = critical_path::analyse(
                &model,
                &CriticalOptions {
                    what_if_workers: Some(2),
                },
            );
        }
        Err(e) => assert!(e.offset <= bytes.len(), "{e}"),
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/fuzz/trace_read");
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    seeds.sort();
    assert!(
        seeds.len() >= 3,
        "seed recordings missing from {}",
        dir.display()
    );
    seeds
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut bytes = b"BEFTRACE\x01\x00".to_vec();
        bytes.extend(&tail);
        read_and_export(&bytes);
        read_and_export(&tail);
    }

    #[test]
    fn damaged_recordings_never_panic(
        seed in 0usize..3,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let mut bytes = seeds()[seed].clone();
        for (at, value, how) in edits {
            let at = at % bytes.len();
            match how {
                0 => bytes[at] = value,
                1 => bytes.truncate(at.max(1)),
                _ => bytes.insert(at, value),
            }
        }
        read_and_export(&bytes);
    }
}

#[test]
fn a_huge_count_is_refused_without_allocating_it() {
    // A thread claiming 2^40 events in a few bytes.
    let mut bytes = b"BEFTRACE\x01\x00".to_vec();
    bytes.extend([0; 14]); // empty header fields
    bytes.push(0); // no functions
    bytes.push(1); // one thread
    bytes.extend([0, 0]); // unnamed, none dropped
    bytes.extend([0x80, 0x80, 0x80, 0x80, 0x80, 0x20]); // 2^40 events
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let err = bef_trace::read(&bytes).unwrap_err();
    assert!(err.message.contains("event count"), "{err}");
    assert!(PEAK.with(Cell::get) - base < 4096);
}

/// The Chrome JSON and Perfetto exports are written an event at a time:
/// beyond the model, they need at most a few hundred bytes per event (exporting a
/// million events once took 4 GB), whatever the trace's size.
#[test]
fn exports_stream_their_events() {
    let dir = std::env::temp_dir().join(format!("bef-trace-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let program = dir.join("loop.mlir");
    std::fs::write(
        &program,
        "func.func @main() -> i32 {
  %n = tfrt.constant.i32 20000
  %x = tfrt.constant.i32 0
  %r = tfrt.repeat.i32 %n, %x : i32 {
    %one = tfrt.constant.i32 1
    %y = tfrt.add.i32 %x, %one
    tfrt.return %y : i32
  }
  tfrt.return %r : i32
}
",
    )
    .expect("program written");
    let (recording, _) =
        bef_trace::record_file(&program, &Default::default(), |_| {}).expect("records");
    let _ = std::fs::remove_dir_all(&dir);
    let events = recording.event_count();
    assert!(events > 100_000, "{events} events");
    let model = Model::new(&recording);
    let measure = |export: &dyn Fn(&mut std::io::Sink) -> std::io::Result<()>| {
        let base = LIVE.with(Cell::get);
        PEAK.with(|p| p.set(base));
        export(&mut std::io::sink()).expect("exports");
        PEAK.with(Cell::get) - base
    };
    let chrome_peak = measure(&|out| chrome::write(&model, out));
    let perfetto_peak = measure(&|out| perfetto::write(&model, out));
    for (what, peak) in [("Chrome JSON", chrome_peak), ("Perfetto", perfetto_peak)] {
        assert!(
            peak <= 256 * events + (1 << 20),
            "{what}: {peak} bytes for {events} events"
        );
    }
}
