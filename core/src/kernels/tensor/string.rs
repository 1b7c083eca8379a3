//! `tfrt_sht.*`: string host tensors.

use super::shape::TensorShape;
use super::{HostTensor, MAX_TENSOR_BYTES, list};
use crate::exec::{AggregateAttribute, ArrayAttribute, KernelRegistry};
use crate::format::Attribute as BefAttribute;

/// Strings printed before `, ...` stands for the rest.
const PRINT_LIMIT: usize = 32;

/// A tensor of strings in row-major order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringHostTensor {
    shape: TensorShape,
    values: Vec<String>,
}

impl std::fmt::Display for StringHostTensor {
    /// `string[2] ["a", "b"]`: the strings (each cut to a dozen
    /// characters, control characters escaped) that fit a few dozen
    /// characters.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "string{} ", super::short::dims(&self.shape))?;
        let shown = super::short::ELEMENT_CHARS / 3;
        let elements = self
            .values
            .iter()
            .take(shown)
            .map(|v| super::short::string(v));
        super::short::write_elements(f, elements, self.values.len() > shown)
    }
}

impl StringHostTensor {
    /// A tensor of `values`, one per element of `shape`.
    pub fn new(shape: TensorShape, values: Vec<String>) -> Result<StringHostTensor, String> {
        let count = shape.num_elements().and_then(|n| usize::try_from(n).ok());
        if count != Some(values.len()) {
            return Err(format!(
                "{} values given for a tensor of shape {}",
                values.len(),
                list(&shape.0)
            ));
        }
        Ok(StringHostTensor { shape, values })
    }

    /// The dimensions.
    pub fn shape(&self) -> &TensorShape {
        &self.shape
    }

    /// The elements.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// `StringHostTensor shape = [2], values = ["a", "b"]`; the first
    /// 32 strings, verbatim.
    pub fn describe(&self) -> String {
        let quoted: Vec<String> = self
            .values
            .iter()
            .take(PRINT_LIMIT)
            .map(|v| format!("\"{v}\""))
            .collect();
        let more = if self.values.len() > PRINT_LIMIT {
            ", ... "
        } else {
            ""
        };
        format!(
            "StringHostTensor shape = {}, values = [{}{more}]",
            list(&self.shape.0),
            quoted.join(", ")
        )
    }
}

crate::kernel! {
    /// `"tfrt_sht.create_tensor"() {shape = [2], values = ["a", "b"]}`
    fn create_tensor(shape: ArrayAttribute<i64>, values: AggregateAttribute)
        -> Result<HostTensor, String>
    {
        let shape = TensorShape::new(shape.iter().collect())?;
        let mut strings = Vec::with_capacity(values.0.len());
        let mut bytes = 0usize;
        for (i, value) in values.0.iter().enumerate() {
            let BefAttribute::String(s) = value else {
                return Err(format!("value {i} of a string tensor is not a string"));
            };
            bytes = bytes.saturating_add(s.len());
            if bytes > MAX_TENSOR_BYTES {
                return Err(format!(
                    "the strings take more than the {MAX_TENSOR_BYTES} bytes a tensor may"
                ));
            }
            strings.push(String::from_utf8_lossy(s).into_owned());
        }
        StringHostTensor::new(shape, strings).map(HostTensor::String)
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_sht.create_tensor", create_tensor);
}
