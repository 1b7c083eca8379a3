//! MLIR's printed form of a [`Type`], its `Display`: also the spelling BEF
//! stores in its Types section. It lives with the printer because a type
//! may carry attributes (a tensor's encoding, a memref's layout), which
//! only the printer writes.

use std::fmt;

use crate::ir::{DYNAMIC, Signedness, Type};

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Integer { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                write!(f, "{prefix}{width}")
            }
            Type::Index => f.write_str("index"),
            Type::Float(kind) => f.write_str(kind.name()),
            Type::Complex(element) => write!(f, "complex<{element}>"),
            Type::None => f.write_str("none"),
            Type::Tensor {
                shape,
                element,
                encoding,
            } => {
                f.write_str("tensor<")?;
                match shape {
                    None => f.write_str("*x")?,
                    Some(dims) => write_dims(f, dims)?,
                }
                write!(f, "{element}")?;
                if let Some(encoding) = encoding {
                    write!(f, ", {}", super::print_attribute(encoding))?;
                }
                f.write_str(">")
            }
            Type::Vector {
                shape,
                element,
                scalable,
            } => {
                f.write_str("vector<")?;
                for (i, &dim) in shape.iter().enumerate() {
                    if scalable.get(i).copied().unwrap_or(false) {
                        write!(f, "[{dim}]x")?;
                    } else {
                        write!(f, "{dim}x")?;
                    }
                }
                write!(f, "{element}>")
            }
            Type::MemRef {
                shape,
                element,
                layout,
                memory_space,
            } => {
                f.write_str("memref<")?;
                match shape {
                    None => f.write_str("*x")?,
                    Some(dims) => write_dims(f, dims)?,
                }
                write!(f, "{element}")?;
                for attr in [layout, memory_space].into_iter().flatten() {
                    write!(f, ", {}", super::print_attribute_elided(attr))?;
                }
                f.write_str(">")
            }
            Type::Token => f.write_str("token"),
            Type::Function { inputs, results } => {
                f.write_str("(")?;
                write_list(f, inputs)?;
                f.write_str(") -> ")?;
                // A single non-function result goes without parentheses.
                match results.as_slice() {
                    [single] if !matches!(single, Type::Function { .. }) => write!(f, "{single}"),
                    _ => {
                        f.write_str("(")?;
                        write_list(f, results)?;
                        f.write_str(")")
                    }
                }
            }
            Type::Tuple(elements) => {
                f.write_str("tuple<")?;
                write_list(f, elements)?;
                f.write_str(">")
            }
            Type::Dialect { dialect, body } => {
                if body.starts_with('<') {
                    write!(f, "!{dialect}{body}")
                } else {
                    write!(f, "!{dialect}.{body}")
                }
            }
        }
    }
}

/// `2x?x` — every dimension followed by `x`.
fn write_dims(f: &mut fmt::Formatter<'_>, dims: &[i64]) -> fmt::Result {
    for &dim in dims {
        if dim == DYNAMIC {
            f.write_str("?x")?;
        } else {
            write!(f, "{dim}x")?;
        }
    }
    Ok(())
}

fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}
