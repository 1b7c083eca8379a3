//! Finding a record and the extent of its payload through any [`Source`]:
//! the file in memory ([`SliceSource`]) or a file read piece by piece
//! ([`FileSource`]). Each step reads only what it needs, after checking
//! that the source has it, so nothing is allocated beyond the source's
//! size.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;

use super::error::{BtfError, BtfErrorKind};
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

/// Reads `N` bytes at `offset`, or says that `what` is truncated there.
fn read_array<const N: usize>(
    source: &mut dyn Source,
    offset: u64,
    what: &'static str,
) -> Result<[u8; N], BtfError> {
    let mut out = [0u8; N];
    read_into(source, offset, &mut out, what)?;
    Ok(out)
}

/// Fills `out` from `offset`, checking first that the source has the bytes.
pub(crate) fn read_into(
    source: &mut dyn Source,
    offset: u64,
    out: &mut [u8],
    what: &'static str,
) -> Result<(), BtfError> {
    let needed = out.len() as u64;
    if !fits(offset, needed, source.size()) {
        return Err(BtfError::truncated(offset, what, needed, source.size()));
    }
    source
        .read_at(offset, out)
        .map_err(|e| BtfError::new(offset, BtfErrorKind::Io(format!("{what}: {e}"))))
}

/// Whether `len` bytes at `offset` lie within `size` bytes.
fn fits(offset: u64, len: u64, size: u64) -> bool {
    offset.checked_add(len).is_some_and(|end| end <= size)
}

/// The number of tensors the file declares. Not checked against the size:
/// [`record_offset`] checks the offset it reads.
pub fn read_count(source: &mut dyn Source) -> Result<u64, BtfError> {
    read_array::<8>(source, 0, "tensor num_tensors").map(u64::from_le_bytes)
}

/// The offset of record `index` of `count`.
pub fn record_offset(source: &mut dyn Source, index: i64, count: u64) -> Result<u64, BtfError> {
    let Some(index) = u64::try_from(index).ok().filter(|&i| i < count) else {
        return Err(BtfError::new(
            0,
            BtfErrorKind::IndexOutOfRange { index, count },
        ));
    };
    // index < count <= u64::MAX, and the product is checked by `fits`.
    let at = index
        .checked_mul(8)
        .and_then(|o| o.checked_add(COUNT_BYTES))
        .unwrap_or(u64::MAX);
    read_array::<8>(source, at, "tensor offset").map(u64::from_le_bytes)
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
    let header = read_array::<16>(source, offset, "tensor header")?;
    let mut rank = [0u8; 8];
    rank.copy_from_slice(&header[..8]);
    let dtype = BtfDType::from_code(header[8])
        .ok_or_else(|| BtfError::new(offset, BtfErrorKind::UnknownDType(header[8])))?;
    let layout = Layout::from_code(header[9])
        .ok_or_else(|| BtfError::new(offset, BtfErrorKind::UnknownLayout(header[9])))?;
    Ok(RecordHeader {
        offset,
        rank: u64::from_le_bytes(rank),
        dtype,
        layout,
    })
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

/// Reads `rank` dimensions at `offset`, checked against the bytes left
/// before anything is allocated and to have an element count and a byte
/// size (in elements of `dtype`) that fit 64 bits. Returns them with the
/// byte size and the offset after them.
fn read_dims(
    source: &mut dyn Source,
    offset: u64,
    rank: u64,
    dtype: BtfDType,
) -> Result<(Vec<u64>, u64, u64), BtfError> {
    let size = source.size();
    let dims_bytes = rank
        .checked_mul(8)
        .filter(|&n| fits(offset, n, size))
        .ok_or_else(|| BtfError::truncated(offset, "tensor dims", rank.saturating_mul(8), size))?;
    let mut raw = vec![0u8; dims_bytes as usize];
    read_into(source, offset, &mut raw, "tensor dims")?;
    let dims: Vec<u64> = raw
        .chunks_exact(8)
        .map(|d| u64::from_le_bytes(d.try_into().unwrap_or_default()))
        .collect();
    let bytes = dims
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(d))
        .and_then(|n| n.checked_mul(dtype.size() as u64))
        .ok_or_else(|| BtfError::new(offset, BtfErrorKind::SizeOverflow { dims: dims.clone() }))?;
    Ok((dims, bytes, offset + dims_bytes))
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
    let (dims, bytes, start) = read_dims(source, offset, rank, dtype)?;
    if !fits(start, bytes, source.size()) {
        return Err(BtfError::truncated(
            start,
            "tensor data",
            bytes,
            source.size(),
        ));
    }
    Ok(DenseExtent {
        dims,
        data: start..start + bytes,
    })
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
/// payload's shapes and coordinates.
pub fn payload_extent(
    source: &mut dyn Source,
    header: &RecordHeader,
) -> Result<PayloadExtent, BtfError> {
    let offset = header.offset + HEADER_BYTES;
    if header.layout == Layout::RowMajorDense {
        return dense_extent(source, offset, header.rank, header.dtype).map(PayloadExtent::Dense);
    }
    let (dims, _, indices_at) = read_dims(source, offset, header.rank, header.dtype)?;
    let indices = dense_extent(source, indices_at, 2, BtfDType::UI64)?;
    let values = dense_extent(source, indices.data.end, 1, header.dtype)?;
    let rank = header.rank;
    let n = values.dims[0];
    if indices.dims[0] != n || indices.dims[1] != rank {
        return Err(BtfError::new(
            indices_at,
            BtfErrorKind::CooShape {
                indices: indices.dims,
                values: values.dims,
                rank,
            },
        ));
    }
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
        read_into(source, at, &mut buffer, "tensor data")?;
        for coordinate in buffer.chunks_exact(8) {
            let value = u64::from_le_bytes(coordinate.try_into().unwrap_or_default());
            // rank > 0 here: a rank-0 tensor has no coordinates.
            let axis = position % rank;
            let limit = dims[axis as usize];
            if value >= limit {
                return Err(BtfError::new(
                    indices.data.start + position * 8,
                    BtfErrorKind::CooIndex {
                        element: position / rank,
                        axis,
                        value,
                        limit,
                    },
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
    let header = read_header(source, offset)?;
    let payload = payload_extent(source, &header)?;
    Ok((header, payload))
}
