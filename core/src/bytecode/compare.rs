//! Comparing modules across a bytecode write and read: the IR as the
//! reader gives it back, without what the format does not carry.

/// The IR alone, in the form `bytecode::read` gives it, for comparing
/// modules: the origin (version, producer, registered ops) is file
/// metadata.
pub fn ir_as_read(mut module: crate::ir::Module, version: u64) -> crate::ir::Module {
    module.origin = None;
    // Inherent attributes of known ops live in the properties once read.
    super::ops::split_all_inherent_attributes(&mut module);
    let mut stack = vec![&mut module.op];
    while let Some(op) = stack.pop() {
        for (_, a) in &mut op.attributes {
            i1_as_bool(a);
        }
        if let Some(p) = op.properties.as_deref_mut() {
            i1_as_bool(p);
        }
        stack.extend(
            op.regions
                .iter_mut()
                .flat_map(|r| &mut r.blocks)
                .flat_map(|b| &mut b.ops),
        );
    }
    // The writer lists builtin resources in first-reference order, as
    // upstream does; a file may list them in any order.
    for group in &mut module.resources {
        if matches!(&group.owner, crate::ir::ResourceOwner::Dialect(d) if d == "builtin") {
            group.entries.sort_by(|a, b| a.key.cmp(&b.key));
        }
    }
    // Versions 0-2 have no use-list orders (upstream drops them silently).
    if version < 3 {
        for v in &mut module.values {
            v.use_list_order = None;
        }
    }
    module
}

/// `0 : i1` and `false` are one attribute in MLIR (BoolAttr is an i1
/// IntegerAttr), so bytecode reads both back as `Bool`; this IR keeps
/// them apart for the text printer.
fn i1_as_bool(attr: &mut crate::ir::Attribute) {
    use crate::ir::{Attribute, Signedness, Type};
    match attr {
        Attribute::Integer {
            value,
            ty:
                Type::Integer {
                    width: 1,
                    signedness: Signedness::Signless,
                },
        } => *attr = Attribute::Bool(*value != 0),
        Attribute::Array(items) => items.iter_mut().for_each(i1_as_bool),
        Attribute::Dictionary(entries) => entries.iter_mut().for_each(|(_, a)| i1_as_bool(a)),
        _ => {}
    }
}
