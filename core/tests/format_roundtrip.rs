//! Property tests of the BEF codec: model → bytes → model.

use arbitrary::Unstructured;
use bef::format::arbitrary_model::arbitrary_module;
use bef::format::emitter::Emitter;
use bef::format::reader::Reader;
use bef::format::{BefBuffer, encode};
use proptest::prelude::*;

fn module_from(seed: &[u8]) -> Option<bef::format::Module> {
    arbitrary_module(&mut Unstructured::new(seed)).ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn encode_decode_is_identity(seed in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let Some(module) = module_from(&seed) else { return Ok(()) };
        let bytes = encode(&module).expect("generated modules always encode");
        let buffer = BefBuffer::copy_from(&bytes);
        let file = buffer.open().expect("encoded bytes open");
        let decoded = file.to_module().expect("encoded bytes decode");
        prop_assert_eq!(&decoded, &module);
    }

    #[test]
    fn encoding_is_deterministic(seed in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let Some(module) = module_from(&seed) else { return Ok(()) };
        let first = encode(&module).unwrap();
        let second = encode(&module.clone()).unwrap();
        prop_assert_eq!(first, second);
    }

    #[test]
    fn decode_encode_reproduces_the_bytes(seed in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let Some(module) = module_from(&seed) else { return Ok(()) };
        let bytes = encode(&module).unwrap();
        let buffer = BefBuffer::copy_from(&bytes);
        let again = encode(&buffer.open().unwrap().to_module().unwrap()).unwrap();
        prop_assert_eq!(again, bytes);
    }

    #[test]
    fn vbr_round_trips_over_the_whole_range(value in any::<u64>(), shift in 0u32..64) {
        for v in [value, value >> shift, u64::MAX >> shift] {
            let mut e = Emitter::new();
            e.vbr(v);
            let mut r = Reader::new(e.bytes(), 0);
            prop_assert_eq!(r.vbr("v").unwrap(), v);
            prop_assert!(r.is_empty());
        }
    }
}

#[test]
fn vbr_edges() {
    for v in [
        0,
        1,
        127,
        128,
        16383,
        16384,
        u32::MAX as u64,
        1 << 63,
        u64::MAX,
    ] {
        let mut e = Emitter::new();
        e.vbr(v);
        assert_eq!(Reader::new(e.bytes(), 0).vbr("v").unwrap(), v, "{v}");
    }
}

/// Guards against a vacuous property: the generator must reach kernels,
/// attributes of every kind and locations.
#[test]
fn generator_covers_the_model() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut seed = vec![0u8; 4096];
    let (mut kernels, mut attrs, mut kinds) = (0, 0, std::collections::HashSet::new());
    for _ in 0..300 {
        for byte in seed.iter_mut() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *byte = state as u8;
        }
        let Some(module) = module_from(&seed) else {
            continue;
        };
        for attr in &module.attributes {
            kinds.insert(attr.attr_type().name());
        }
        attrs += module.attributes.len();
        kernels += module
            .functions
            .iter()
            .filter_map(|f| f.body.as_ref())
            .map(|b| b.kernels.len() - 1)
            .sum::<usize>();
        let bytes = encode(&module).unwrap();
        let buffer = BefBuffer::copy_from(&bytes);
        assert_eq!(buffer.open().unwrap().to_module().unwrap(), module);
    }
    assert!(kernels > 300, "only {kernels} kernels generated");
    assert!(attrs > 300, "only {attrs} attributes generated");
    for kind in [
        "aggregate",
        "dense",
        "shape",
        "string",
        "func",
        "type",
        "symbol_ref",
    ] {
        assert!(
            kinds.contains(kind),
            "no {kind} attribute generated: {kinds:?}"
        );
    }
}
