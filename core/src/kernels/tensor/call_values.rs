//! Host tensors as typed call values: a packed buffer becomes a dense host
//! tensor (its bytes copied into the host allocator) and back.

use super::HostTensor;
use super::dense::DenseHostTensor;
use super::shape::TensorShape;
use crate::abi::{Buffer, ElementType, Value};
use crate::exec::{KernelRegistry, ValueConverter};
use crate::runtime::{AsyncValue, HostContext};

/// Registers the converter of `!t.tensor` and its long spelling.
pub(super) fn register(registry: &mut KernelRegistry) {
    let converter = ValueConverter {
        to_runtime,
        from_runtime,
    };
    registry.add_value_converter("!t.tensor", converter);
    registry.add_value_converter("!tfrt_tensor.tensor", converter);
}

fn to_runtime(value: &Value, host: &HostContext) -> Result<AsyncValue, String> {
    let Value::Buffer(buffer) = value else {
        return Err(format!(
            "a tensor is made from a buffer, not a {}",
            value.describe()
        ));
    };
    let dims = buffer
        .shape
        .iter()
        .map(|&d| i64::try_from(d).map_err(|_| format!("dimension {d} is too large")))
        .collect::<Result<Vec<_>, _>>()?;
    let tensor = DenseHostTensor::from_bytes(
        buffer.element.dtype(),
        TensorShape::new(dims)?,
        &buffer.data,
        host.shared_allocator(),
    )?;
    Ok(AsyncValue::available(HostTensor::Dense(tensor)))
}

fn from_runtime(value: &AsyncValue) -> Result<Value, String> {
    let tensor = value.get::<HostTensor>().map_err(|e| e.to_string())?;
    let dense = tensor.dense()?;
    let element = ElementType::from_dtype(dense.dtype())
        .ok_or_else(|| format!("tensors of {:?} have no call value", dense.dtype()))?;
    let shape = dense.shape().0.iter().map(|&d| d as u64).collect();
    let data = dense.read()?.to_vec();
    Buffer::new(element, shape, data).map(Value::Buffer)
}
