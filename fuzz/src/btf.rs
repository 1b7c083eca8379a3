//! BTF files from untrusted bytes: every record reads or fails with an
//! error whose offset lies in the file, never a panic; a record that reads
//! has exactly the bytes its dims and dtype need, reads the same through
//! the piecewise locator, and writes back to a file that reads the same;
//! its summary (what `bef dump` and `befview` list) names offsets in the
//! file and keeps a bounded preview. The same bytes also build a file
//! whose offset table names a few records many times (COO records
//! included), whose entries naming one record must read alike, and whose
//! listing must stay within its scan budget.

use arbitrary::{Result, Unstructured};
use bef::btf::summary::{self, EXTRA_SCAN_BYTES, PREVIEW_VALUES, ScanBudget};
use bef::btf::{
    self, BtfDType, BtfFile, HEADER_BYTES, Payload, PayloadExtent, Place, SliceSource, Source,
    TensorToWrite,
};

/// Reads `data` as a BTF file, and each record it holds; then reads the
/// file of shared records `data` describes.
pub fn btf_read(data: &[u8]) {
    check_file(data);
    if let Ok(shared) = shared_records(&mut Unstructured::new(data)) {
        check_file(&shared.bytes);
        check_sharing(&shared);
    }
}

/// Reads `data` as a BTF file, and each record it holds.
fn check_file(data: &[u8]) {
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

/// A file whose offset table names a few records, each many times.
pub(crate) struct Shared {
    /// The file.
    pub(crate) bytes: Vec<u8>,
    /// For each entry, the record it names.
    pub(crate) entries: Vec<usize>,
}

/// One to three records (dense or COO, of any dtype, rank 0 to 3, valid
/// coordinates) named by 1 to 64 entries, then perhaps a byte changed.
pub(crate) fn shared_records(u: &mut Unstructured<'_>) -> Result<Shared> {
    struct Owned {
        dtype: BtfDType,
        dims: Vec<u64>,
        coo: Option<Vec<u64>>,
        data: Vec<u8>,
    }
    let mut records = Vec::new();
    for _ in 0..u.int_in_range(1..=3)? {
        let dtype = *u.choose(&BtfDType::ALL)?;
        let rank = u.int_in_range(0..=3)?;
        let dims: Vec<u64> = (0..rank)
            .map(|_| u.int_in_range(1..=5))
            .collect::<Result<_>>()?;
        let coo = if rank > 0 && u.arbitrary()? {
            let stored = u.int_in_range(0..=6)?;
            let mut indices = Vec::new();
            for _ in 0..stored {
                for &d in &dims {
                    indices.push(u.int_in_range(0..=d - 1)?);
                }
            }
            Some(indices)
        } else {
            None
        };
        let elements = match &coo {
            Some(indices) => indices.len() as u64 / rank,
            None => dims.iter().product(),
        };
        let mut data = vec![0u8; elements as usize * dtype.size()];
        u.fill_buffer(&mut data)?;
        records.push(Owned {
            dtype,
            dims,
            coo,
            data,
        });
    }
    let tensors: Vec<TensorToWrite<'_>> = records
        .iter()
        .map(|r| match &r.coo {
            Some(indices) => TensorToWrite::Coo {
                dtype: r.dtype,
                dims: &r.dims,
                indices,
                values: &r.data,
            },
            None => TensorToWrite::Dense {
                dtype: r.dtype,
                dims: &r.dims,
                data: &r.data,
            },
        })
        .collect();
    let written = btf::write(&tensors).expect("consistent records");
    let n = records.len();
    let offsets: Vec<u64> = written[8..8 + 8 * n]
        .chunks_exact(8)
        .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
        .collect();
    let count = u.int_in_range(1..=64usize)?;
    let entries: Vec<usize> = (0..count)
        .map(|_| u.choose_index(n))
        .collect::<Result<_>>()?;
    // The table grows from n entries to `count`: records move with it.
    let shift = 8 * count as u64;
    let mut bytes = (count as u64).to_le_bytes().to_vec();
    for &record in &entries {
        let offset = offsets[record] - 8 * n as u64 + shift;
        bytes.extend_from_slice(&offset.to_le_bytes());
    }
    bytes.extend_from_slice(&written[8 + 8 * n..]);
    if u.ratio(1, 4)? {
        let at = u.choose_index(bytes.len())?;
        bytes[at] = u.arbitrary()?;
    }
    Ok(Shared { bytes, entries })
}

/// A source that counts the bytes read through it.
struct Counting<'a> {
    inner: SliceSource<'a>,
    read: u64,
}

impl Source for Counting<'_> {
    fn size(&self) -> u64 {
        self.inner.size()
    }

    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        self.read += out.len() as u64;
        self.inner.read_at(offset, out)
    }
}

/// Entries naming one record read alike (unless a changed byte made the
/// table itself differ), and listings stay within their budget whatever
/// the budget: what is read beyond what is charged is constant per entry.
fn check_sharing(shared: &Shared) {
    let data = &shared.bytes;
    let Ok(file) = BtfFile::parse(data) else {
        return;
    };
    let entry = |i: usize| data.get(8 + 8 * i..16 + 8 * i);
    for (i, &a) in shared.entries.iter().enumerate() {
        for (j, &b) in shared.entries.iter().enumerate().skip(i + 1) {
            if a != b || entry(i) != entry(j) || j as u64 >= file.len() {
                continue;
            }
            match (file.record(i as u64), file.record(j as u64)) {
                (Ok(x), Ok(y)) => assert_eq!(x, y, "entries {i} and {j} name one record"),
                (Err(x), Err(y)) => {
                    assert_eq!(x.kind, y.kind, "entries {i} and {j} name one record");
                    let part = |e: &btf::BtfError| match e.place {
                        Place::Record { part, .. } => Some(part),
                        _ => None,
                    };
                    assert_eq!(part(&x), part(&y));
                }
                (x, y) => panic!("entries {i} and {j} name one record: {x:?} vs {y:?}"),
            }
        }
    }
    let size = data.len() as u64;
    // (A changed byte may have changed the count.)
    let count = file.len();
    let uncharged = 8 + count * (8 + HEADER_BYTES + 16 + 8 + PREVIEW_VALUES as u64 * 8);
    for limit in [size + EXTRA_SCAN_BYTES, size / 2, 64, 0] {
        let mut budget = ScanBudget::bytes(limit);
        let mut source = Counting {
            inner: SliceSource(data),
            read: 0,
        };
        let (_, tensors) = summary::summaries(&mut source, &mut budget).expect("the table fits");
        let listed = tensors.count() as u64;
        assert_eq!(listed, count);
        assert!(
            budget.spent() <= limit,
            "{} charged of {limit}",
            budget.spent()
        );
        assert!(
            source.read <= budget.spent() + uncharged,
            "{} bytes read, {} charged",
            source.read,
            budget.spent()
        );
    }
}
