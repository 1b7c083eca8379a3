//! Writing BTF files.

use std::fmt;

use super::{BtfDType, Layout};

/// A tensor to write: its dtype, dimensions and little-endian elements.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorToWrite<'a> {
    /// Row-major elements, one per position of `dims`.
    Dense {
        /// The element type.
        dtype: BtfDType,
        /// The dimensions.
        dims: &'a [u64],
        /// The elements.
        data: &'a [u8],
    },
    /// The stored elements of a sparse tensor of `dims`.
    Coo {
        /// The element type.
        dtype: BtfDType,
        /// The dimensions.
        dims: &'a [u64],
        /// `dims.len()` coordinates per stored element, each less than
        /// its dimension.
        indices: &'a [u64],
        /// One value per stored element.
        values: &'a [u8],
    },
}

/// A tensor whose parts do not agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// The tensor's position in the list given.
    pub index: usize,
    /// What does not agree.
    pub message: String,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tensor {}: {}", self.index, self.message)
    }
}

impl std::error::Error for WriteError {}

/// Bytes of `count` elements of `dtype`, if that fits.
fn element_bytes(count: u64, dtype: BtfDType) -> Option<usize> {
    usize::try_from(count).ok()?.checked_mul(dtype.size())
}

fn check(tensor: &TensorToWrite<'_>) -> Result<(), String> {
    match *tensor {
        TensorToWrite::Dense { dtype, dims, data } => {
            let count = dims.iter().try_fold(1u64, |n, &d| n.checked_mul(d));
            let bytes = count.and_then(|n| element_bytes(n, dtype));
            if bytes != Some(data.len()) {
                return Err(format!(
                    "{} bytes of data for dims {:?} of {}",
                    data.len(),
                    dims,
                    dtype.name()
                ));
            }
        }
        TensorToWrite::Coo {
            dtype,
            dims,
            indices,
            values,
        } => {
            let count = values.len() / dtype.size();
            if values.len() % dtype.size() != 0
                || Some(indices.len()) != count.checked_mul(dims.len())
            {
                return Err(format!(
                    "{} coordinates and {} bytes of values do not make whole elements of rank {}",
                    indices.len(),
                    values.len(),
                    dims.len()
                ));
            }
            if !dims.is_empty() {
                for (i, &c) in indices.iter().enumerate() {
                    let limit = dims[i % dims.len()];
                    if c >= limit {
                        return Err(format!(
                            "coordinate {c} of element {} is past its dimension {limit}",
                            i / dims.len()
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

fn put_u64(out: &mut Vec<u8>, value: u64) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_header(out: &mut Vec<u8>, rank: usize, dtype: BtfDType, layout: Layout) {
    put_u64(out, rank as u64);
    out.push(dtype.code());
    out.push(layout.code());
    out.extend_from_slice(&[0; 6]);
}

fn put_dims(out: &mut Vec<u8>, dims: &[u64]) {
    for &d in dims {
        put_u64(out, d);
    }
}

/// A BTF file holding `tensors` in order, each record padded to a
/// multiple of 8 bytes.
pub fn write(tensors: &[TensorToWrite<'_>]) -> Result<Vec<u8>, WriteError> {
    for (index, tensor) in tensors.iter().enumerate() {
        check(tensor).map_err(|message| WriteError { index, message })?;
    }
    let mut out = Vec::new();
    put_u64(&mut out, tensors.len() as u64);
    let table = out.len();
    out.resize(table + 8 * tensors.len(), 0);
    for (i, tensor) in tensors.iter().enumerate() {
        let offset = out.len() as u64;
        out[table + 8 * i..table + 8 * i + 8].copy_from_slice(&offset.to_le_bytes());
        match *tensor {
            TensorToWrite::Dense { dtype, dims, data } => {
                put_header(&mut out, dims.len(), dtype, Layout::RowMajorDense);
                put_dims(&mut out, dims);
                out.extend_from_slice(data);
            }
            TensorToWrite::Coo {
                dtype,
                dims,
                indices,
                values,
            } => {
                let count = (values.len() / dtype.size()) as u64;
                put_header(&mut out, dims.len(), dtype, Layout::Coo);
                put_dims(&mut out, dims);
                put_dims(&mut out, &[count, dims.len() as u64]);
                put_dims(&mut out, indices);
                put_dims(&mut out, &[count]);
                out.extend_from_slice(values);
            }
        }
        out.resize(out.len().next_multiple_of(8), 0);
    }
    Ok(out)
}
