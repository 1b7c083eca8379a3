//! Random but well-formed module models, for property tests and fuzzing.
//! Every index points into its table, so the models always encode.

use arbitrary::{Result, Unstructured};

use super::attr::{Attribute, DenseAttr, dense_element_count};
use super::constants::FunctionKind;
use super::dtype::{ArrayElement, DType};
use super::location::Location;
use super::model::{Body, Function, Kernel, KernelLocation, Module};

const MAX_DEPTH: usize = 3;

/// Builds a module from fuzzer- or proptest-provided bytes.
pub fn arbitrary_module(u: &mut Unstructured<'_>) -> Result<Module> {
    let optional_sections = u.arbitrary()?;
    let kernel_names = list(u, 1, 6, name)?;
    let types = list(u, 1, 6, name)?;
    let attributes = if optional_sections {
        list(u, 0, 8, |u| attribute(u, 0, true))?
    } else {
        Vec::new()
    };
    let num_functions = u.int_in_range(0..=5)?;
    let shape = Shape {
        num_kernel_names: kernel_names.len(),
        num_types: types.len(),
        num_attributes: attributes.len(),
        num_functions,
        optional_sections,
    };
    let functions = (0..num_functions)
        .map(|_| function(u, &shape))
        .collect::<Result<Vec<_>>>()?;
    Ok(Module {
        kernel_names,
        types,
        attributes,
        functions,
        optional_sections,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    })
}

struct Shape {
    num_kernel_names: usize,
    num_types: usize,
    num_attributes: usize,
    num_functions: usize,
    optional_sections: bool,
}

fn list<T>(
    u: &mut Unstructured<'_>,
    min: usize,
    max: usize,
    mut item: impl FnMut(&mut Unstructured<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let len = u.int_in_range(min..=max)?;
    (0..len).map(|_| item(u)).collect()
}

fn index(u: &mut Unstructured<'_>, len: usize) -> Result<u32> {
    Ok(u.int_in_range(0..=len.saturating_sub(1))? as u32)
}

/// A name without NUL bytes, sometimes empty, sometimes non-ASCII.
fn name(u: &mut Unstructured<'_>) -> Result<String> {
    let raw: String = u.arbitrary()?;
    Ok(raw.replace('\0', "").chars().take(12).collect())
}

fn bytes(u: &mut Unstructured<'_>, max: usize) -> Result<Vec<u8>> {
    let len = u.int_in_range(0..=max)?;
    Ok(u.bytes(len)?.to_vec())
}

fn location(u: &mut Unstructured<'_>, depth: usize) -> Result<Location> {
    let leaf = depth >= MAX_DEPTH;
    Ok(match u.int_in_range(0..=if leaf { 1 } else { 4 })? {
        0 => Location::Unknown,
        1 => Location::FileLineCol {
            file: name(u)?.into(),
            line: u.arbitrary()?,
            column: u.arbitrary()?,
        },
        2 => Location::Name {
            name: name(u)?,
            child: Box::new(location(u, depth + 1)?),
        },
        3 => Location::CallSite {
            callee: Box::new(location(u, depth + 1)?),
            caller: Box::new(location(u, depth + 1)?),
        },
        _ => Location::Fused(list(u, 0, 3, |u| location(u, depth + 1))?),
    })
}

const SCALARS: [DType; 13] = [
    DType::I1,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::UI8,
    DType::UI16,
    DType::UI32,
    DType::UI64,
    DType::F16,
    DType::BF16,
    DType::F32,
    DType::F64,
];

fn scalar(u: &mut Unstructured<'_>, dtype: DType) -> Result<Attribute> {
    Ok(match dtype {
        DType::I1 => Attribute::I1(u.arbitrary()?),
        DType::I8 => Attribute::I8(u.arbitrary()?),
        DType::I16 => Attribute::I16(u.arbitrary()?),
        DType::I32 => Attribute::I32(u.arbitrary()?),
        DType::I64 => Attribute::I64(u.arbitrary()?),
        DType::UI8 => Attribute::UI8(u.arbitrary()?),
        DType::UI16 => Attribute::UI16(u.arbitrary()?),
        DType::UI32 => Attribute::UI32(u.arbitrary()?),
        DType::UI64 => Attribute::UI64(u.arbitrary()?),
        DType::F16 => Attribute::F16(u.arbitrary()?),
        DType::BF16 => Attribute::BF16(u.arbitrary()?),
        DType::F32 => Attribute::F32(u.arbitrary()?),
        _ => Attribute::F64(u.arbitrary()?),
    })
}

fn array_element(u: &mut Unstructured<'_>) -> Result<ArrayElement> {
    Ok(if u.ratio(1, 8)? {
        ArrayElement::Type
    } else {
        ArrayElement::Scalar(*u.choose(&SCALARS)?)
    })
}

fn element_value(u: &mut Unstructured<'_>, element: ArrayElement) -> Result<Attribute> {
    match element {
        ArrayElement::Type => Ok(Attribute::Type(u.arbitrary()?)),
        ArrayElement::Scalar(dtype) => scalar(u, dtype),
    }
}

/// Any attribute; `top_level` allows compilation units, which only
/// kernels (not aggregates) can hold.
pub fn attribute(u: &mut Unstructured<'_>, depth: usize, top_level: bool) -> Result<Attribute> {
    let nested = depth < MAX_DEPTH;
    let choice = u.int_in_range(0..=if nested { 9 } else { 6 })?;
    Ok(match choice {
        0 => {
            let dtype = *u.choose(&SCALARS)?;
            scalar(u, dtype)?
        }
        1 => Attribute::String(bytes(u, 12)?),
        2 => Attribute::Type(u.arbitrary()?),
        3 => Attribute::Func(bytes(u, 8)?),
        4 => Attribute::Shape(if u.arbitrary()? {
            None
        } else {
            Some(list(u, 0, 4, |u| u.arbitrary())?)
        }),
        5 => {
            let dtypes: Vec<DType> = DType::ALL
                .into_iter()
                .filter(|d| d.is_dense_element())
                .collect();
            let dtype = *u.choose(&dtypes)?;
            let shape = list(u, 0, 3, |u| Ok(i64::from(u.int_in_range(0..=4u8)?)))?;
            let count = dense_element_count(&shape).unwrap_or(0) as usize;
            let len = count * dtype.host_size().unwrap_or(1);
            let mut data = u.bytes(len.min(u.len()))?.to_vec();
            data.resize(len, 0);
            Attribute::Dense(DenseAttr { dtype, shape, data })
        }
        6 if top_level && u.ratio(1, 4)? => {
            Attribute::CompilationUnit(super::attr::CompilationUnit {
                id: u.arbitrary()?,
                root: bytes(u, 6)?,
                nested: list(u, 0, 2, |u| bytes(u, 4))?,
                serialized: bytes(u, 16)?,
            })
        }
        6 | 7 => {
            let element = array_element(u)?;
            let values = list(u, 0, 5, |u| element_value(u, element))?;
            Attribute::Array { element, values }
        }
        _ => Attribute::Aggregate(list(u, 0, 4, |u| attribute(u, depth + 1, false))?),
    })
}

fn function(u: &mut Unstructured<'_>, shape: &Shape) -> Result<Function> {
    let kind = *u.choose(&[FunctionKind::Bef, FunctionKind::Sync, FunctionKind::Native])?;
    let arg_types = list(u, 0, 3, |u| index(u, shape.num_types))?;
    let result_types = list(u, 0, 3, |u| index(u, shape.num_types))?;
    let body = if kind.has_body() {
        Some(body(u, shape, arg_types.len() as u32, result_types.len())?)
    } else {
        None
    };
    Ok(Function {
        kind,
        name: name(u)?,
        arg_types,
        result_types,
        body,
    })
}

fn body(
    u: &mut Unstructured<'_>,
    shape: &Shape,
    num_args: u32,
    num_results: usize,
) -> Result<Body> {
    let num_registers = num_args + u.int_in_range(0..=6)?;
    let num_real_kernels = u.int_in_range(0..=6)?;
    let num_kernels = num_real_kernels + 1;
    let register = |u: &mut Unstructured<'_>| index(u, num_registers.max(1) as usize);
    let users = |u: &mut Unstructured<'_>| {
        list(u, 0, 3, |u| {
            u.int_in_range(1..=num_kernels.max(2) as u32 - 1)
        })
    };
    let pseudo_used_by = (0..=num_args)
        .map(|_| users(u))
        .collect::<Result<Vec<_>>>()?;
    let mut kernels = vec![Kernel::pseudo(
        num_args,
        num_registers,
        pseudo_used_by,
        u.arbitrary()?,
    )];
    for _ in 0..num_real_kernels {
        let attributes = if shape.num_attributes > 0 {
            list(u, 0, 3, |u| index(u, shape.num_attributes))?
        } else {
            Vec::new()
        };
        let attribute_names = if shape.optional_sections {
            attributes.iter().map(|_| name(u)).collect::<Result<_>>()?
        } else {
            Vec::new()
        };
        let results = list(u, 0, 3, register)?;
        let used_by = results
            .iter()
            .map(|_| users(u))
            .collect::<Result<Vec<_>>>()?;
        let location = match u.int_in_range(0..=2)? {
            0 => KernelLocation::Virtual,
            _ => KernelLocation::At(location(u, 0)?),
        };
        kernels.push(Kernel {
            code: index(u, shape.num_kernel_names)?,
            location,
            args: list(u, 0, 4, register)?,
            attributes,
            attribute_names,
            functions: if shape.num_functions > 0 {
                list(u, 0, 2, |u| index(u, shape.num_functions))?
            } else {
                Vec::new()
            },
            results,
            used_by,
            stream_id: if u.arbitrary()? {
                u.arbitrary()?
            } else {
                u64::from(u.int_in_range(0..=3u8)?)
            },
        });
    }
    let register_types = if shape.optional_sections {
        (0..num_registers)
            .map(|_| index(u, shape.num_types))
            .collect::<Result<_>>()?
    } else {
        Vec::new()
    };
    Ok(Body {
        location: if u.arbitrary()? {
            Some(location(u, 0)?)
        } else {
            None
        },
        num_registers,
        register_types,
        kernels,
        results: (0..num_results)
            .map(|_| register(u))
            .collect::<Result<_>>()?,
    })
}
