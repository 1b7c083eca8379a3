//! The short form of a tensor that tools show for a value: dtype, shape
//! and as many first elements as fit a few dozen characters
//! (`f32[100,784] [0.1, 0.0, …]`), so that a tensor of any size costs the
//! same line. `tfrt_dht.print_tensor` keeps the reference's full form
//! (`describe`).

use std::fmt;

use super::shape::TensorShape;
use crate::btf::BtfDType;
use crate::btf::summary::{Value, compact};
use crate::format::DType;

/// Characters of elements shown, brackets and separators included.
pub const ELEMENT_CHARS: usize = 32;

/// Characters of one string element shown before it is cut.
const STRING_CHARS: usize = 12;

/// `[100,784]`: dimensions without spaces.
pub(super) fn dims(shape: &TensorShape) -> String {
    let dims: Vec<String> = shape.0.iter().map(i64::to_string).collect();
    format!("[{}]", dims.join(","))
}

/// One element of `dtype` from its little-endian bytes: integers in full,
/// floats to six significant digits; other dtypes by name only.
pub(super) fn element(dtype: DType, bytes: &[u8]) -> Option<String> {
    let dtype = BtfDType::from_dtype(dtype)?;
    Some(match Value::from_le(dtype, bytes) {
        value @ (Value::Int(_) | Value::UInt(_)) => value.to_string(),
        value @ (Value::F32(_) | Value::F64(_)) => compact(value.as_f64()),
    })
}

/// A string element, quoted with its control characters escaped, cut to
/// a dozen characters.
pub(super) fn string(text: &str) -> String {
    let mut shown: String = text.chars().take(STRING_CHARS).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    format!("{shown:?}")
}

/// Writes `[a, b, …]`: elements while they fit [`ELEMENT_CHARS`], and `…`
/// for those left out (`more` says whether any follow `elements`).
pub(super) fn write_elements(
    f: &mut fmt::Formatter<'_>,
    elements: impl Iterator<Item = String>,
    more: bool,
) -> fmt::Result {
    let mut used = 2;
    let mut first = true;
    let mut cut = more;
    f.write_str("[")?;
    for element in elements {
        let cost = element.chars().count() + if first { 0 } else { 2 };
        // Room for a closing `, …` is kept while elements may follow.
        if used + cost + 3 > ELEMENT_CHARS {
            cut = true;
            break;
        }
        if !first {
            f.write_str(", ")?;
        }
        f.write_str(&element)?;
        used += cost;
        first = false;
    }
    match (cut, first) {
        (true, true) => f.write_str("…]"),
        (true, false) => f.write_str(", …]"),
        (false, _) => f.write_str("]"),
    }
}
