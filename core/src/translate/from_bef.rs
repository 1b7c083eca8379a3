//! BEF → IR. Attribute names and types and register types come from the
//! optional sections (placeholders stand in when they are missing); the
//! rest comes from the tables every file has.
//!
//! Named functions become `func.func` ops in FunctionIndex order; anonymous
//! functions become the regions of the kernel that lists them. Function
//! references of kernels get the attribute names of the reference TFRT ops
//! (`callee`, `a_true_fn`, ...), which BEF does not store. Stream ids that
//! the default stream analysis would not reproduce (they came from costs
//! BEF does not store) are kept as `_tfrt_stream_id` attributes.

use super::attributes;
use super::compiled;
use super::streams::StreamOptions;
use super::to_bef::{RETURN_OP, analyze_block};
use super::{ROOT_STREAM_IDS_ATTRIBUTE, STREAM_ID_ATTRIBUTE};
use crate::abi;
use crate::format::{
    self, BefFile, Body, DecodeError, FunctionKind, Kernel, KernelLocation,
    Location as BefLocation, SectionId,
};
use crate::ir::{
    Attribute, Block, FUNC_OP, Location, Module, NamedAttribute, Op, Region, Type, ValueId,
    set_attribute,
};
use crate::text;

/// Anonymous functions nested deeper than this are refused.
const MAX_REGION_DEPTH: usize = 256;

/// Rebuilds the module a BEF file was translated from.
///
/// A file written without the optional sections (see
/// [`missing_optional_sections`]) is rebuilt as the reference rebuilds it:
/// every attribute is the placeholder `0xdeadbeef : i32`, named `attrN` by
/// its position, and every value has type `none`.
pub fn bef_to_mlir(file: &BefFile<'_>) -> Result<Module, DecodeError> {
    let model = file.to_module_with_placeholder(format::Attribute::I32(PLACEHOLDER_ATTRIBUTE))?;
    let types = model
        .types
        .iter()
        .enumerate()
        .map(|(i, name)| {
            text::parse_type(name).map_err(|e| {
                DecodeError::new(
                    0,
                    format!("type {i} '{name}' is not an MLIR type: {}", e.message),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_region_owners(&model)?;
    let mut builder = Builder {
        model: &model,
        types,
        module: Module::new(Location::Unknown),
        weights: model.attributes.iter().map(attribute_weight).collect(),
        copied: 0,
        copy_budget: 32 * file.bytes().len() as u64 + COPY_ALLOWANCE,
    };
    for (index, function) in model.functions.iter().enumerate() {
        if function.name.is_empty() {
            continue;
        }
        let op = builder.function_op(index)?;
        builder.module.body_mut().ops.push(op);
    }
    let mut module = builder.module;
    let units = model.attributes.iter().filter_map(|a| match a {
        format::Attribute::CompilationUnit(unit) => Some(unit),
        _ => None,
    });
    compiled::add_compilation_units(&mut module, units)?;
    module.renumber_values();
    Ok(module)
}

/// The value of every attribute of a file without the optional sections
/// (`0xdeadbeef`, as the reference's translator writes it).
const PLACEHOLDER_ATTRIBUTE: i32 = 0xdead_beef_u32 as i32;

/// Whether `file` lacks the sections that name and type its attributes and
/// type its registers (it was written with optional sections disabled), so
/// that [`bef_to_mlir`] can only rebuild placeholders; the reference warns
/// about it.
pub fn missing_optional_sections(file: &BefFile<'_>) -> bool {
    [
        SectionId::AttributeTypes,
        SectionId::AttributeNames,
        SectionId::RegisterTypes,
    ]
    .into_iter()
    .any(|id| file.section(id).is_none_or(|s| s.len == 0))
}

fn error(message: impl Into<String>) -> DecodeError {
    DecodeError::new(0, message)
}

/// For every anonymous function, the (function, kernel) that owns it as a
/// region; each must be owned exactly once.
fn check_region_owners(model: &format::Module) -> Result<(), DecodeError> {
    let mut owner = vec![None; model.functions.len()];
    for (f, function) in model.functions.iter().enumerate() {
        let Some(body) = &function.body else { continue };
        for (k, kernel) in body.kernels.iter().enumerate().skip(1) {
            for &callee in &kernel.functions {
                let target = model.functions.get(callee as usize).ok_or_else(|| {
                    error(format!(
                        "function {f} kernel {k} refers to function {callee}, which does not exist"
                    ))
                })?;
                if target.name.is_empty() {
                    if owner[callee as usize].is_some() {
                        return Err(error(format!(
                            "anonymous function {callee} is the region of more than one kernel"
                        )));
                    }
                    owner[callee as usize] = Some((f, k));
                }
            }
        }
    }
    for (index, function) in model.functions.iter().enumerate() {
        if function.name.is_empty() && owner[index].is_none() {
            return Err(error(format!(
                "anonymous function {index} is not the region of any kernel"
            )));
        }
    }
    Ok(())
}

struct Builder<'a> {
    model: &'a format::Module,
    types: Vec<Type>,
    module: Module,
    /// Per attribute of the pool, the bytes a copy of it takes.
    weights: Vec<u64>,
    /// Bytes of attributes copied to kernels so far, and the most allowed.
    copied: u64,
    copy_budget: u64,
}

/// Attribute bytes that copies may take beyond 32 times the file's size
/// (half the memory budget of an input, the rest for everything else).
const COPY_ALLOWANCE: u64 = 32 << 20;

/// About the bytes a copy of `attribute` takes in the IR.
fn attribute_weight(attribute: &format::Attribute) -> u64 {
    use format::Attribute as A;
    let bytes = match attribute {
        A::String(bytes) | A::Func(bytes) => bytes.len() as u64,
        A::Shape(dims) => dims.as_ref().map_or(0, |d| 8 * d.len() as u64),
        A::Dense(dense) => (dense.data.len() + 8 * dense.shape.len()) as u64,
        A::Array { values, .. } | A::Aggregate(values) => values.iter().map(attribute_weight).sum(),
        A::CompilationUnit(unit) => {
            (unit.root.len()
                + unit.serialized.len()
                + unit.nested.iter().map(Vec::len).sum::<usize>()) as u64
        }
        _ => 0,
    };
    bytes + 16
}

pub(super) fn from_bef_location(location: &BefLocation) -> Location {
    match location {
        BefLocation::Unknown => Location::Unknown,
        BefLocation::FileLineCol { file, line, column } => Location::FileLineCol {
            file: file.clone(),
            line: u32::try_from(*line).unwrap_or(u32::MAX),
            column: u32::try_from(*column).unwrap_or(u32::MAX),
        },
        BefLocation::Name { name, child } => Location::Name {
            name: name.clone(),
            child: Box::new(from_bef_location(child)),
        },
        BefLocation::CallSite { callee, caller } => Location::CallSite {
            callee: Box::new(from_bef_location(callee)),
            caller: Box::new(from_bef_location(caller)),
        },
        BefLocation::Fused(locations) => Location::Fused {
            locations: locations.iter().map(from_bef_location).collect(),
            metadata: None,
        },
    }
}

/// A location the writer replaced by a virtual offset: an empty fused
/// location is one MLIR can spell and BEF cannot hold, so it comes back out
/// as a virtual offset again.
fn virtual_location() -> Location {
    Location::Fused {
        locations: Vec::new(),
        metadata: None,
    }
}

/// Names of the function attributes of the reference TFRT ops, in the
/// order their sorted names give the functions list.
fn function_attribute_names(kernel: &str, count: usize) -> FunctionNames {
    let fixed: &[&str] = match kernel {
        "tfrt.call" | "tfrt.parallel_call.i32" => &["callee"],
        "tfrt.cond" => &["a_true_fn", "b_false_fn"],
        "tfrt.while" => &["body_fn"],
        "tfrt.once" => &["function"],
        "tfrt.case" => return FunctionNames::Array("branches".into()),
        _ => &[],
    };
    if fixed.len() == count {
        return FunctionNames::Each(fixed.iter().map(|s| s.to_string()).collect());
    }
    match count {
        1 => FunctionNames::Each(vec!["callee".into()]),
        _ => {
            let width = (count - 1).to_string().len();
            FunctionNames::Each((0..count).map(|i| format!("fn_{i:0width$}")).collect())
        }
    }
}

enum FunctionNames {
    Each(Vec<String>),
    Array(String),
}

impl Builder<'_> {
    fn ty(&self, index: u32) -> Result<Type, DecodeError> {
        self.types
            .get(index as usize)
            .cloned()
            .ok_or_else(|| error(format!("type index {index} is out of range")))
    }

    fn function_op(&mut self, index: usize) -> Result<Op, DecodeError> {
        let function = &self.model.functions[index];
        let inputs = function
            .arg_types
            .iter()
            .map(|&t| self.ty(t))
            .collect::<Result<Vec<_>, _>>()?;
        let results = function
            .result_types
            .iter()
            .map(|&t| self.ty(t))
            .collect::<Result<Vec<_>, _>>()?;
        let location = match &function.body {
            Some(body) => body
                .location
                .as_ref()
                .map_or_else(virtual_location, from_bef_location),
            None => Location::Unknown,
        };
        let mut op = Op::new(FUNC_OP, location);
        op.set_attribute("sym_name", Attribute::string(&function.name));
        if let Ok(at) =
            (self.model.signatures).binary_search_by_key(&(index as u32), |entry| entry.function)
        {
            let entry = &self.model.signatures[at];
            if let Some(reflection) = &entry.reflection {
                op.set_attribute(abi::REFLECTION_ATTRIBUTE, Attribute::string(reflection));
            }
            if let Some(sip) = &entry.sip {
                op.set_attribute(
                    abi::SIP_ATTRIBUTE,
                    Attribute::String {
                        value: sip.clone(),
                        ty: None,
                    },
                );
            }
        }
        op.set_attribute(
            "function_type",
            Attribute::Type(Type::Function { inputs, results }),
        );
        match function.kind {
            FunctionKind::Native => {
                op.set_attribute("sym_visibility", Attribute::string("private"));
                op.set_attribute("tfrt.native", Attribute::Unit);
                op.regions.push(Region::default());
            }
            FunctionKind::Sync | FunctionKind::Bef => {
                if function.kind == FunctionKind::Sync {
                    op.set_attribute("tfrt.sync", Attribute::Unit);
                }
                let (region, root) = self.region(index, 0)?;
                op.regions.push(region);
                if let Some(root) = root {
                    op.set_attribute(ROOT_STREAM_IDS_ATTRIBUTE, Attribute::Array(vec![root]));
                }
            }
        }
        Ok(op)
    }

    /// The body of function `index` as a region, and the root stream
    /// override when the analysis would not reproduce the file's streams.
    fn region(
        &mut self,
        index: usize,
        depth: usize,
    ) -> Result<(Region, Option<Attribute>), DecodeError> {
        if depth > MAX_REGION_DEPTH {
            return Err(error(format!(
                "anonymous functions nested deeper than {MAX_REGION_DEPTH} levels"
            )));
        }
        let model = self.model;
        let function = &model.functions[index];
        let body: &Body = function
            .body
            .as_ref()
            .ok_or_else(|| error(format!("function {index} has no body")))?;
        let num_registers = body.num_registers as usize;
        let optional_sections = model.optional_sections;
        if optional_sections && body.register_types.len() != num_registers {
            return Err(error(format!(
                "function {index} has {} register types for {num_registers} registers",
                body.register_types.len()
            )));
        }
        let mut values: Vec<Option<ValueId>> = vec![None; num_registers];
        let mut block = Block::default();
        let pseudo = body
            .kernels
            .first()
            .ok_or_else(|| error(format!("function {index} has no kernels")))?;
        for (i, &register) in pseudo.results.iter().skip(1).enumerate() {
            // Without register types, the function's argument types still
            // type its arguments (as in the reference).
            let ty = match function.arg_types.get(i) {
                Some(&ty) if !optional_sections => Some(self.ty(ty)?),
                _ => None,
            };
            let id = self.define_typed(&mut values, body, index, register, ty)?;
            block.arguments.push(id);
        }
        let mut decoded_streams = Vec::with_capacity(body.kernels.len());
        for (k, kernel) in body.kernels.iter().enumerate().skip(1) {
            let op = self.kernel_op(index, k, kernel, body, &mut values, depth)?;
            decoded_streams.push(kernel.stream_id);
            block.ops.push(op);
        }
        let mut ret = Op::new(RETURN_OP, Location::Unknown);
        for &register in &body.results {
            let value = values
                .get(register as usize)
                .copied()
                .flatten()
                .ok_or_else(|| {
                    error(format!(
                        "function {index}: result register {register} is not defined"
                    ))
                })?;
            ret.operands.push(value);
        }
        block.ops.push(ret);

        let root = self.keep_streams(&mut block, &decoded_streams, body.kernels[0].stream_id);
        Ok((
            Region {
                blocks: vec![block],
            },
            root,
        ))
    }

    /// The op of kernel `k` of function `index` (whose body is `body`):
    /// operands, attributes, regions (the anonymous functions it names, at
    /// `depth` + 1) and results, defined in `values`.
    fn kernel_op(
        &mut self,
        index: usize,
        k: usize,
        kernel: &Kernel,
        body: &Body,
        values: &mut [Option<ValueId>],
        depth: usize,
    ) -> Result<Op, DecodeError> {
        let name = self
            .model
            .kernel_names
            .get(kernel.code as usize)
            .ok_or_else(|| {
                error(format!(
                    "function {index} kernel {k}: kernel code {} is out of range",
                    kernel.code
                ))
            })?;
        let location = match &kernel.location {
            KernelLocation::At(location) => from_bef_location(location),
            KernelLocation::Virtual | KernelLocation::Pseudo => virtual_location(),
        };
        let mut op = Op::new(name.clone(), location);
        for &register in &kernel.args {
            let value = values
                .get(register as usize)
                .copied()
                .flatten()
                .ok_or_else(|| error(format!("function {index} kernel {k}: argument register {register} is not defined before it")))?;
            op.operands.push(value);
        }
        let (attrs, regions) = self.kernel_attributes(index, k, kernel, name)?;
        for (name, value) in attrs {
            if op.attribute(&name).is_some() {
                return Err(error(format!(
                    "function {index} kernel {k}: attribute '{name}' appears twice"
                )));
            }
            set_attribute(&mut op.attributes, &name, value);
        }
        let mut root_ids = Vec::new();
        for &region_function in &regions {
            let (region, root) = self.region(region_function as usize, depth + 1)?;
            op.regions.push(region);
            root_ids.push(root);
        }
        if root_ids.iter().any(Option::is_some) {
            let ids = root_ids
                .into_iter()
                .map(|r| r.unwrap_or(Attribute::i64(-1)))
                .collect();
            op.set_attribute(ROOT_STREAM_IDS_ATTRIBUTE, Attribute::Array(ids));
        }
        for &register in &kernel.results {
            let id = self.define(values, body, index, register)?;
            op.results.push(id);
        }
        Ok(op)
    }

    /// The attributes of kernel `k` (`kernel_name`) of function `index`:
    /// its pool attributes, named from the file or `attr{i}`, and its
    /// named functions as symbol attributes; and the anonymous functions
    /// it names, which become its regions.
    fn kernel_attributes(
        &mut self,
        index: usize,
        k: usize,
        kernel: &Kernel,
        kernel_name: &str,
    ) -> Result<(Vec<NamedAttribute>, Vec<u32>), DecodeError> {
        let model = self.model;
        let optional_sections = model.optional_sections;
        let mut attrs: Vec<NamedAttribute> = Vec::with_capacity(kernel.attributes.len());
        let placeholder_names: Vec<String>;
        let attribute_names = if optional_sections {
            &kernel.attribute_names
        } else {
            placeholder_names = (0..kernel.attributes.len())
                .map(|i| format!("attr{i}"))
                .collect();
            &placeholder_names
        };
        if attribute_names.len() != kernel.attributes.len() {
            return Err(error(format!(
                "function {index} kernel {k}: attribute names do not match attributes"
            )));
        }
        for (&pool, name) in kernel.attributes.iter().zip(attribute_names) {
            let bef = model.attributes.get(pool as usize).ok_or_else(|| {
                error(format!(
                    "function {index} kernel {k}: attribute {pool} is out of range"
                ))
            })?;
            // BEF stores an attribute once; the IR (and the text) holds
            // a copy at every use.
            self.copied = self.copied.saturating_add(self.weights[pool as usize]);
            if self.copied > self.copy_budget {
                return Err(error(format!(
                    "function {index} kernel {k}: attribute '{name}' and the uses before it copy more than {} bytes of attributes (32 times the file's size plus {} MiB): too many uses of large shared attributes to write out",
                    self.copy_budget,
                    COPY_ALLOWANCE >> 20
                )));
            }
            let value = match bef {
                format::Attribute::CompilationUnit(unit) => compiled::symbol_ref(unit),
                other => attributes::from_bef(other),
            };
            let value = value.ok_or_else(|| {
                error(format!("function {index} kernel {k}: attribute '{name}' has a kind MLIR text cannot express"))
            })?;
            attrs.push((name.clone(), value));
        }
        let (symbols, regions): (Vec<u32>, Vec<u32>) = kernel
            .functions
            .iter()
            .partition(|&&f| !model.functions[f as usize].name.is_empty());
        if !symbols.is_empty() {
            let symbol = |f: u32| Attribute::symbol(&model.functions[f as usize].name);
            match function_attribute_names(kernel_name, symbols.len()) {
                FunctionNames::Each(names) => {
                    for (attr_name, f) in names.into_iter().zip(&symbols) {
                        attrs.push((attr_name, symbol(*f)));
                    }
                }
                FunctionNames::Array(attr_name) => {
                    attrs.push((
                        attr_name,
                        Attribute::Array(symbols.iter().map(|&f| symbol(f)).collect()),
                    ));
                }
            }
        }
        Ok((attrs, regions))
    }

    /// A new value for `register`, typed from the register types.
    fn define(
        &mut self,
        values: &mut [Option<ValueId>],
        body: &Body,
        index: usize,
        register: u32,
    ) -> Result<ValueId, DecodeError> {
        self.define_typed(values, body, index, register, None)
    }

    /// As [`define`](Self::define), of type `ty` when given.
    fn define_typed(
        &mut self,
        values: &mut [Option<ValueId>],
        body: &Body,
        index: usize,
        register: u32,
        ty: Option<Type>,
    ) -> Result<ValueId, DecodeError> {
        let slot = values.get_mut(register as usize).ok_or_else(|| {
            error(format!(
                "function {index}: register {register} is out of range"
            ))
        })?;
        if slot.is_some() {
            return Err(error(format!(
                "function {index}: register {register} is defined twice"
            )));
        }
        let ty = match (ty, body.register_types.get(register as usize)) {
            (Some(ty), _) => ty,
            (None, Some(&ty)) if self.model.optional_sections => self.ty(ty)?,
            // No register types: the reference types every value `none`.
            _ => Type::None,
        };
        let id = self.module.new_value(ty, None);
        *slot = Some(id);
        Ok(id)
    }

    /// Runs the default stream analysis over the rebuilt block; when it
    /// disagrees with the file, pins every kernel's stream (and returns the
    /// root's) so that re-encoding writes the file's streams.
    fn keep_streams(
        &self,
        block: &mut Block,
        decoded: &[u64],
        decoded_root: u64,
    ) -> Option<Attribute> {
        let producer: rustc_hash::FxHashMap<ValueId, usize> = block
            .ops
            .iter()
            .enumerate()
            .flat_map(|(i, op)| op.results.iter().map(move |&r| (r, i)))
            .collect();
        let mut scratch = super::streams::Scratch::default();
        let analysed = analyze_block(
            &self.module,
            block,
            StreamOptions::default(),
            &mut scratch,
            |v| producer.get(v).copied(),
        );
        let kernels = &analysed.ops[..decoded.len()];
        if kernels == decoded && analysed.root == decoded_root {
            return None;
        }
        for (op, &stream) in block.ops.iter_mut().zip(decoded) {
            op.set_attribute(STREAM_ID_ATTRIBUTE, Attribute::i64(stream as i64));
        }
        Some(Attribute::i64(decoded_root as i64))
    }
}
