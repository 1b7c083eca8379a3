//! Hostile inputs: truncations, huge counts, offsets past the end, deep
//! nesting. Each must give a clear error (never a panic), and peak memory
//! must stay within a small multiple of the input size, measured by a
//! counting global allocator.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use bef::format::dtype::AttrType;
use bef::format::{Attribute, BefBuffer, DecodeError, Module, encode, verify};
use bef::inspect::Listing;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Tests share the counters, so they take turns.
static SERIAL: Mutex<()> = Mutex::new(());

/// Runs every decoder entry point on `bytes`; returns the errors found and
/// the peak bytes allocated while doing so (the input copy excluded).
fn exercise(bytes: &[u8]) -> (Vec<DecodeError>, usize) {
    let buffer = BefBuffer::copy_from(bytes);
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut errors = Vec::new();
    match buffer.open() {
        Err(e) => errors.push(e),
        Ok(file) => {
            if let Err(problems) = verify(&file) {
                errors.extend(problems);
            }
            errors.extend(file.to_module().err());
        }
    }
    // The listing (what `bef dump` shows) takes damaged files too, and
    // reports what it could not list.
    match Listing::new(buffer.bytes()) {
        Err(e) => errors.push(e),
        Ok(listing) => errors.extend_from_slice(listing.errors()),
    }
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    (errors, peak)
}

/// The peak bytes allocated listing `bytes` (opening, decoding every
/// table and function, looking up a sample of bytes and collecting the
/// errors), the input copy excluded.
fn listing_peak(bytes: &[u8]) -> usize {
    let buffer = BefBuffer::copy_from(bytes);
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    if let Ok(listing) = Listing::new(buffer.bytes()) {
        let _ = listing.errors();
        for offset in (0..bytes.len()).step_by(1 + bytes.len() / 64) {
            let _ = listing.item_at(offset);
        }
        // A screenful of a hex view.
        let _ = listing.fields_in(0..4096);
    }
    PEAK.load(Ordering::Relaxed).saturating_sub(base)
}

/// Memory allowed for an input of `len` bytes.
fn budget(len: usize) -> usize {
    64 * len + 256 * 1024
}

fn expect_error(bytes: &[u8], needle: &str) {
    let (errors, peak) = exercise(bytes);
    let error = errors
        .iter()
        .find(|e| e.message.contains(needle))
        .unwrap_or_else(|| panic!("no error mentions {needle:?}: {errors:?}"));
    assert!(error.to_string().contains(" at offset 0x"), "{error}");
    assert!(
        peak <= budget(bytes.len()),
        "{peak} bytes for a {}-byte input",
        bytes.len()
    );
}

fn goldens() -> Vec<(String, Vec<u8>)> {
    let dir = common::corpus_path("bef");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

fn vbr(value: u64) -> Vec<u8> {
    let mut e = bef::format::emitter::Emitter::new();
    e.vbr(value);
    e.into_bytes()
}

fn section(id: u8, data: &[u8]) -> Vec<u8> {
    let mut out = vec![id];
    out.extend(vbr((data.len() as u64) << 1));
    out.extend(data);
    out
}

fn file(sections: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![0x0b, 0xef, 0x00];
    for s in sections {
        out.extend(s);
    }
    out
}

const HUGE: u64 = 1 << 60;

#[test]
fn every_truncation_of_every_golden_file_fails_cleanly() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for (name, bytes) in goldens() {
        let (errors, _) = exercise(&bytes);
        assert!(errors.is_empty(), "{name}: {errors:?}");
        // Cutting the file at a section boundary leaves a shorter valid
        // file (e.g. without the optional sections); anywhere else it errs.
        let buffer = BefBuffer::copy_from(&bytes);
        let boundaries: Vec<usize> = buffer
            .open()
            .unwrap()
            .sections()
            .iter()
            .map(|s| s.header_offset as usize)
            .collect();
        for len in 0..bytes.len() {
            let (errors, peak) = exercise(&bytes[..len]);
            assert!(peak <= budget(len), "{name}[..{len}]: {peak} bytes");
            if errors.is_empty() {
                assert!(
                    boundaries.contains(&len),
                    "{name} truncated to {len} bytes was accepted"
                );
            }
            for error in errors {
                assert!(error.to_string().contains(" at offset 0x"), "{error}");
            }
        }
    }
}

#[test]
fn huge_counts_are_refused_before_allocation() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    expect_error(
        &file(&[section(4, &vbr(HUGE))]),
        "function count 1152921504606846976 exceeds",
    );
    expect_error(
        &file(&[section(2, &vbr(HUGE))]),
        "kernel count 1152921504606846976 exceeds",
    );
    expect_error(&file(&[section(3, &vbr(HUGE))]), "type count");
    // A function whose register table claims 2^60 registers.
    let index = [&[1u8, 0, 0, 0, 0, 0][..]].concat();
    let body = [vbr(0), vbr(HUGE)].concat();
    expect_error(
        &file(&[section(0, b"f\0"), section(4, &index), section(5, &body)]),
        "register count 1152921504606846976 exceeds",
    );
    // A section claiming 2^60 bytes.
    let mut bytes = vec![0x0b, 0xef, 0x00, 0x07];
    bytes.extend(vbr(HUGE << 1));
    expect_error(&bytes, "Locations section needs 1152921504606846976 bytes");
    // An aggregate claiming 2^30 elements.
    let mut agg = vec![8u8, 0, 20, 0, 32, 0, 0, 0];
    agg.extend(&(1u32 << 30).to_le_bytes());
    agg.extend([0; 20]);
    let types = [vbr(1), vbr(0), vbr(u64::from(AttrType::AGGREGATE.0))].concat();
    expect_error(
        &file(&[section(1, &agg), section(8, &types)]),
        "aggregate of 1073741824 elements",
    );
}

#[test]
fn offsets_past_the_end_are_reported() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Function body offset past the Functions section.
    let index = [&[1u8, 0][..], &vbr(1000), &[0, 0, 0]].concat();
    expect_error(
        &file(&[section(0, b"f\0"), section(4, &index), section(5, &[])]),
        "outside the 0-byte Functions section",
    );
    // A name offset past the string table.
    let index = [&[1u8, 0, 0][..], &vbr(77), &[0, 0]].concat();
    expect_error(
        &file(&[section(0, b"f\0"), section(4, &index)]),
        "offset 77 is outside the 2-byte string table",
    );
    // A kernel whose location points past the Locations section.
    let (_, mut add) = goldens()
        .into_iter()
        .find(|(n, _)| n.ends_with("add_i32.bef"))
        .unwrap();
    // The add kernel's header: code 0, location 4, 2 arguments.
    let header = [0u8, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0];
    let location_field = add.windows(12).position(|w| w == header).unwrap() + 4;
    add[location_field..location_field + 4].copy_from_slice(&0x0000_7000u32.to_le_bytes());
    expect_error(&add, "past the end of the 8-byte Locations section");
}

#[test]
fn deep_nesting_is_bounded() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // 100,000 nested call sites.
    let mut locations = vec![3u8; 100_000];
    locations.push(0);
    expect_error(
        &file(&[section(7, &locations)]),
        "locations nested deeper than 64 levels",
    );
    // Aggregates nested 200 deep.
    let mut attr = Attribute::I32(1);
    for _ in 0..200 {
        attr = Attribute::Aggregate(vec![attr]);
    }
    let module = Module {
        attributes: vec![attr],
        optional_sections: true,
        extra_strings: Vec::new(),
        ..Module::default()
    };
    expect_error(
        &encode(&module).unwrap(),
        "attributes nested deeper than 64 levels",
    );
}

#[test]
fn random_bit_flips_never_panic_and_stay_in_budget() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = 0x1234_5678_9abc_def0u64;
    for (name, bytes) in goldens() {
        for _ in 0..500 {
            let mut flipped = bytes.clone();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bit = state as usize % (flipped.len() * 8);
            flipped[bit / 8] ^= 1 << (bit % 8);
            let (_, peak) = exercise(&flipped);
            assert!(
                peak <= budget(flipped.len()),
                "{name} with bit {bit} flipped: {peak} bytes"
            );
        }
    }
}

/// Tables of one-byte entries: the listing of each stays within budget.
#[test]
fn listing_many_tiny_items_stays_in_budget() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    const N: u64 = 20_000;
    let check = |what: &str, bytes: &[u8]| {
        let peak = listing_peak(bytes);
        assert!(
            peak <= budget(bytes.len()),
            "{what}: {peak} bytes for {} bytes",
            bytes.len()
        );
    };
    check("empty strings", &file(&[section(0, &vec![0; N as usize])]));
    // Kernel and type names that are all the empty string.
    let names = [vbr(N), vec![0; N as usize]].concat();
    check(
        "names",
        &file(&[section(0, b"\0"), section(2, &names), section(3, &names)]),
    );
    check(
        "unknown locations",
        &file(&[section(7, &vec![0; N as usize])]),
    );
    // Native functions, five bytes each.
    let index = [vbr(N), [1u8, 0, 0, 0, 0].repeat(N as usize)].concat();
    check(
        "native functions",
        &file(&[section(0, b"\0"), section(4, &index)]),
    );
    // One function with one-byte registers, each with a type, and
    // kernel-table rows that all share one record.
    let mut body = [vbr(0), vbr(N)].concat();
    body.extend(vec![0; N as usize]);
    body.extend(vbr(N / 4));
    body.extend([0, 0, 0].repeat(N as usize / 4));
    body.resize(body.len().next_multiple_of(4), 0xcc);
    body.extend([0u8; 24]);
    let types = [vbr(1), vbr(N), vec![0; N as usize]].concat();
    let bytes = file(&[
        section(0, b"\0"),
        section(3, &[1, 0]),
        section(4, &[1, 0, 0, 0, 0, 0]),
        section(5, &body),
        section(10, &types),
    ]);
    let buffer = BefBuffer::copy_from(&bytes);
    let listing = Listing::new(buffer.bytes()).unwrap();
    let function = listing.function(0).unwrap();
    assert_eq!(function.register_count(), N as usize);
    assert_eq!(function.kernel_table_len(), N as usize / 4);
    assert_eq!(function.kernels().len(), 1, "shared records end the list");
    drop(listing);
    check("registers and shared kernel records", &bytes);
}
