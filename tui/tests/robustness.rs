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
