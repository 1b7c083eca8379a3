//! Random keys on random and damaged files: no panic, and the state stays
//! consistent (`befview::simulate::check`) after every event and frame.

mod common;

use std::path::Path;

use befview::{App, Document, Loaded, simulate};
use proptest::prelude::*;

/// The test program translated to BEF, as befview sees it.
fn program() -> Vec<u8> {
    common::open("befview/inspect.mlir").bytes().to_vec()
}

/// Opens `bytes` and runs `keys` on it; files that are not BEF at all are
/// rejected with an error, which is fine.
fn drive(bytes: &[u8], keys: &[u8], width: u16, height: u16) -> Result<(), String> {
    let Ok(loaded) = Loaded::from_bytes(Path::new("random.bef"), bytes) else {
        return Ok(());
    };
    let Ok(doc) = Document::new(&loaded) else {
        return Ok(());
    };
    doc.analysis();
    let mut app = App::new(&doc);
    simulate::run(&mut app, keys, width, height)
}

/// Keys that visit every tab, open a function and a kernel's bytes, and
/// scroll (bytes as `simulate::apply` reads them: 6..11 are tabs 1..6,
/// 36 Enter, 26 Down, 5 G).
const TOUR: &[u8] = &[
    7, 0, 8, 0, 5, 0, 36, 0, 26, 0, 36, 0, 9, 0, 5, 0, 10, 0, 3, 0, 36, 0,
];

#[test]
fn every_truncation_of_the_test_program() {
    let bytes = program();
    for len in 0..=bytes.len() {
        if let Err(e) = drive(&bytes[..len], TOUR, 80, 24) {
            panic!("truncated to {len} bytes: {e}");
        }
    }
}

#[test]
fn every_truncation_of_a_damaged_corpus_file() {
    let bytes = std::fs::read(common::corpus("cli/truncated.bef")).expect("readable");
    for len in 0..=bytes.len() {
        if let Err(e) = drive(&bytes[..len], TOUR, 120, 40) {
            panic!("truncated to {len} bytes: {e}");
        }
    }
}

/// A file: the test program truncated and with bits flipped, or noise
/// after the BEF magic.
fn file() -> impl Strategy<Value = Vec<u8>> {
    let bytes = program();
    let len = bytes.len();
    prop_oneof![
        (0..=len, prop::collection::vec(0..len * 8, 0..6)).prop_map(move |(cut, flips)| {
            let mut b = bytes.clone();
            for bit in flips {
                b[bit / 8] ^= 1 << (bit % 8);
            }
            b.truncate(cut);
            b
        }),
        prop::collection::vec(any::<u8>(), 0..400).prop_map(|mut b| {
            b.splice(0..0, [0x0b, 0xef, 0x00]);
            b
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_keys_on_damaged_files(
        bytes in file(),
        keys in prop::collection::vec(any::<u8>(), 0..120),
        wide in any::<bool>(),
    ) {
        let (width, height) = if wide { (200, 60) } else { (80, 24) };
        if let Err(e) = drive(&bytes, &keys, width, height) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// A recording of the test program (the `s` work queue, values
/// rendered), as `bef_trace::write` stores it.
fn recording() -> Vec<u8> {
    let options = bef_trace::RecordOptions {
        recorder: bef_trace::RecorderOptions {
            values: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let (recording, _) =
        bef_trace::record_file(&common::corpus("befview/execution.mlir"), &options, |_| {})
            .expect("the program records");
    bef_trace::write(&recording)
}

/// Opens `bytes` as a recording of the test program and runs `keys` on
/// its Execution tab; bytes that are not a readable recording are an
/// error, which is fine.
fn drive_recording(bytes: &[u8], keys: &[u8], width: u16, height: u16) -> Result<(), String> {
    let Ok(trace) = befview::model::execution::Trace::read(Path::new("random.beftrace"), bytes)
    else {
        return Ok(());
    };
    let loaded = common::open("befview/execution.mlir");
    let doc = Document::new(&loaded).map_err(|e| e.to_string())?;
    let mut app = App::with_trace(&doc, trace);
    simulate::run(&mut app, keys, width, height)
}

/// `[`, `]`, `{`, `}` (keys 39 to 42 of `simulate`'s table), `l`,
/// Down, `G`, `gg` and tab 6 again, in a loop.
const EXECUTION_TOUR: &[u8] = &[
    40, 0, 40, 0, 39, 0, 42, 0, 41, 0, 3, 0, 26, 0, 5, 0, 4, 0, 4, 0, 11, 0, 40, 0, 42, 0,
];

#[test]
fn the_execution_tab_on_every_truncation_of_a_recording() {
    let bytes = recording();
    let mut opened = 0;
    for len in 0..=bytes.len() {
        if befview::model::execution::Trace::read(Path::new("r"), &bytes[..len]).is_ok() {
            opened += 1;
        }
        if let Err(e) = drive_recording(&bytes[..len], EXECUTION_TOUR, 80, 24) {
            panic!("truncated to {len} bytes: {e}");
        }
    }
    assert!(opened >= 1, "the whole recording opens");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn random_keys_on_damaged_recordings(
        cut in any::<prop::sample::Index>(),
        flips in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        keys in prop::collection::vec(any::<u8>(), 0..120),
        wide in any::<bool>(),
    ) {
        let mut bytes = recording();
        let bits = bytes.len() * 8;
        for flip in flips {
            let bit = flip.index(bits);
            bytes[bit / 8] ^= 1 << (bit % 8);
        }
        let len = bytes.len();
        bytes.truncate(len - cut.index(len / 4 + 1));
        let (width, height) = if wide { (200, 60) } else { (80, 24) };
        if let Err(e) = drive_recording(&bytes, &keys, width, height) {
            prop_assert!(false, "{}", e);
        }
    }
}
