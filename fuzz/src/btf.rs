//! BTF files from untrusted bytes: every record reads or fails with an
//! error whose offset lies in the file, never a panic; a record that reads
//! has exactly the bytes its dims and dtype need, reads the same through
//! the piecewise locator, and writes back to a file that reads the same;
//! its summary (what `bef dump` and `befview` list) names offsets in the
//! file and keeps a bounded preview.

use bef::btf::summary::{self, PREVIEW_VALUES, ScanBudget};
use bef::btf::{self, BtfFile, Payload, PayloadExtent, SliceSource, TensorToWrite};

/// Reads `data` as a BTF file, and each record it holds.
pub fn btf_read(data: &[u8]) {
    let file = match BtfFile::parse(data) {
        Ok(file) => file,
        Err(e) => {
            check_error(&e, data);
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
                check_error(a, data);
            }
            _ => panic!("the two readers disagree: {record:?} vs {located:?}"),
        }
    }
    // The listing: every summary of a record that reads lies in the file.
    let mut budget = ScanBudget::for_file(data.len() as u64);
    let mut source = SliceSource(data);
    let (count, tensors) = summary::summaries(&mut source, &mut budget).expect("the count reads");
    assert_eq!(count, file.len());
    for tensor in tensors.take(64) {
        let tensor = match tensor {
            Ok(tensor) => tensor,
            Err(e) => {
                check_error(&e, data);
                continue;
            }
        };
        assert!(tensor.data_offset <= data.len() as u64);
        assert!(tensor.preview.len() <= PREVIEW_VALUES);
        assert!(tensor.preview.len() as u64 <= tensor.stored);
        let _ = (
            tensor.shape_text(),
            tensor.preview_text(),
            tensor.statistics_cells(),
        );
    }
}

/// An error names its file's size and only offsets the reader computed
/// (within the count field or the offset table).
fn check_error(error: &btf::BtfError, data: &[u8]) {
    assert_eq!(error.size, data.len() as u64, "{error}");
    if let Some(offset) = error.offset() {
        assert!(
            offset <= data.len() as u64,
            "error offset past the input: {error}"
        );
    }
    let _ = error.to_string();
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
