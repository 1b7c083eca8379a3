use super::*;

fn le32(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The three tensors of the reference's `test_tensor.btf`, laid out by
/// hand from the format description.
fn reference_layout() -> Vec<u8> {
    let mut out = Vec::new();
    for word in [3u64, 0x20, 0x50, 0x80] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    // [[1, 2], [3, 4]] i32
    out.extend_from_slice(&2u64.to_le_bytes());
    out.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&2u64.to_le_bytes());
    out.extend_from_slice(&2u64.to_le_bytes());
    out.extend_from_slice(&le32(&[1, 2, 3, 4]));
    // [0, 1, 2, 3, 4] i32, padded to 8 bytes
    out.extend_from_slice(&1u64.to_le_bytes());
    out.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&5u64.to_le_bytes());
    out.extend_from_slice(&le32(&[0, 1, 2, 3, 4]));
    out.extend_from_slice(&[0; 4]);
    // [] i32
    out.extend_from_slice(&1u64.to_le_bytes());
    out.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&0u64.to_le_bytes());
    out
}

#[test]
fn writer_lays_out_records_as_the_reference() {
    let a = le32(&[1, 2, 3, 4]);
    let b = le32(&[0, 1, 2, 3, 4]);
    let written = write(&[
        TensorToWrite::Dense {
            dtype: BtfDType::I32,
            dims: &[2, 2],
            data: &a,
        },
        TensorToWrite::Dense {
            dtype: BtfDType::I32,
            dims: &[5],
            data: &b,
        },
        TensorToWrite::Dense {
            dtype: BtfDType::I32,
            dims: &[0],
            data: &[],
        },
    ])
    .unwrap();
    assert_eq!(written, reference_layout());
}

#[test]
fn reader_finds_each_record_in_place() {
    let bytes = reference_layout();
    let file = BtfFile::parse(&bytes).unwrap();
    assert_eq!(file.len(), 3);
    let first = file.record(0).unwrap();
    assert_eq!(
        (first.offset, first.dtype, first.dims.clone()),
        (0x20, BtfDType::I32, vec![2, 2])
    );
    assert_eq!(
        first.payload,
        Payload::Dense {
            data: &bytes[0x40..0x50],
            offset: 0x40
        }
    );
    assert_eq!(file.record(2).unwrap().num_elements(), 0);
    assert_eq!(
        file.record(3).unwrap_err().kind,
        BtfErrorKind::IndexOutOfRange { index: 3, count: 3 }
    );
}

#[test]
fn coo_records_round_trip_and_check_coordinates() {
    let values = [1.5f32.to_le_bytes(), (-2.0f32).to_le_bytes()].concat();
    let bytes = write(&[TensorToWrite::Coo {
        dtype: BtfDType::F32,
        dims: &[3, 4],
        indices: &[0, 1, 2, 3],
        values: &values,
    }])
    .unwrap();
    let file = BtfFile::parse(&bytes).unwrap();
    let record = file.record(0).unwrap();
    assert_eq!(record.layout(), Layout::Coo);
    assert_eq!(record.dims, vec![3, 4]);
    let Payload::Coo {
        indices,
        values: v,
        count,
        ..
    } = record.payload
    else {
        panic!("not COO: {record:?}");
    };
    assert_eq!((indices.len(), v, count), (32, &values[..], 2));

    // A coordinate past its dimension, patched into the file.
    let mut bad = bytes.clone();
    let last_coordinate = 16 + 16 + 16 + 16 + 24;
    bad[last_coordinate] = 4;
    let error = BtfFile::parse(&bad).unwrap().record(0).unwrap_err();
    assert_eq!(
        error.kind,
        BtfErrorKind::CooIndex {
            element: 1,
            axis: 1,
            value: 4,
            limit: 4
        }
    );
    assert_eq!(error.offset, last_coordinate as u64);
}

#[test]
fn every_truncation_is_an_error_naming_an_offset_within_the_file() {
    let bytes = reference_layout();
    for len in 0..bytes.len() {
        let cut = &bytes[..len];
        let results: Vec<Result<Record<'_>, BtfError>> = match BtfFile::parse(cut) {
            Ok(file) => file.records().collect(),
            Err(e) => vec![Err(e)],
        };
        assert!(
            results.iter().any(Result::is_err),
            "{len} bytes read without error"
        );
        for error in results.into_iter().filter_map(Result::err) {
            assert!(error.offset <= bytes.len() as u64, "{len}: {error}");
            assert!(
                error.to_string().contains(&error.offset.to_string())
                    || matches!(error.kind, BtfErrorKind::IndexOutOfRange { .. })
            );
        }
    }
}

#[test]
fn huge_counts_ranks_and_dims_are_refused_before_allocating() {
    let mut bytes = reference_layout();
    bytes[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap_err();
    assert!(
        matches!(
            error.kind,
            BtfErrorKind::Truncated {
                what: "tensor offset",
                ..
            }
        ),
        "{error}"
    );

    let mut bytes = reference_layout();
    bytes[0x20..0x28].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert!(
        matches!(
            error.kind,
            BtfErrorKind::Truncated {
                what: "tensor dims",
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.offset, 0x30);

    let mut bytes = reference_layout();
    bytes[0x30..0x38].copy_from_slice(&(1u64 << 40).to_le_bytes());
    bytes[0x38..0x40].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(
        error.kind,
        BtfErrorKind::SizeOverflow {
            dims: vec![1 << 40, 1 << 40]
        }
    );
    assert!(error.to_string().contains("overflow"), "{error}");

    let mut bytes = reference_layout();
    bytes[0x38..0x40].copy_from_slice(&1000u64.to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "failed to read tensor data at offset 64: 8000 bytes needed, {} in the file from there",
            bytes.len() - 64
        )
    );
}

#[test]
fn unknown_codes_are_named_as_the_reference_names_them() {
    let mut bytes = reference_layout();
    bytes[0x28] = 12;
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unexpected tensor dtype BadDtype(12) in the header at offset 32"
    );
    bytes[0x28] = 2;
    bytes[0x29] = 7;
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(error.kind, BtfErrorKind::UnknownLayout(7));
}

#[test]
fn writer_refuses_tensors_whose_parts_disagree() {
    let error = write(&[TensorToWrite::Dense {
        dtype: BtfDType::F64,
        dims: &[2],
        data: &[0; 12],
    }])
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tensor 0: 12 bytes of data for dims [2] of f64"
    );
    let error = write(&[TensorToWrite::Coo {
        dtype: BtfDType::I8,
        dims: &[2],
        indices: &[2],
        values: &[1],
    }])
    .unwrap_err();
    assert!(error.message.contains("past its dimension 2"), "{error}");
}

#[test]
fn dtype_codes_are_the_reference_codes() {
    for (code, dtype) in BtfDType::ALL.iter().enumerate() {
        assert_eq!(BtfDType::from_code(code as u8), Some(*dtype));
        assert_eq!(BtfDType::from_dtype(dtype.dtype()), Some(*dtype));
    }
    assert_eq!(BtfDType::from_code(10), None);
    assert_eq!(dtype_code_name(4), "f32");
    assert_eq!(dtype_code_name(6), "ui8");
}
