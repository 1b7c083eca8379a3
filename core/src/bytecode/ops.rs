//! The registered ops this crate knows the property layout of. MLIR writes
//! a registered op's properties with code generated from its definition
//! (ODS): each inherent attribute in name order (required: an attribute
//! index; optional: 0 when absent, else `(index << 1) | 1`), and from
//! version 6 the operand/result segment sizes natively at the end. The
//! blob names nothing, so reading it needs this table.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

/// One inherent attribute of a registered op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InherentAttr {
    /// Attribute name, as it appears in the op's attribute dictionary.
    pub name: &'static str,
    /// Whether the op may omit it (encoded as 0 when absent in the properties blob).
    pub optional: bool,
}

/// `operandSegmentSizes` / `resultSegmentSizes` with its fixed length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segments {
    /// Segment-size attribute name.
    pub name: &'static str,
    /// Number of segments: one per operand (or result) group of the op.
    pub len: usize,
}

/// The properties layout of one registered op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpDefinition {
    /// Full op name, `dialect.op`.
    pub name: &'static str,
    /// Sorted by name.
    pub attributes: &'static [InherentAttr],
    /// The segment-size attributes, sorted by name; empty when none.
    pub segments: &'static [Segments],
}

impl OpDefinition {
    /// Whether the op has a properties storage (and so a properties entry
    /// from version 5 even when every attribute is absent).
    pub fn has_properties(&self) -> bool {
        !self.attributes.is_empty() || !self.segments.is_empty()
    }

    /// Whether `name` is one of the op's inherent attributes or segment sizes.
    pub fn is_inherent(&self, name: &str) -> bool {
        self.attributes.iter().any(|a| a.name == name)
            || self.segments.iter().any(|s| s.name == name)
    }
}

const fn req(name: &'static str) -> InherentAttr {
    InherentAttr {
        name,
        optional: false,
    }
}

const fn opt(name: &'static str) -> InherentAttr {
    InherentAttr {
        name,
        optional: true,
    }
}

const fn operands(len: usize) -> Segments {
    Segments {
        name: "operandSegmentSizes",
        len,
    }
}

const fn op(name: &'static str, attributes: &'static [InherentAttr]) -> OpDefinition {
    OpDefinition {
        name,
        attributes,
        segments: &[],
    }
}

const fn op_seg(
    name: &'static str,
    attributes: &'static [InherentAttr],
    segments: &'static [Segments],
) -> OpDefinition {
    OpDefinition {
        name,
        attributes,
        segments,
    }
}

const OVERFLOW: &[InherentAttr] = &[opt("overflowFlags")];
const FASTMATH: &[InherentAttr] = &[opt("fastmath")];
const FASTMATH_ROUNDING: &[InherentAttr] = &[opt("fastmath"), opt("roundingmode")];
const NONE: &[InherentAttr] = &[];
const SLICE: &[InherentAttr] = &[
    req("static_offsets"),
    req("static_sizes"),
    req("static_strides"),
];

/// Sorted by op name.
static DEFINITIONS: &[OpDefinition] = &[
    op("arith.addf", FASTMATH_ROUNDING),
    op("arith.addi", OVERFLOW),
    op("arith.andi", NONE),
    op("arith.cmpf", &[opt("fastmath"), req("predicate")]),
    op("arith.cmpi", &[req("predicate")]),
    op("arith.constant", &[req("value")]),
    op("arith.divf", FASTMATH_ROUNDING),
    op("arith.index_cast", NONE),
    op("arith.maxsi", NONE),
    op("arith.mulf", FASTMATH_ROUNDING),
    op("arith.muli", OVERFLOW),
    op("arith.negf", FASTMATH),
    op("arith.ori", NONE),
    op("arith.select", NONE),
    op("arith.subf", FASTMATH_ROUNDING),
    op("arith.subi", OVERFLOW),
    op("arith.xori", NONE),
    op("builtin.module", &[opt("sym_name"), opt("sym_visibility")]),
    op("cf.assert", &[req("msg")]),
    op("cf.br", NONE),
    op_seg("cf.cond_br", &[opt("branch_weights")], &[operands(3)]),
    op_seg(
        "cf.switch",
        &[req("case_operand_segments"), opt("case_values")],
        &[operands(3)],
    ),
    op(
        "func.call",
        &[
            opt("arg_attrs"),
            req("callee"),
            opt("no_inline"),
            opt("res_attrs"),
        ],
    ),
    op(
        "func.func",
        &[
            opt("arg_attrs"),
            req("function_type"),
            opt("no_inline"),
            opt("res_attrs"),
            req("sym_name"),
            opt("sym_visibility"),
        ],
    ),
    op("func.return", NONE),
    op_seg(
        "linalg.generic",
        &[
            opt("doc"),
            req("indexing_maps"),
            req("iterator_types"),
            opt("library_call"),
        ],
        &[operands(2)],
    ),
    op("linalg.yield", NONE),
    op_seg("memref.alloc", &[opt("alignment")], &[operands(2)]),
    op_seg("memref.subview", SLICE, &[operands(4)]),
    op("scf.condition", NONE),
    op("scf.execute_region", &[opt("no_inline")]),
    op("scf.for", &[opt("unsignedCmp")]),
    op("scf.if", NONE),
    op("scf.while", NONE),
    op("scf.yield", NONE),
    op_seg("tensor.extract_slice", SLICE, &[operands(4)]),
    op_seg(
        "vector.transfer_read",
        &[req("in_bounds"), req("permutation_map")],
        &[operands(4)],
    ),
];

/// The definition of a registered op this crate knows. A hash lookup: the
/// writer asks once or twice per op.
pub fn lookup(name: &str) -> Option<&'static OpDefinition> {
    static BY_NAME: LazyLock<FxHashMap<&'static str, &'static OpDefinition>> =
        LazyLock::new(|| DEFINITIONS.iter().map(|d| (d.name, d)).collect());
    BY_NAME.get(name).copied()
}

/// Moves a known op's inherent attributes from its dictionary into its
/// properties, where the reader puts them (the text parser keeps them in
/// the dictionary, as the MLIR TFRT was built with did). Properties
/// already present win over a dictionary entry of the same name.
pub fn split_inherent_attributes(op: &mut crate::ir::Op) {
    use crate::ir::Attribute;
    let Some(def) = lookup(&op.name) else {
        return;
    };
    if !op.attributes.iter().any(|(name, _)| def.is_inherent(name)) {
        return;
    }
    let mut entries = match op.properties.take().map(|p| *p) {
        Some(Attribute::Dictionary(entries)) => entries,
        // Not a dictionary: nothing to merge into; leave the op as it was.
        Some(other) => {
            op.properties = Some(Box::new(other));
            return;
        }
        None => Vec::new(),
    };
    let (inherent, discardable): (Vec<_>, Vec<_>) = std::mem::take(&mut op.attributes)
        .into_iter()
        .partition(|(name, _)| def.is_inherent(name));
    op.attributes = discardable;
    for (name, value) in inherent {
        if let Err(at) = entries.binary_search_by(|(n, _)| n.as_str().cmp(&name)) {
            entries.insert(at, (name, value));
        }
    }
    op.properties = Some(Box::new(Attribute::Dictionary(entries)));
}

/// Whether `split_inherent_attributes` would change `op`: it keeps an
/// inherent attribute of its (known) definition in its dictionary, as a
/// module parsed from text does. Most ops read from bytecode have no
/// discardable attributes: only those pay for the definition lookup.
pub fn keeps_inherent_attributes(op: &crate::ir::Op) -> bool {
    !op.attributes.is_empty()
        && lookup(&op.name)
            .is_some_and(|def| op.attributes.iter().any(|(name, _)| def.is_inherent(name)))
}

/// `split_inherent_attributes` on every op: the form `read` produces, so
/// a module parsed from text compares equal to the same module read from
/// bytecode.
pub fn split_all_inherent_attributes(module: &mut crate::ir::Module) {
    // An explicit stack: nesting depth is unbounded in parsed input.
    let mut stack = vec![&mut module.op];
    while let Some(op) = stack.pop() {
        split_inherent_attributes(op);
        stack.extend(
            op.regions
                .iter_mut()
                .flat_map(|r| &mut r.blocks)
                .flat_map(|b| &mut b.ops),
        );
    }
}

/// The inverse of `split_all_inherent_attributes`: known ops' properties
/// back in their dictionaries, the form the text parser produces and the
/// custom printer expects (TFRT's MLIR had no properties). An op whose
/// properties and dictionary share a name is left as it is.
pub fn join_all_inherent_attributes(module: &mut crate::ir::Module) {
    use crate::ir::Attribute;
    let mut stack = vec![&mut module.op];
    while let Some(op) = stack.pop() {
        if lookup(&op.name).is_some()
            && let Some(Attribute::Dictionary(props)) = op.properties.as_deref()
            && !props
                .iter()
                .any(|(n, _)| crate::ir::find_attribute(&op.attributes, n).is_some())
        {
            let Some(Attribute::Dictionary(props)) = op.properties.take().map(|p| *p) else {
                unreachable!("matched above")
            };
            op.attributes.extend(props);
            op.attributes.sort_by(|a, b| a.0.cmp(&b.0));
        }
        stack.extend(
            op.regions
                .iter_mut()
                .flat_map(|r| &mut r.blocks)
                .flat_map(|b| &mut b.ops),
        );
    }
}

#[cfg(test)]
mod tests {
    // The writer merges attributes and segment sizes assuming both are
    // sorted by name.
    #[test]
    fn definitions_list_fields_by_name() {
        for def in super::DEFINITIONS {
            assert!(def.attributes.is_sorted_by_key(|a| a.name), "{}", def.name);
            assert!(def.segments.is_sorted_by_key(|s| s.name), "{}", def.name);
        }
    }

    use super::*;

    #[test]
    fn tables_are_sorted() {
        assert!(DEFINITIONS.windows(2).all(|w| w[0].name < w[1].name));
        for d in DEFINITIONS {
            assert!(
                d.attributes.windows(2).all(|w| w[0].name < w[1].name),
                "{}",
                d.name
            );
        }
        assert!(lookup("func.func").is_some());
        assert!(lookup("foo.bar").is_none());
    }
}
