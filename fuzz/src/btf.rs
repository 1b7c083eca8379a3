//! BTF files from untrusted bytes: every record reads or fails with an
//! error whose offset lies in the file, never a panic; a record that reads
//! has exactly the bytes its dims and dtype need, reads the same through
//! the piecewise locator, and writes back to a file that reads the same.

use bef::btf::{self, BtfFile, Payload, PayloadExtent, SliceSource, TensorToWrite};

/// Reads `data` as a BTF file, and each record it holds.
pub fn btf_read(data: &[u8]) {
    let file = match BtfFile::parse(data) {
        Ok(file) => file,
        Err(e) => {
            assert!(
                e.offset <= data.len() as u64,
                "error offset past the input: {e}"
            );
            return;
        }
    };
    // At most as many records as the offsets table can hold.
    for index in 0..file.len().min(64) {
        let record = file.record(index);
        let located = btf::locate(&mut SliceSource(data), index as i64);
        match (&record, &located) {
            (Ok(record), Ok((header, extent))) => {
                assert_eq!(header.offset, record.offset);
                check_record(record, extent);
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "the two readers disagree");
                assert!(
                    a.offset <= data.len() as u64
                        || matches!(a.kind, btf::BtfErrorKind::Truncated { .. }),
                    "error offset past the input: {a}"
                );
            }
            _ => panic!("the two readers disagree: {record:?} vs {located:?}"),
        }
    }
}

fn check_record(record: &btf::Record<'_>, extent: &PayloadExtent) {
    let size = record.dtype.size() as u64;
    let written = match (&record.payload, extent) {
        (Payload::Dense { data, .. }, PayloadExtent::Dense(dense)) => {
            assert_eq!(data.len() as u64, record.num_elements() * size);
            assert_eq!(dense.dims, record.dims);
            btf::write(&[TensorToWrite::Dense {
                dtype: record.dtype,
                dims: &record.dims,
                data,
            }])
        }
        (
            Payload::Coo {
                indices,
                values,
                count,
                ..
            },
            PayloadExtent::Coo { dims, .. },
        ) => {
            assert_eq!(dims, &record.dims);
            assert_eq!(values.len() as u64, count * size);
            assert_eq!(indices.len() as u64, count * 8 * record.dims.len() as u64);
            let coordinates: Vec<u64> = indices
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect();
            btf::write(&[TensorToWrite::Coo {
                dtype: record.dtype,
                dims: &record.dims,
                indices: &coordinates,
                values,
            }])
        }
        _ => panic!("the two readers disagree on the layout of {record:?}"),
    };
    let written = written.expect("a record that reads writes");
    let again = BtfFile::parse(&written)
        .and_then(|f| f.record(0))
        .expect("a written record reads");
    assert_eq!(again.dims, record.dims);
    assert_eq!(again.dtype, record.dtype);
    assert_eq!(again.layout(), record.layout());
}
