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
use super::{HostTensor, MAX_NAMED_RANK, run};
use crate::btf::{self, BtfDType, BtfErrorKind, FileSource, Layout, Source};
use crate::exec::{Argument, FromFrame, KernelFrame, KernelRegistry, Out};
use crate::format::DType;
use crate::runtime::{Diagnostic, HostAllocator};
use crate::tool_io::escape;

/// The dtypes the reference registers readers for.
const READ_DTYPES: [DType; 5] = [DType::F32, DType::I32, DType::I64, DType::I8, DType::UI8];

const BLOCKING_QUEUE_FULL: &str =
    "Failed to enqueue blocking work. Maximum number of pending blocking tasks reached.";

/// Opens `path` to read without blocking on a FIFO or becoming the
/// controlling terminal, and checks it is a regular file.
fn open(path: &str) -> std::io::Result<(File, u64)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok((file, meta.len()))
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
    let shown = escape::terminal(path);
    let (file, size) =
        open(path).map_err(|e| format!("failed to open file {shown} for reading: {e}"))?;
    let mut source = FileSource::new(file, size);
    let count = btf::read_count(&mut source)
        .map_err(|e| format!("failed to read tensor num_tensors from path {shown}: {e}"))?;
    let offset = btf::record_offset(&mut source, i64::from(index), count).map_err(|e| match e.kind {
        BtfErrorKind::IndexOutOfRange { .. } => format!(
            "invalid tensor index {index} to read tensor from path {shown} which contains {count} tensors"
        ),
        _ => format!("failed to read tensor offset from {shown} for tensor index {index}: {e}"),
    })?;
    let header = btf::read_header(&mut source, offset).map_err(|e| e.to_string())?;
    let expected = BtfDType::from_dtype(dtype)
        .ok_or_else(|| format!("BTF files cannot hold {} elements", dtype.mlir_name()))?;
    if header.dtype != expected {
        return Err(format!(
            "unexpected tensor dtype {}. Expected dtype is {}",
            header.dtype.name(),
            expected.name()
        ));
    }
    if header.rank != rank as u64 {
        return Err(format!(
            "unexpected tensor rank {}. Expected rank is {rank}",
            header.rank
        ));
    }
    if header.layout != Layout::RowMajorDense {
        return Err(format!("unexpected tensor layout {}", header.layout.name()));
    }
    let extent = btf::dense_extent(
        &mut source,
        offset + btf::HEADER_BYTES,
        header.rank,
        header.dtype,
    )
    .map_err(|e| e.to_string())?;
    let dims = extent
        .dims
        .iter()
        .map(|&d| i64::try_from(d))
        .collect::<Result<Vec<i64>, _>>()
        .map_err(|_| {
            format!(
                "tensor dims {:?} at offset {offset} are too large",
                extent.dims
            )
        })?;
    let tensor = DenseHostTensor::zeros(dtype, TensorShape(dims), allocator)
        .map_err(|e| format!("cannot allocate result tensor: {e}"))?;
    let start = extent.data.start;
    source
        .read_at(start, &mut tensor.write()?)
        .map_err(|e| format!("failed to read tensor data from stream at offset {start}: {e}"))?;
    Ok(tensor)
}

/// `btf.read_dense_tensor.T.N %path, %index -> !t.tensor`
fn read_dense_tensor_kernel(frame: &KernelFrame<'_>) {
    run(frame, |frame, cursor| {
        let path = Argument::<String>::from_frame(frame, cursor)?;
        let index = *Argument::<i32>::from_frame(frame, cursor)?;
        let (dtype, rank) = named_dtype_and_rank(frame)?;
        let out = Out::<HostTensor>::from_frame(frame, cursor)?;
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
    });
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
