//! Finding a record and the extent of its payload through any [`Source`]:
//! the file in memory ([`SliceSource`]) or a file read piece by piece
//! ([`FileSource`]). Each step reads only what it needs, after checking
//! that the source has it, so nothing is allocated beyond the source's
//! size.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;

use super::error::{BtfError, BtfErrorKind, Part, Place, table_entry_offset};
use super::summary::ScanBudget;
use super::{BtfDType, COUNT_BYTES, HEADER_BYTES, Layout};

/// Bytes a BTF reader can read at any offset.
pub trait Source {
    /// The number of bytes.
    fn size(&self) -> u64;
    /// Fills `out` with the bytes at `offset`; the caller has checked that
    /// they are within [`size`](Self::size).
    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> std::io::Result<()>;
}

/// A BTF file in memory.
pub struct SliceSource<'a>(pub &'a [u8]);

impl Source for SliceSource<'_> {
    fn size(&self) -> u64 {
        self.0.len() as u64
    }

    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let bytes = usize::try_from(offset)
            .ok()
            .and_then(|start| self.0.get(start..start.checked_add(out.len())?))
            .ok_or(std::io::ErrorKind::UnexpectedEof)?;
        out.copy_from_slice(bytes);
        Ok(())
    }
}

/// A BTF file on disk, read piece by piece. Its size is taken when it is
/// opened: a file that shrinks afterwards fails to read, one that grows is
/// read up to the old size.
pub struct FileSource {
    file: File,
    size: u64,
}

impl FileSource {
    /// Reads `file`, whose size is `size`.
    pub fn new(file: File, size: u64) -> FileSource {
        FileSource { file, size }
    }
}

impl Source for FileSource {
    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        self.file.seek(SeekFrom::Start(offset))?;
        self.file.read_exact(out)
    }
}

/// Reads `N` bytes at `offset`, or says that `place` is truncated.
fn read_array<const N: usize>(
    source: &mut dyn Source,
    offset: u64,
    place: Place,
) -> Result<[u8; N], BtfError> {
    let mut out = [0u8; N];
    read_into(source, offset, &mut out, place)?;
    Ok(out)
}

/// Fills `out` from `offset`, checking first that the source has the
/// bytes; an error is about `place`.
pub(crate) fn read_into(
    source: &mut dyn Source,
    offset: u64,
    out: &mut [u8],
    place: Place,
) -> Result<(), BtfError> {
    let size = source.size();
    if !fits(offset, out.len() as u64, size) {
        return Err(BtfError::new(place, BtfErrorKind::Truncated, size));
    }
    source
        .read_at(offset, out)
        .map_err(|e| BtfError::new(place, BtfErrorKind::Io(e.to_string()), size))
}

/// Whether `len` bytes at `offset` lie within `size` bytes.
fn fits(offset: u64, len: u64, size: u64) -> bool {
    offset.checked_add(len).is_some_and(|end| end <= size)
}

/// The number of tensors the file declares, checked to leave room for
/// its offset table.
pub fn read_count(source: &mut dyn Source) -> Result<u64, BtfError> {
    let count = read_array::<8>(source, 0, Place::Count).map(u64::from_le_bytes)?;
    let size = source.size();
    let table = count
        .checked_mul(8)
        .and_then(|n| n.checked_add(COUNT_BYTES));
    if table.is_none_or(|end| end > size) {
        return Err(BtfError::new(
            Place::Count,
            BtfErrorKind::CountTooLarge,
            size,
        ));
    }
    Ok(count)
}

/// The offset of record `index` of `count` (as [`read_count`] read it).
pub fn record_offset(source: &mut dyn Source, index: i64, count: u64) -> Result<u64, BtfError> {
    let Some(index) = u64::try_from(index).ok().filter(|&i| i < count) else {
        return Err(BtfError::new(
            Place::Request,
            BtfErrorKind::IndexOutOfRange { index },
            source.size(),
        ));
    };
    read_array::<8>(source, table_entry_offset(index), Place::TableEntry(index))
        .map(u64::from_le_bytes)
}

/// A record's header, checked to name a dtype and a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordHeader {
    /// Where the record starts.
    pub offset: u64,
    /// The rank the header declares (not yet checked against the size).
    pub rank: u64,
    /// The element type.
    pub dtype: BtfDType,
    /// The layout.
    pub layout: Layout,
}

/// Reads the header of the record at `offset`.
pub fn read_header(source: &mut dyn Source, offset: u64) -> Result<RecordHeader, BtfError> {
    let header = read_array::<16>(source, offset, record(Part::Header))?;
    let size = source.size();
    let mut rank = [0u8; 8];
    rank.copy_from_slice(&header[..8]);
    let dtype = BtfDType::from_code(header[8])
        .ok_or_else(|| BtfError::record(Part::Header, BtfErrorKind::UnknownDType, size))?;
    let layout = Layout::from_code(header[9])
        .ok_or_else(|| BtfError::record(Part::Header, BtfErrorKind::UnknownLayout, size))?;
    Ok(RecordHeader {
        offset,
        rank: u64::from_le_bytes(rank),
        dtype,
        layout,
    })
}

/// The place of `part` of a record whose tensor the caller adds.
fn record(part: Part) -> Place {
    Place::Record { tensor: None, part }
}

/// The dimensions and element bytes of a dense tensor payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DenseExtent {
    /// The dimensions.
    pub dims: Vec<u64>,
    /// Where the elements are in the source.
    pub data: Range<u64>,
}

impl DenseExtent {
    /// The number of elements.
    pub fn num_elements(&self) -> u64 {
        // Checked when the extent was read.
        self.dims.iter().product()
    }
}

/// Takes `bytes` from `budget`, if there is one, or says that `part` was
/// not scanned.
fn charge(
    budget: &mut Option<&mut ScanBudget>,
    bytes: u64,
    part: Part,
    size: u64,
) -> Result<(), BtfError> {
    match budget.as_deref_mut().map(|b| b.take(bytes)) {
        Some(false) => Err(BtfError::record(part, BtfErrorKind::NotScanned, size)),
        _ => Ok(()),
    }
}

/// Reads `rank` dimensions at `offset` (the record's `part`), checked
/// against the bytes left before anything is allocated and to have an
/// element count and a byte size (in elements of `dtype`) that fit 64
/// bits. Returns them with the byte size and the offset after them.
fn read_dims(
    source: &mut dyn Source,
    offset: u64,
    rank: u64,
    dtype: BtfDType,
    part: Part,
    budget: &mut Option<&mut ScanBudget>,
) -> Result<(Vec<u64>, u64, u64), BtfError> {
    let size = source.size();
    let dims_bytes = rank
        .checked_mul(8)
        .filter(|&n| fits(offset, n, size))
        .ok_or_else(|| BtfError::record(part, BtfErrorKind::Truncated, size))?;
    charge(budget, dims_bytes, part, size)?;
    let mut raw = vec![0u8; dims_bytes as usize];
    read_into(source, offset, &mut raw, record(part))?;
    let dims: Vec<u64> = raw
        .chunks_exact(8)
        .map(|d| u64::from_le_bytes(d.try_into().unwrap_or_default()))
        .collect();
    let bytes = dims
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(d))
        .and_then(|n| n.checked_mul(dtype.size() as u64))
        .ok_or_else(|| BtfError::record(part, BtfErrorKind::SizeOverflow, size))?;
    Ok((dims, bytes, offset + dims_bytes))
}

/// The extent of the elements after dims read by [`read_dims`], checked
/// to lie in the source.
fn elements(
    source: &mut dyn Source,
    (dims, bytes, start): (Vec<u64>, u64, u64),
    part: Part,
) -> Result<DenseExtent, BtfError> {
    if !fits(start, bytes, source.size()) {
        return Err(BtfError::record(
            part,
            BtfErrorKind::Truncated,
            source.size(),
        ));
    }
    Ok(DenseExtent {
        dims,
        data: start..start + bytes,
    })
}

/// Reads a dense payload of `rank` dimensions of `dtype` at `offset`:
/// the dimensions, then the extent of the elements, checked to lie in
/// the source.
pub fn dense_extent(
    source: &mut dyn Source,
    offset: u64,
    rank: u64,
    dtype: BtfDType,
) -> Result<DenseExtent, BtfError> {
    let dims = read_dims(source, offset, rank, dtype, Part::Dims, &mut None)?;
    elements(source, dims, Part::Data)
}

/// Where a record's payload is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PayloadExtent {
    /// Row-major elements.
    Dense(DenseExtent),
    /// The coordinates (`[N, rank]` u64) and values (`[N]`) of the stored
    /// elements of a tensor of `dims`.
    Coo {
        /// The tensor's dimensions.
        dims: Vec<u64>,
        /// The coordinates.
        indices: DenseExtent,
        /// The values.
        values: DenseExtent,
    },
}

/// Reads the extent of the payload `header` starts, checking a COO
/// payload's shapes and coordinates. The work is linear in the record's
/// size; over many records that may share bytes, use
/// [`payload_extent_within`].
pub fn payload_extent(
    source: &mut dyn Source,
    header: &RecordHeader,
) -> Result<PayloadExtent, BtfError> {
    payload_extent_within(source, header, None)
}

/// [`payload_extent`], charging the bytes of dims and coordinates it
/// scans to `budget` when there is one: a record whose dims or
/// coordinates the budget cannot pay for is not read, and is the error
/// [`BtfErrorKind::NotScanned`].
pub fn payload_extent_within(
    source: &mut dyn Source,
    header: &RecordHeader,
    mut budget: Option<&mut ScanBudget>,
) -> Result<PayloadExtent, BtfError> {
    let offset = header.offset + HEADER_BYTES;
    let dims = read_dims(
        source,
        offset,
        header.rank,
        header.dtype,
        Part::Dims,
        &mut budget,
    )?;
    if header.layout == Layout::RowMajorDense {
        return elements(source, dims, Part::Data).map(PayloadExtent::Dense);
    }
    let (dims, _, indices_at) = dims;
    let shape = read_dims(
        source,
        indices_at,
        2,
        BtfDType::UI64,
        Part::CooIndicesShape,
        &mut None,
    )?;
    let indices = elements(source, shape, Part::CooIndices)?;
    let shape = read_dims(
        source,
        indices.data.end,
        1,
        header.dtype,
        Part::CooValuesShape,
        &mut None,
    )?;
    let values = elements(source, shape, Part::CooValues)?;
    let n = values.dims[0];
    if indices.dims[0] != n || indices.dims[1] != header.rank {
        return Err(BtfError::record(
            Part::CooIndicesShape,
            BtfErrorKind::CooShape,
            source.size(),
        ));
    }
    charge(
        &mut budget,
        indices.data.end - indices.data.start,
        Part::CooIndices,
        source.size(),
    )?;
    check_coordinates(source, &indices, &dims)?;
    Ok(PayloadExtent::Coo {
        dims,
        indices,
        values,
    })
}

/// Checks that every coordinate is less than its dimension, reading the
/// coordinates in bounded chunks.
fn check_coordinates(
    source: &mut dyn Source,
    indices: &DenseExtent,
    dims: &[u64],
) -> Result<(), BtfError> {
    const CHUNK: u64 = 4096;
    let rank = dims.len() as u64;
    let mut buffer = Vec::new();
    let mut at = indices.data.start;
    let mut position = 0u64;
    while at < indices.data.end {
        let len = (indices.data.end - at).min(CHUNK * 8);
        buffer.resize(len as usize, 0);
        read_into(source, at, &mut buffer, record(Part::CooIndices))?;
        for coordinate in buffer.chunks_exact(8) {
            let value = u64::from_le_bytes(coordinate.try_into().unwrap_or_default());
            // rank > 0 here: a rank-0 tensor has no coordinates.
            let axis = position % rank;
            if value >= dims[axis as usize] {
                return Err(BtfError::record(
                    Part::CooIndices,
                    BtfErrorKind::CooIndex {
                        element: position / rank,
                        axis,
                    },
                    source.size(),
                ));
            }
            position += 1;
        }
        at += len;
    }
    Ok(())
}

/// Finds record `index`: its header and the extent of its payload.
pub fn locate(
    source: &mut dyn Source,
    index: i64,
) -> Result<(RecordHeader, PayloadExtent), BtfError> {
    let count = read_count(source)?;
    let offset = record_offset(source, index, count)?;
    // A record is only read for an index in range.
    let tensor = index as u64;
    let header = read_header(source, offset).map_err(|e| e.in_tensor(tensor))?;
    let payload = payload_extent(source, &header).map_err(|e| e.in_tensor(tensor))?;
    Ok((header, payload))
}
