//! Values recorded in full (`--values=full`): the digits classifier
//! (`corpus/models/digits/digits.mlir`) recorded with its tensors'
//! elements, whose matrix products are recomputed from the recorded
//! operands, and the bounds that leave a tensor short.

mod common;

use std::collections::HashMap;

use bef::btf::BtfDType;
use bef_trace::capture::codec;
use bef_trace::capture::recorder::FullValues;
use bef_trace::capture::recording::{
    EventKind, Recording, TensorElements, ValueElements, ValueState,
};
use bef_trace::{RecordOptions, RecorderOptions, record_file};

/// `@digits` recorded on `queue` with values in full within `full`, from
/// the repository's root (where the program's BTF path is rooted).
fn record(queue: &str, full: FullValues) -> Recording {
    let _serial = common::serial();
    std::env::set_current_dir(common::repo_root()).expect("the root exists");
    let options = RecordOptions {
        work_queue: queue.into(),
        functions: vec!["digits".into()],
        recorder: RecorderOptions {
            values: true,
            full_values: Some(full),
            ..RecorderOptions::default()
        },
        ..RecordOptions::default()
    };
    record_file(
        &common::corpus_path("models/digits/digits.mlir"),
        &options,
        |_| {},
    )
    .unwrap_or_else(|e| panic!("digits on {queue}: {e}"))
    .0
}

/// Every value event in time order: (function name, register, the kernel
/// that set or wrote it and whether it wrote in place, the elements).
type Versions = Vec<(String, u32, String, bool, Option<ValueElements>)>;

fn versions(recording: &Recording) -> Versions {
    let mut function: HashMap<u64, u32> = HashMap::new();
    let mut events: Vec<_> = recording
        .threads
        .iter()
        .enumerate()
        .flat_map(|(t, track)| track.events.iter().enumerate().map(move |(i, e)| (t, i, e)))
        .collect();
    events.sort_by_key(|(t, i, e)| (e.time, *t, *i));
    let mut out = Vec::new();
    for (_, _, e) in events {
        let (register, kernel, in_place, value) = match &e.kind {
            EventKind::FunctionBegin { function: f, .. } => {
                function.insert(e.execution, *f);
                continue;
            }
            EventKind::RegisterSet {
                register,
                producer,
                state: ValueState::Concrete,
                value,
            } => (*register, *producer, false, value),
            EventKind::ValueUpdated {
                register,
                kernel,
                value,
            } => (*register, *kernel, true, value),
            _ => continue,
        };
        let f = function[&e.execution];
        out.push((
            recording.function_name(f),
            register,
            recording.kernel_name(f, kernel).to_owned(),
            in_place,
            value.as_ref().and_then(|v| v.elements.as_deref()).cloned(),
        ));
    }
    out
}

/// The f32 elements of `t`.
fn floats(t: &TensorElements) -> Vec<f32> {
    assert_eq!(t.dtype, BtfDType::F32);
    t.data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn dense(elements: &Option<ValueElements>) -> &TensorElements {
    match elements {
        Some(ValueElements::Dense(t)) => t,
        other => panic!("expected elements, found {other:?}"),
    }
}

/// The first version of `@forward`'s register set or written by `kernel`.
fn version<'v>(
    versions: &'v Versions,
    kernel: &str,
    in_place: bool,
    nth: usize,
) -> &'v TensorElements {
    let found: Vec<_> = versions
        .iter()
        .filter(|v| v.0 == "forward" && v.2 == kernel && v.3 == in_place)
        .collect();
    dense(
        &found
            .get(nth)
            .unwrap_or_else(|| panic!("no {kernel} #{nth}"))
            .4,
    )
}

/// `a × b + c` for row-major `a` [n, k], `b` [k, m], `c` [n, m].
fn affine(a: &[f32], b: &[f32], c: &[f32], n: usize, k: usize, m: usize) -> Vec<f32> {
    let mut out = c.to_vec();
    for i in 0..n {
        for j in 0..m {
            let dot: f64 = (0..k)
                .map(|l| f64::from(a[i * k + l]) * f64::from(b[l * m + j]))
                .sum();
            out[i * m + j] = (f64::from(c[i * m + j]) + dot) as f32;
        }
    }
    out
}

fn assert_close(recorded: &[f32], expected: &[f32], what: &str) {
    assert_eq!(recorded.len(), expected.len(), "{what}");
    for (i, (r, e)) in recorded.iter().zip(expected).enumerate() {
        assert!(
            (r - e).abs() <= 1e-4 * (1.0 + e.abs()),
            "{what}: element {i} recorded {r}, recomputed {e}"
        );
    }
}

#[test]
fn the_recorded_products_are_what_their_recorded_operands_make() {
    for queue in ["s", "mstd:2"] {
        let recording = record(queue, FullValues::default());
        assert_eq!(recording.header.value_elements, 1 << 20);
        assert_eq!(recording.header.values_short, 0, "{queue}");
        let versions = versions(&recording);
        // The operands as published, the outputs as the products left
        // them (in place, after the broadcast bias).
        let images = version(&versions, "(arguments)", false, 0);
        let w1 = version(&versions, "btf.read_dense_tensor.f32.2", false, 0);
        let w2 = version(&versions, "btf.read_dense_tensor.f32.2", false, 1);
        let biases = |nth| version(&versions, "tfrt_test.broadcast.f32.2", false, nth);
        let (b1, b2) = if biases(0).dims == [360, 32] {
            (biases(0), biases(1))
        } else {
            (biases(1), biases(0))
        };
        let product = |nth| version(&versions, "tfrt_test.matmul.f32.2", true, nth);
        let (hidden, scores) = if product(0).dims == [360, 32] {
            (product(0), product(1))
        } else {
            (product(1), product(0))
        };
        let relu = version(&versions, "tfrt_test.relu_inplace.f32", true, 0);
        let (w1, w2) = if w1.dims == [64, 32] {
            (w1, w2)
        } else {
            (w2, w1)
        };
        assert_eq!(
            (
                &images.dims[..],
                &w1.dims[..],
                &w2.dims[..],
                &scores.dims[..]
            ),
            (&[360, 64][..], &[64, 32][..], &[32, 10][..], &[360, 10][..])
        );
        let expected = affine(&floats(images), &floats(w1), &floats(b1), 360, 64, 32);
        assert_close(&floats(hidden), &expected, "images × w1 + b1");
        let rectified: Vec<f32> = floats(hidden).iter().map(|x| x.max(0.0)).collect();
        assert_close(&floats(relu), &rectified, "relu");
        let expected = affine(&rectified, &floats(w2), &floats(b2), 360, 32, 10);
        assert_close(&floats(scores), &expected, "hidden × w2 + b2");
        // The versions are copies: the bias as broadcast is not the
        // product written over it later.
        assert_ne!(floats(b2), floats(scores), "{queue}");
        // A recording in full reads back as written.
        let bytes = codec::write(&recording);
        assert_eq!(codec::read(&bytes).expect("reads"), recording);
    }
}

#[test]
fn a_value_over_the_per_value_bound_is_recorded_short_and_said_so() {
    let recording = record(
        "s",
        FullValues {
            value_elements: 1000,
            ..FullValues::default()
        },
    );
    let versions = versions(&recording);
    let mut over = 0;
    for (function, register, kernel, _, elements) in &versions {
        match elements {
            Some(ValueElements::Dense(t)) => {
                assert!(
                    t.data.len() <= 1000 * 4,
                    "%{register} of {function} by {kernel}"
                )
            }
            Some(ValueElements::OverValueBound { elements, bound }) => {
                assert!(*elements > 1000 && *bound == 1000, "{elements} {bound}");
                over += 1;
            }
            _ => {}
        }
    }
    let images = versions
        .iter()
        .find(|v| v.0 == "forward" && v.2 == "(arguments)")
        .expect("the images argument");
    let Some(note) = images.4.as_ref().and_then(ValueElements::left_out) else {
        panic!("the images were kept: {:?}", images.4);
    };
    assert!(
        note.contains("23040 elements, over the bound of 1000"),
        "{note}"
    );
    assert!(over > 0);
    // The header counts every value left short, completions' included.
    let short = recording
        .threads
        .iter()
        .flat_map(|t| &t.events)
        .filter(|e| match &e.kind {
            EventKind::RegisterSet { value, .. }
            | EventKind::ResultAvailable { value, .. }
            | EventKind::ValueUpdated { value, .. } => value
                .as_ref()
                .and_then(|v| v.elements.as_deref())
                .is_some_and(|e| e.left_out().is_some()),
            _ => false,
        })
        .count();
    assert_eq!(recording.header.values_short, short as u64);
}

#[test]
fn past_the_recording_total_values_are_recorded_short() {
    let total = 64 << 10;
    let recording = record(
        "s",
        FullValues {
            total_bytes: total,
            ..FullValues::default()
        },
    );
    let versions = versions(&recording);
    let kept: usize = versions
        .iter()
        .filter_map(|v| match &v.4 {
            Some(ValueElements::Dense(t)) => Some(t.data.len()),
            _ => None,
        })
        .sum();
    let spent = versions
        .iter()
        .filter(|v| matches!(v.4, Some(ValueElements::OverTotalBound)))
        .count();
    assert!(kept as u64 <= total, "{kept} bytes kept");
    assert!(kept > 0 && spent > 0, "{kept} bytes kept, {spent} short");
    assert!(recording.header.values_short >= spent as u64);
}
