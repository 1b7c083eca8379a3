//! Property tests of the signature layers: any raw or SIP signature
//! mangles to a string that parses back to it (non-ASCII keys, dynamic
//! dims, deep nesting), the SIP mangler built from a tree's index paths
//! gives the tree, and JSON reflection records round-trip.

use std::collections::BTreeMap;

use bef::abi::raw::{RawSignature, RawType, ScalarType, Side};
use bef::abi::reflection::{Reflection, TypeRecord};
use bef::abi::sip::{MAX_NESTING, SipKey, SipMangler, SipNode, SipSignature, StructKind};
use bef::abi::{ElementType, Mode};
use proptest::prelude::*;

fn scalar_type() -> impl Strategy<Value = ScalarType> {
    proptest::sample::select(ScalarType::ALL.to_vec())
}

fn raw_type() -> impl Strategy<Value = RawType> {
    prop_oneof![
        (
            scalar_type(),
            prop::collection::vec(prop::option::of(0..=i32::MAX as u32), 0..6)
        )
            .prop_map(|(element, dims)| RawType::Buffer { element, dims }),
        scalar_type().prop_map(RawType::Scalar),
        Just(RawType::Ref),
        Just(RawType::Unrecognized),
    ]
}

/// A structure tree before its leaves are numbered.
#[derive(Clone, Debug)]
enum Shape {
    Leaf,
    Sequence(BTreeMap<u16, Shape>),
    Dict(BTreeMap<String, Shape>),
}

fn shape(depth: u32) -> impl Strategy<Value = Shape> {
    Just(Shape::Leaf).prop_recursive(depth, 64, 4, |inner| {
        prop_oneof![
            prop::collection::btree_map(any::<u16>(), inner.clone(), 0..4)
                .prop_map(Shape::Sequence),
            // Keys with any characters: non-ASCII, `!`, digits, empty.
            prop::collection::btree_map("\\PC{0,6}", inner, 0..4).prop_map(Shape::Dict),
        ]
    })
}

/// The tree with its leaves numbered in signature order.
fn number(shape: &Shape, next: &mut i32) -> SipNode {
    match shape {
        Shape::Leaf => {
            *next += 1;
            SipNode::Leaf(*next - 1)
        }
        Shape::Sequence(children) => SipNode::Struct {
            kind: StructKind::Sequence,
            entries: children
                .iter()
                .map(|(k, c)| (SipKey::Index(i32::from(*k)), number(c, next)))
                .collect(),
        },
        Shape::Dict(children) => SipNode::Struct {
            kind: StructKind::Dict,
            entries: children
                .iter()
                .map(|(k, c)| (SipKey::Name(k.as_bytes().to_vec()), number(c, next)))
                .collect(),
        },
    }
}

fn has_empty_struct(node: &SipNode) -> bool {
    match node {
        SipNode::Leaf(_) => false,
        SipNode::Struct { entries, .. } => {
            entries.is_empty() || entries.iter().any(|(_, c)| has_empty_struct(c))
        }
    }
}

fn element_type() -> impl Strategy<Value = ElementType> {
    proptest::sample::select(ElementType::ALL.to_vec())
}

fn record(depth: u32) -> impl Strategy<Value = TypeRecord> {
    let leaf = prop_oneof![
        element_type().prop_map(TypeRecord::Scalar),
        Just(TypeRecord::Null),
        Just(TypeRecord::Unknown),
        (
            element_type(),
            prop::option::of(prop::collection::vec(
                prop::option::of(any::<u32>().prop_map(u64::from)),
                0..5
            ))
        )
            .prop_map(|(element, dims)| TypeRecord::NdArray { element, dims }),
    ];
    leaf.prop_recursive(depth, 64, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(TypeRecord::SList),
            prop::collection::vec(inner.clone(), 0..4).prop_map(TypeRecord::STuple),
            prop::collection::btree_map("\\PC{0,5}", inner.clone(), 0..4)
                .prop_map(|m| TypeRecord::SDict(m.into_iter().collect())),
            inner.prop_map(|t| TypeRecord::HomogeneousList(Box::new(t))),
        ]
    })
}

fn argument_record() -> impl Strategy<Value = TypeRecord> {
    prop_oneof![
        3 => record(6),
        1 => ("\\PC{0,5}", record(4)).prop_map(|(n, t)| TypeRecord::Named(n, Box::new(t))),
    ]
}

proptest! {
    #[test]
    fn raw_signatures_round_trip(
        inputs in prop::collection::vec(raw_type(), 0..6),
        results in prop::collection::vec(raw_type(), 0..6),
    ) {
        let signature = RawSignature { inputs, results };
        let mangled = signature.mangle();
        prop_assert_eq!(RawSignature::parse(&mangled, Mode::Strict), Ok(signature.clone()));
        prop_assert_eq!(RawSignature::parse(&mangled, Mode::Lenient), Ok(signature.clone()));
        let text = signature.to_string();
        prop_assert!(text.contains(" -> "));
    }

    #[test]
    fn sip_signatures_round_trip(inputs in prop::option::of(shape(8)), results in prop::option::of(shape(8))) {
        let mut next = 0;
        let inputs = inputs.map(|s| number(&s, &mut next));
        let mut next = 0;
        let results = results.map(|s| number(&s, &mut next));
        let signature = SipSignature { inputs, results };
        let mangled = signature.mangle();
        prop_assert_eq!(SipSignature::parse(&mangled, Mode::Strict), Ok(signature.clone()));
        prop_assert_eq!(SipSignature::parse(&mangled, Mode::Lenient), Ok(signature.clone()));
        // The mangler given every leaf's index path builds the same tree
        // (it cannot express an empty struct).
        let empty = [&signature.inputs, &signature.results]
            .iter()
            .any(|n| n.as_ref().is_some_and(has_empty_struct));
        if !empty {
            let mut mangler = SipMangler::new();
            for (side, node) in [(Side::Input, &signature.inputs), (Side::Result, &signature.results)] {
                for (path, index) in node.iter().flat_map(SipNode::leaves) {
                    prop_assert_eq!(mangler.set_raw_index(side, &path, index), Ok(()));
                }
            }
            prop_assert_eq!(mangler.mangle(), mangled);
        }
    }

    #[test]
    fn deep_sip_paths_round_trip(path in prop::collection::vec(
        prop_oneof![
            (0..1000i32).prop_map(SipKey::Index),
            "\\PC{0,3}".prop_map(|k| SipKey::Name(k.into_bytes())),
        ],
        0..=MAX_NESTING,
    )) {
        let mut mangler = SipMangler::new();
        prop_assert_eq!(mangler.set_raw_index(Side::Input, &path, 0), Ok(()));
        let mangled = mangler.mangle();
        let parsed = SipSignature::parse(&mangled, Mode::Strict).unwrap();
        let leaves = parsed.inputs.as_ref().map(SipNode::leaves).unwrap_or_default();
        prop_assert_eq!(leaves, vec![(path, 0)]);
    }

    #[test]
    fn json_reflection_round_trips(
        args in prop::collection::vec(argument_record(), 0..4),
        results in prop::collection::vec(record(6), 0..4),
    ) {
        let reflection = Reflection { args, results };
        let text = reflection.to_json();
        prop_assert_eq!(Reflection::from_json(text.as_bytes(), Mode::Strict), Ok(reflection.clone()));
        // Compact and sorted: re-serializing through serde_json's sorted
        // map gives the same text.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(serde_json::to_string(&value).unwrap(), text);
    }
}

#[test]
fn sip_paths_deeper_than_the_limit_are_refused() {
    let path = vec![SipKey::Index(0); MAX_NESTING + 1];
    let mut mangler = SipMangler::new();
    assert!(mangler.set_raw_index(Side::Input, &path, 0).is_err());
    assert_eq!(mangler.mangle(), b"I1!R1!");
}
