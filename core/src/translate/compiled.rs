//! Compiled modules: nested `builtin.module` ops marked `tfrt.compiled`.
//!
//! Their functions are not BEF functions. A kernel attribute that names one
//! of their symbols (`@kernel::@main`) is written as a compilation unit
//! (`kSymbolRef`): the symbol names, and the module that defines the
//! symbol printed in the generic op form, so that the program can compile
//! it at run time. Reading BEF back, each distinct serialized module is
//! parsed and appended to the rebuilt module as a nested module again.

use crate::format::{self, CompilationUnit};
use crate::ir::{Attribute, MODULE_OP, Module, Op};
use crate::text::{self, PrintOptions};

/// The most bytes of serialized modules one translation writes: every
/// distinct symbol carries a copy of its module, so a few bytes of text can
/// ask for many copies of a large module.
pub(super) const MAX_SERIALIZED_BYTES: u64 = 1 << 26;

/// The attribute that marks a nested module as compiled.
pub(super) const COMPILED_ATTRIBUTE: &str = "tfrt.compiled";

/// Whether `op` is a module marked `tfrt.compiled`.
pub(super) fn is_compiled_module(op: &Op) -> bool {
    op.name == MODULE_OP && op.attribute(COMPILED_ATTRIBUTE).is_some()
}

fn sym_name(op: &Op) -> Option<&[u8]> {
    match op.attribute("sym_name")? {
        Attribute::String { value, .. } => Some(value),
        _ => None,
    }
}

/// The op named `name` among the ops of `module_op`'s body.
fn lookup<'m>(module_op: &'m Op, name: &str) -> Option<&'m Op> {
    let block = module_op.regions.first()?.blocks.first()?;
    block
        .ops
        .iter()
        .find(|op| sym_name(op) == Some(name.as_bytes()))
}

/// The compilation unit of `@root::@nested...` (its `id` is 0 until
/// [`number_units`] assigns it), or `None` when the symbol is not defined
/// inside a compiled module of `module`.
pub(super) fn compilation_unit(
    module: &Module,
    root: &str,
    nested: &[String],
) -> Option<CompilationUnit> {
    let (last, path) = nested.split_last()?;
    let mut parent = lookup(&module.op, root)?;
    let mut compiled = is_compiled_module(parent);
    for name in path {
        parent = lookup(parent, name)?;
        compiled |= is_compiled_module(parent);
    }
    if parent.name != MODULE_OP || !compiled {
        return None;
    }
    lookup(parent, last)?;
    let mut holder = Module {
        op: parent.clone(),
        values: module.values.clone(),
        resources: Vec::new(),
        origin: None,
    };
    // Inherent attributes in the dictionary, wherever the module came from
    // (bytecode keeps them apart), so that the text is the same.
    crate::bytecode::ops::join_all_inherent_attributes(&mut holder);
    let printed = text::print_module(
        &holder,
        PrintOptions {
            generic: true,
            debug_info: false,
        },
    );
    Some(CompilationUnit {
        id: 0,
        root: root.as_bytes().to_vec(),
        nested: nested.iter().map(|n| n.as_bytes().to_vec()).collect(),
        serialized: printed.into_bytes(),
    })
}

/// Numbers the compilation units in attribute order, as the reference
/// emitter does (its id is the count of symbols serialized before).
pub(super) fn number_units(attributes: &mut [format::Attribute]) {
    let mut next = 0;
    for attribute in attributes {
        if let format::Attribute::CompilationUnit(unit) = attribute {
            unit.id = next;
            next += 1;
        }
    }
}

/// The symbol reference a compilation unit names.
pub(super) fn symbol_ref(unit: &CompilationUnit) -> Option<Attribute> {
    let utf8 = |bytes: &[u8]| String::from_utf8(bytes.to_vec()).ok();
    Some(Attribute::SymbolRef {
        root: utf8(&unit.root)?,
        nested: unit
            .nested
            .iter()
            .map(|n| utf8(n))
            .collect::<Option<Vec<_>>>()?,
    })
}

/// Puts the modules serialized in `units` (each distinct text once, in
/// order) at the start of `module`'s body, before its functions, where the
/// reference's output has them.
pub(super) fn add_compilation_units<'a>(
    module: &mut Module,
    units: impl IntoIterator<Item = &'a CompilationUnit>,
) -> Result<(), format::DecodeError> {
    let mut seen: Vec<&[u8]> = Vec::new();
    let mut ops = Vec::new();
    for unit in units {
        if seen.contains(&unit.serialized.as_slice()) {
            continue;
        }
        seen.push(&unit.serialized);
        let source = std::str::from_utf8(&unit.serialized).map_err(|_| {
            format::DecodeError::new(0, "a compilation unit's module is not UTF-8 text")
        })?;
        let parsed = text::parse_module(source, "<compilation unit>").map_err(|e| {
            format::DecodeError::new(
                0,
                format!("a compilation unit's module does not parse: {}", e.message),
            )
        })?;
        let mut op = parsed.op;
        let base = u32::try_from(module.values.len())
            .map_err(|_| format::DecodeError::new(0, "too many values"))?;
        op.shift_nested_value_ids(base);
        module.values.extend(parsed.values);
        ops.push(op);
    }
    module.body_mut().ops.splice(0..0, ops);
    Ok(())
}
