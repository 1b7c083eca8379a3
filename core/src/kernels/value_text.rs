//! A value as a tool shows it in one line (a register of a recording, a
//! value in a listing): errors and unavailable values as such, scalars as
//! the runner prints results, tensors and shapes in their short forms,
//! anything else by its type's name. Bounded whatever the value's size.

use std::fmt;

use super::tensor::{FixedRankShape, HostTensor, PartialTensorShape, TensorShape};
use crate::runtime::{AsyncValue, Chain};

/// Writes `value` to `out`: `error: message`, `(unavailable)`, `42`,
/// `1.5`, `1` for a true `i1`, `chain`, `"text"`, `f32[2,3] [1.0, …]`,
/// `shape [2, 3]`, or `<TypeName>`.
pub fn write_value(out: &mut impl fmt::Write, value: &AsyncValue) -> fmt::Result {
    if let Some(diag) = value.error_diagnostic() {
        write!(out, "error: {}", diag.message)
    } else if !value.is_available() {
        write!(out, "(unavailable)")
    } else if let Ok(v) = value.get::<i32>() {
        write!(out, "{v}")
    } else if let Ok(v) = value.get::<i64>() {
        write!(out, "{v}")
    } else if let Ok(v) = value.get::<f32>() {
        write!(out, "{v:?}")
    } else if let Ok(v) = value.get::<f64>() {
        write!(out, "{v:?}")
    } else if let Ok(v) = value.get::<bool>() {
        write!(out, "{}", u8::from(*v))
    } else if value.get::<Chain>().is_ok() {
        write!(out, "chain")
    } else if let Ok(v) = value.get::<String>() {
        write!(out, "{v:?}")
    } else if let Ok(tensor) = value.get::<HostTensor>() {
        write!(out, "{tensor}")
    } else if let Ok(shape) = value.get::<TensorShape>() {
        write!(out, "shape {}", super::tensor::list(&shape.0))
    } else if let Ok(shape) = value.get::<FixedRankShape>() {
        write!(out, "shape {}", super::tensor::list(&shape.0))
    } else if let Ok(shape) = value.get::<PartialTensorShape>() {
        match &shape.0 {
            Some(dims) => write!(out, "partial shape {}", super::tensor::list(dims)),
            None => write!(out, "partial shape of unknown rank"),
        }
    } else {
        let name = value.type_name();
        write!(out, "<{}>", name.rsplit("::").next().unwrap_or(name))
    }
}

/// What a tool watching a kernel needs to tell whether it wrote `value`
/// in place: for an available dense tensor, its count of write locks
/// taken, and whether one is held now (see
/// [`DenseHostTensor::writes`](super::tensor::DenseHostTensor::writes));
/// `None` for any other value, which kernels do not write in place.
pub fn writes(value: &AsyncValue) -> Option<Writes> {
    if !value.is_available() {
        return None;
    }
    match value.get::<HostTensor>() {
        Ok(HostTensor::Dense(dense)) => Some(Writes {
            count: dense.writes(),
            in_progress: dense.being_written(),
        }),
        _ => None,
    }
}

/// See [`writes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Writes {
    /// Write locks taken so far.
    pub count: u64,
    /// A write lock is held now: the writes are not finished.
    pub in_progress: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::DType;
    use crate::kernels::tensor::DenseHostTensor;
    use crate::runtime::{Diagnostic, MallocAllocator};
    use std::sync::Arc;

    fn text(value: AsyncValue) -> String {
        let mut out = String::new();
        write_value(&mut out, &value).unwrap();
        out
    }

    fn dense(dtype: DType, dims: &[i64], fill: impl Fn(&mut [u8])) -> HostTensor {
        let tensor =
            DenseHostTensor::zeros(dtype, TensorShape(dims.to_vec()), Arc::new(MallocAllocator))
                .unwrap();
        fill(&mut tensor.write().unwrap());
        HostTensor::Dense(tensor)
    }

    #[test]
    fn scalars_read_as_the_runner_prints_them() {
        assert_eq!(text(AsyncValue::available(42i32)), "42");
        assert_eq!(text(AsyncValue::available(1.5f32)), "1.5");
        assert_eq!(text(AsyncValue::available(true)), "1");
        assert_eq!(text(AsyncValue::available(Chain)), "chain");
        assert_eq!(text(AsyncValue::available("a\nb".to_string())), "\"a\\nb\"");
        assert_eq!(
            text(AsyncValue::error(Diagnostic::new("bad"))),
            "error: bad"
        );
        assert_eq!(text(AsyncValue::unconstructed::<i32>()), "(unavailable)");
    }

    #[test]
    fn a_large_tensor_is_as_short_as_a_small_one() {
        let big = dense(DType::F32, &[100, 784], |bytes| {
            for (i, x) in bytes.chunks_exact_mut(4).enumerate() {
                x.copy_from_slice(&(i as f32 / 10.0).to_le_bytes());
            }
        });
        assert_eq!(
            text(AsyncValue::available(big)),
            "f32[100,784] [0.0, 0.1, 0.2, 0.3, 0.4, …]"
        );
        let small = dense(DType::I32, &[2], |bytes| {
            bytes[..4].copy_from_slice(&(-7i32).to_le_bytes());
        });
        assert_eq!(text(AsyncValue::available(small)), "i32[2] [-7, 0]");
        let long = dense(DType::F64, &[3], |bytes| {
            for x in bytes.chunks_exact_mut(8) {
                x.copy_from_slice(&(-0.000_123_456_789f64).to_le_bytes());
            }
        });
        assert_eq!(
            text(AsyncValue::available(long)),
            "f64[3] [-0.000123457, -0.000123457, …]"
        );
        let empty = dense(DType::F32, &[0, 5], |_| {});
        assert_eq!(text(AsyncValue::available(empty)), "f32[0,5] []");
    }

    #[test]
    fn strings_are_cut_and_escaped() {
        let strings = crate::kernels::tensor::StringHostTensor::new(
            TensorShape(vec![3]),
            vec![
                "a\x1b".into(),
                "a string longer than a dozen".into(),
                "c".into(),
            ],
        )
        .unwrap();
        assert_eq!(
            text(AsyncValue::available(HostTensor::String(strings))),
            "string[3] [\"a\\u{1b}\", \"a string lon…\", …]"
        );
    }

    #[test]
    fn a_tensor_being_written_shows_its_shape() {
        let tensor = dense(DType::F32, &[2, 2], |_| {});
        let HostTensor::Dense(dense) = &tensor else {
            unreachable!()
        };
        let _writing = dense.write().unwrap();
        assert_eq!(format!("{tensor}"), "f32[2,2] (being written)");
    }

    #[test]
    fn writes_count_write_locks_of_dense_tensors() {
        let tensor = dense(DType::F32, &[2], |_| {});
        let value = AsyncValue::available(tensor);
        let HostTensor::Dense(dense) = value.get::<HostTensor>().unwrap() else {
            unreachable!()
        };
        // `dense` (the helper) wrote once to fill it.
        let before = writes(&value).unwrap();
        assert_eq!(before.count, 1);
        assert!(!before.in_progress);
        drop(dense.read().unwrap());
        assert_eq!(writes(&value).unwrap().count, 1, "reads do not count");
        let lease = dense.lease_write().unwrap();
        assert_eq!(
            writes(&value).unwrap(),
            Writes {
                count: 2,
                in_progress: true
            }
        );
        drop(lease);
        assert!(!writes(&value).unwrap().in_progress);
        assert_eq!(writes(&AsyncValue::available(3i32)), None);
    }

    #[test]
    fn shapes_read_as_shapes() {
        assert_eq!(
            text(AsyncValue::available(TensorShape(vec![2, 3]))),
            "shape [2, 3]"
        );
        assert_eq!(
            text(AsyncValue::available(PartialTensorShape(None))),
            "partial shape of unknown rank"
        );
    }
}
