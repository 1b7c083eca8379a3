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
        BtfErrorKind::IndexOutOfRange { index: 3 }
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
        }
    );
    assert_eq!(
        error.to_string(),
        "tensor 0's COO coordinates: the coordinate of stored element 1 on axis 1 is not less \
         than its dimension"
    );
}

#[test]
fn every_truncation_is_an_error_naming_the_file_size_and_no_file_value() {
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
            assert_eq!(error.size, len as u64);
            assert!(error.offset().is_none_or(|o| o < len as u64 + 8), "{error}");
            let text = error.to_string();
            assert!(text.contains(&format!("{len}")), "{len}: {text}");
            // The record offsets the table holds (0x20, 0x50, 0x80) and
            // the offsets of the parts they lead to are never shown.
            for offset in [32, 48, 64, 80, 96, 128, 144] {
                let shown = text.contains(&format!(" {offset}"));
                assert!(!shown || offset == len, "{len}: {text}");
            }
        }
    }
}

#[test]
fn huge_counts_ranks_and_dims_are_refused_before_allocating() {
    let mut bytes = reference_layout();
    bytes[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap_err();
    assert_eq!(
        (error.place, &error.kind),
        (Place::Count, &BtfErrorKind::CountTooLarge)
    );
    assert_eq!(
        error.to_string(),
        "the file's tensor count field (at offset 0) declares more tensors than its 152 bytes \
         can hold"
    );

    let mut bytes = reference_layout();
    bytes[0x20..0x28].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(
        (error.place, &error.kind),
        (
            Place::Record {
                tensor: Some(0),
                part: Part::Dims
            },
            &BtfErrorKind::Truncated
        )
    );
    assert_eq!(error.offset(), None);

    let mut bytes = reference_layout();
    bytes[0x30..0x38].copy_from_slice(&(1u64 << 40).to_le_bytes());
    bytes[0x38..0x40].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(error.kind, BtfErrorKind::SizeOverflow);
    assert_eq!(
        error.to_string(),
        "tensor 0's dims make an element count or byte size that exceeds 64 bits"
    );

    let mut bytes = reference_layout();
    bytes[0x38..0x40].copy_from_slice(&1000u64.to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the 152-byte file ends before the end of tensor 0's elements"
    );

    let mut bytes = reference_layout();
    bytes[0x10..0x18].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let error = BtfFile::parse(&bytes).unwrap().record(1).unwrap_err();
    assert_eq!(
        error.to_string(),
        "tensor 1's header offset (at offset 16 of the offset table) points where a header \
         does not fit in the 152-byte file"
    );
}

#[test]
fn unknown_codes_are_described_not_shown() {
    let mut bytes = reference_layout();
    bytes[0x28] = 12;
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "tensor 0's header names a dtype the format does not define"
    );
    bytes[0x28] = 2;
    bytes[0x29] = 7;
    let error = BtfFile::parse(&bytes).unwrap().record(0).unwrap_err();
    assert_eq!(error.kind, BtfErrorKind::UnknownLayout);
    assert_eq!(
        error.to_string(),
        "tensor 0's header names a layout the format does not define"
    );
}

#[test]
fn an_index_out_of_range_names_the_index_not_the_count() {
    let bytes = reference_layout();
    for index in [-1, 3, i64::MAX] {
        let error = locate(&mut SliceSource(&bytes), index).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("tensor index {index} is out of range for this file")
        );
    }
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
