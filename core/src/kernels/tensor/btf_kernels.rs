//! `btf.read_dense_tensor.T.N %path, %index`: a tensor from a BTF file, as
//! the reference's `btf_kernels.cc` registers it (T in f32, i32, i64, i8,
//! ui8; N from 0 to 4), with its messages.
//!
//! The file a program names is untrusted like the program: it is opened
//! without blocking (a FIFO cannot stall the read), must be a regular
//! file, and is read piece by piece through [`btf::locate`]'s checks, so
//! nothing is allocated before the record's dims and elements are known to
//! be in the file, and never more than [`MAX_TENSOR_BYTES`] for one tensor.
//! The read runs on the blocking pool, as the reference's does.
//!
//! [`MAX_TENSOR_BYTES`]: super::MAX_TENSOR_BYTES

use std::fs::File;
use std::sync::Arc;

use super::dense::{DenseHostTensor, named_dtype_and_rank};
use super::shape::TensorShape;
use super::{HostTensor, MAX_NAMED_RANK};
use crate::btf::{self, BtfDType, BtfErrorKind, FileSource, Layout, Source};
use crate::exec::{Argument, KernelFrame, KernelRegistry, Out};
use crate::format::DType;
use crate::runtime::{Diagnostic, HostAllocator};
use crate::tool_io::escape;
use crate::tool_io::named_files::{self, NamedFileKind};

/// The dtypes the reference registers readers for.
const READ_DTYPES: [DType; 5] = [DType::F32, DType::I32, DType::I64, DType::I8, DType::UI8];

const BLOCKING_QUEUE_FULL: &str =
    "Failed to enqueue blocking work. Maximum number of pending blocking tasks reached.";

/// Opens `path` as the named-file policy allows a data file
/// (`tool_io::named_files::open`): a regular file outside `/proc`, `/sys`
/// and `/dev`, not a link into them, opened without blocking on a FIFO
/// or becoming the controlling terminal, of at most
/// [`named_files::MAX_DATA_FILE_BYTES`].
fn open(path: &str) -> std::io::Result<(File, u64)> {
    named_files::open(
        std::path::Path::new(path),
        NamedFileKind::UserNamed,
        named_files::MAX_DATA_FILE_BYTES,
    )
    .map_err(|not_read| std::io::Error::other(not_read.why()))
}

/// Reads tensor `index` of the BTF file `path`, which must hold `dtype`
/// elements in `rank` dimensions.
pub(crate) fn read_dense_tensor(
    path: &str,
    index: i32,
    dtype: DType,
    rank: usize,
    allocator: Arc<dyn HostAllocator>,
) -> Result<DenseHostTensor, String> {
    read_tensor(path, index, Some(dtype), Some(rank), allocator)
}

/// Why the JSON arguments of a call could not be made.
#[cfg(feature = "json")]
#[derive(Debug)]
pub enum CallArgumentsError {
    /// The function's signature could not be read.
    Signature(String),
    /// The JSON does not give the arguments the signature asks for.
    Json(String),
}

/// The arguments of a call of `function` given as JSON `text`, checked
/// against its signature; `{"btf": PATH, "index": N}` names a tensor of a
/// BTF file, read with the checks of `btf.read_dense_tensor`. Shared by
/// `bef run --call` and `bef-trace`'s recorded calls.
#[cfg(feature = "json")]
pub fn call_arguments_from_json(
    runner: &crate::exec::Runner,
    function: &crate::exec::Function,
    text: &[u8],
) -> Result<crate::abi::json_values::Arguments, CallArgumentsError> {
    use crate::abi::ElementType;
    use crate::abi::json_values::{argument_records, arguments_from_json};
    let signature = runner
        .call_signature(function)
        .map_err(|e| CallArgumentsError::Signature(e.to_string()))?;
    let types: Vec<&str> = function
        .info()
        .argument_types
        .iter()
        .map(String::as_str)
        .collect();
    let records = argument_records(&signature, &types);
    let read_btf = |path: &str, index: i32, element: Option<ElementType>, rank: Option<usize>| {
        read_call_buffer(path, index, element.map(ElementType::dtype), rank)
    };
    arguments_from_json(text, &records, &read_btf).map_err(CallArgumentsError::Json)
}

/// Reads tensor `index` of the BTF file `path` as a typed call value
/// (`bef run --args '{"btf": PATH, "index": N}'`), with the checks of the
/// kernels: of `dtype` elements in `rank` dimensions when they are given.
pub fn read_call_buffer(
    path: &str,
    index: i32,
    dtype: Option<DType>,
    rank: Option<usize>,
) -> Result<crate::abi::Buffer, String> {
    let tensor = read_tensor(
        path,
        index,
        dtype,
        rank,
        Arc::new(crate::runtime::MallocAllocator),
    )?;
    let element = crate::abi::ElementType::from_dtype(tensor.dtype()).ok_or_else(|| {
        format!(
            "tensors of {} have no call value",
            tensor.dtype().mlir_name()
        )
    })?;
    let shape = tensor.shape().0.iter().map(|&d| d as u64).collect();
    let data = tensor.read()?.to_vec();
    crate::abi::Buffer::new(element, shape, data)
}

/// Reads tensor `index` of `path`. Messages about the file describe and
/// never echo (see [`btf::BtfError`]): the file may be any file the
/// program names, so nothing read from it is printed until its record has
/// been checked (a checked record's dtype and rank may be named).
fn read_tensor(
    path: &str,
    index: i32,
    dtype: Option<DType>,
    rank: Option<usize>,
    allocator: Arc<dyn HostAllocator>,
) -> Result<DenseHostTensor, String> {
    let shown = escape::terminal(path);
    let (file, size) =
        open(path).map_err(|e| format!("failed to open file {shown} for reading: {e}"))?;
    let mut source = FileSource::new(file, size);
    let count = btf::read_count(&mut source)
        .map_err(|e| format!("failed to read tensor num_tensors from path {shown}: {e}"))?;
    let offset = btf::record_offset(&mut source, i64::from(index), count).map_err(|e| match e.kind {
        BtfErrorKind::IndexOutOfRange { .. } => format!(
            "invalid tensor index {index} to read tensor from path {shown}: out of range for this file"
        ),
        _ => format!("failed to read tensor offset from {shown} for tensor index {index}: {e}"),
    })?;
    // The index is in range, so not negative.
    let tensor = index as u64;
    let header =
        btf::read_header(&mut source, offset).map_err(|e| e.in_tensor(tensor).to_string())?;
    let dtype = dtype.unwrap_or(header.dtype.dtype());
    let expected = BtfDType::from_dtype(dtype)
        .ok_or_else(|| format!("BTF files cannot hold {} elements", dtype.mlir_name()))?;
    if header.dtype != expected {
        return Err(format!(
            "unexpected tensor dtype {}. Expected dtype is {}",
            header.dtype.name(),
            expected.name()
        ));
    }
    if header.layout != Layout::RowMajorDense {
        return Err(format!("unexpected tensor layout {}", header.layout.name()));
    }
    // The dims and elements are checked to lie in the file before the
    // rank is compared: a rank that does not fit is any 8 bytes.
    let extent = btf::dense_extent(
        &mut source,
        offset + btf::HEADER_BYTES,
        header.rank,
        header.dtype,
    )
    .map_err(|e| e.in_tensor(tensor).to_string())?;
    if let Some(rank) = rank
        && header.rank != rank as u64
    {
        return Err(format!(
            "unexpected tensor rank {}. Expected rank is {rank}",
            header.rank
        ));
    }
    let dims = extent
        .dims
        .iter()
        .map(|&d| i64::try_from(d))
        .collect::<Result<Vec<i64>, _>>()
        .map_err(|_| format!("tensor {tensor}'s dims are too large for a host tensor"))?;
    let tensor_value = DenseHostTensor::zeros(dtype, TensorShape(dims), allocator)
        .map_err(|e| format!("cannot allocate result tensor: {e}"))?;
    source
        .read_at(extent.data.start, &mut tensor_value.write()?)
        .map_err(|e| format!("failed to read tensor {tensor}'s elements from the file: {e}"))?;
    Ok(tensor_value)
}

crate::kernel! {
    /// `btf.read_dense_tensor.T.N %path, %index -> !t.tensor`
    fn read_dense_tensor_kernel(
        path: Argument<String>,
        index: Argument<i32>,
        out: Out<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<(), Diagnostic> {
        let index = *index;
        let (dtype, rank) = named_dtype_and_rank(frame)?;
        let result = out.allocate();
        let on_pool = result.clone();
        let (path, location) = (path.clone(), frame.location());
        let (host, allocator) = (
            frame.context().host_arc().clone(),
            frame.host().shared_allocator(),
        );
        let queued = frame.host().enqueue_blocking_work(move || {
            match read_dense_tensor(&path, index, dtype, rank, allocator) {
                Ok(tensor) => on_pool.emplace(HostTensor::Dense(tensor)),
                Err(message) => {
                    let mut diag = Diagnostic::new(message);
                    diag.location = location;
                    host.emit_diagnostic(&diag);
                    on_pool.set_error(diag);
                }
            }
        });
        if !queued {
            let diag = frame.diagnostic(BLOCKING_QUEUE_FULL);
            frame.host().emit_diagnostic(&diag);
            result.set_error(diag);
        }
        Ok(())
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    for dtype in READ_DTYPES {
        for rank in 0..=MAX_NAMED_RANK {
            registry.add_kernel(
                &format!("btf.read_dense_tensor.{}.{rank}", dtype.mlir_name()),
                read_dense_tensor_kernel,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::MallocAllocator;

    fn read(path: &str, index: i32, dtype: DType, rank: usize) -> Result<DenseHostTensor, String> {
        read_dense_tensor(path, index, dtype, rank, Arc::new(MallocAllocator))
    }

    #[test]
    fn devices_and_fifos_are_refused_without_blocking() {
        let error = read("/dev/zero", 0, DType::F32, 1).unwrap_err();
        assert_eq!(
            error,
            "failed to open file /dev/zero for reading: /dev/zero is a system file"
        );
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("tensors.btf");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `name` is a valid NUL-terminated path for the call.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        // No writer: a blocking open would wait for one forever.
        let error = read(fifo.to_str().unwrap(), 0, DType::F32, 1).unwrap_err();
        assert!(
            error.ends_with("for reading: a FIFO, not a regular file"),
            "{error}"
        );
    }

    #[test]
    fn nothing_is_allocated_for_elements_the_file_does_not_have() {
        // 2^28 x 2^28 f32 elements (2^58 bytes, no overflow) in a file of
        // 48 bytes: refused when the extent is checked, before allocating.
        let mut bytes = Vec::new();
        for word in [1u64, 16, 2] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.extend_from_slice(&[4, 0, 0, 0, 0, 0, 0, 0]);
        for dim in [1u64 << 28, 1 << 28] {
            bytes.extend_from_slice(&dim.to_le_bytes());
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.btf");
        std::fs::write(&path, &bytes).unwrap();
        let error = read(path.to_str().unwrap(), 0, DType::F32, 2).unwrap_err();
        assert_eq!(
            error,
            "the 48-byte file ends before the end of tensor 0's elements"
        );
    }

    #[test]
    fn a_file_that_shrinks_after_opening_fails_to_read() {
        let data: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let bytes = btf::write(&[btf::TensorToWrite::Dense {
            dtype: BtfDType::F32,
            dims: &[2],
            data: &data,
        }])
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.btf");
        std::fs::write(&path, &bytes).unwrap();
        let tensor = read(path.to_str().unwrap(), 0, DType::F32, 1).unwrap();
        assert_eq!(
            tensor.describe(),
            "DenseHostTensor dtype = f32, shape = [2], values = [1.000000e+00, 2.000000e+00]"
        );
        let (file, size) = open(path.to_str().unwrap()).unwrap();
        std::fs::write(&path, &bytes[..30]).unwrap();
        let mut source = FileSource::new(file, size);
        let mut out = [0u8; 8];
        assert!(source.read_at(40, &mut out).is_err());
    }
}
