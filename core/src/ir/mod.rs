//! The host-program IR shared by the text parser and printer, the BEF
//! translators and the MLIR bytecode reader and writer.
//!
//! It is generic MLIR: a module is a `builtin.module` op whose single region
//! holds `func.func` ops, and every op is a name, operands, results,
//! attributes, regions and a location. SSA values live in one arena owned
//! by the module and are referred to by `ValueId`, so ops stay small and
//! translation can number registers with a plain array.
//!
//! Canonical form: value ids are numbered in definition order of a
//! pre-order walk (an op's results, then its regions; a block's arguments,
//! then its ops). Everything that builds a module (parser, BEF decoder,
//! generators) calls `Module::renumber_values`, so two modules describing
//! the same program compare equal with `==`.

mod affine;
mod attr;
mod diagnostic;
mod location;
mod metadata;
pub(crate) mod signatures;
mod types;

pub use affine::{AffineBinary, AffineExpr, AffineMap, IntegerSet};
pub use attr::{Attribute, DenseElements, NamedAttribute, find_attribute, set_attribute};
pub use diagnostic::{Diagnostic, Severity};
pub use location::Location;
pub use metadata::{BytecodeOrigin, ResourceEntry, ResourceGroup, ResourceOwner, ResourceValue};
pub use types::{DYNAMIC, FloatKind, Signedness, Type};

/// An SSA value: index into `Module::values`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

impl ValueId {
    /// The index into `Module::values`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What the module knows of one SSA value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueData {
    /// The value's type.
    pub ty: Type,
    /// Block arguments may carry their own location; op results take the
    /// op's. Boxed: a module has a value per op result and few block
    /// arguments, so inline it would cost every value 32 bytes more (a
    /// tenth of a large module) for the few that use it.
    pub location: Option<Box<Location>>,
    /// MLIR use-list order to restore (from bytecode version 3): entry `k`
    /// is the position in the use list of the `k`-th use in reference order
    /// (uses sorted by descending `(pre-order op index, operand number)`).
    /// `None` when the uses are in reference order.
    pub use_list_order: Option<Box<[u32]>>,
}

/// A module: the `builtin.module` op and the arena of the values its ops
/// define and use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// The `builtin.module` op. Its single region has one block holding
    /// the module's ops.
    pub op: Op,
    /// Every SSA value, indexed by `ValueId`.
    pub values: Vec<ValueData>,
    /// Dialect and external resources (`dense_resource` data).
    pub resources: Vec<ResourceGroup>,
    /// Set when the module was read from MLIR bytecode.
    pub origin: Option<Box<BytecodeOrigin>>,
}

/// An operation in MLIR's generic form.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Op {
    /// Full name, `dialect.op` (`tfrt.add.i32`, `func.func`).
    pub name: String,
    /// Values used, in operand order.
    pub operands: Vec<ValueId>,
    /// Values defined, in result order.
    pub results: Vec<ValueId>,
    /// Successor blocks, as indices into the parent region's blocks.
    pub successors: Vec<u32>,
    /// The attribute dictionary, sorted by name. Inherent attributes of
    /// the ops this project knows (`value`, `callee`, `sym_name`) live here
    /// too, as they did in the MLIR versions TFRT was built with.
    pub attributes: Vec<NamedAttribute>,
    /// Properties written in generic form as `<{...}>`, kept apart so they
    /// print back where they came from.
    pub properties: Option<Box<Attribute>>,
    /// Properties of a registered op read from MLIR bytecode whose
    /// definition this crate does not know: the encoded blob, kept to be
    /// written back unchanged. Attribute indices inside refer to the
    /// attribute numbering of the file it came from.
    pub opaque_properties: Option<Box<[u8]>>,
    /// Nested regions, in order (a function's body is its first).
    pub regions: Vec<Region>,
    /// Where the op came from; `Location::Unknown` when nothing is known.
    pub location: Location,
}

/// A list of blocks; the first is the entry block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Region {
    /// The blocks, entry block first.
    pub blocks: Vec<Block>,
}

/// A basic block: arguments and a list of ops, the last of them (in a
/// function) its terminator.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Block {
    /// Values the block defines on entry (a function's arguments in its entry block).
    pub arguments: Vec<ValueId>,
    /// The ops, in execution order.
    pub ops: Vec<Op>,
}

/// How BEF runs a function (`format::FunctionKind` mirrors it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FuncKind {
    /// Asynchronous dataflow.
    Bef,
    /// `attributes {tfrt.sync}`: run sequentially.
    Sync,
    /// `attributes {tfrt.native}`: declared, resolved by name at run time.
    Native,
}

/// Name of the module op.
pub const MODULE_OP: &str = "builtin.module";
/// Name of the function op.
pub const FUNC_OP: &str = "func.func";

impl Op {
    /// An op named `name` with nothing else set.
    pub fn new(name: impl Into<String>, location: Location) -> Op {
        Op {
            name: name.into(),
            location,
            ..Op::default()
        }
    }

    /// An attribute from the dictionary, or else from the properties.
    /// Inlined for its fast path: most ops have no attributes at all.
    #[inline]
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        if self.attributes.is_empty() && self.properties.is_none() {
            return None;
        }
        self.attribute_in_dictionaries(name)
    }

    fn attribute_in_dictionaries(&self, name: &str) -> Option<&Attribute> {
        find_attribute(&self.attributes, name).or_else(|| match self.properties.as_deref() {
            Some(Attribute::Dictionary(entries)) => find_attribute(entries, name),
            _ => None,
        })
    }

    /// Dictionary and properties merged, sorted by name: what MLIR's
    /// `getAttrs()` gives the BEF encoder. Allocates nothing.
    pub fn all_attributes(&self) -> impl Iterator<Item = &NamedAttribute> + '_ {
        let properties: &[NamedAttribute] = match self.properties.as_deref() {
            Some(Attribute::Dictionary(entries)) => entries,
            _ => &[],
        };
        let mut a = self.attributes.iter().peekable();
        let mut b = properties.iter().peekable();
        std::iter::from_fn(move || match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if y.0 < x.0 => b.next(),
            (Some(_), _) => a.next(),
            (None, _) => b.next(),
        })
    }

    /// Sets attribute `name` in the dictionary, replacing any old value.
    pub fn set_attribute(&mut self, name: &str, value: Attribute) {
        set_attribute(&mut self.attributes, name, value);
    }

    /// Adds `base` to the id of every value defined or used inside the
    /// op's regions (not its own operands and results): for moving IR
    /// built against one value arena behind another's values.
    pub fn shift_nested_value_ids(&mut self, base: u32) {
        let shift = |v: &mut ValueId| v.0 += base;
        let mut regions: Vec<&mut Region> = self.regions.iter_mut().collect();
        while let Some(region) = regions.pop() {
            for block in &mut region.blocks {
                block.arguments.iter_mut().for_each(shift);
                for op in &mut block.ops {
                    op.operands.iter_mut().for_each(shift);
                    op.results.iter_mut().for_each(shift);
                    regions.extend(op.regions.iter_mut());
                }
            }
        }
    }

    /// The dialect prefix of the name (`tfrt` for `tfrt.add.i32`).
    pub fn dialect(&self) -> &str {
        self.name.split_once('.').map_or(&self.name, |(d, _)| d)
    }
}

impl Region {
    /// The region's only block, if it has exactly one.
    pub fn single_block(&self) -> Option<&Block> {
        match self.blocks.as_slice() {
            [block] => Some(block),
            _ => None,
        }
    }
}

/// A view of a `func.func` op as a host-program function.
#[derive(Debug, Clone, Copy)]
pub struct Func<'a> {
    /// The `func.func` op.
    pub op: &'a Op,
}

impl<'a> Func<'a> {
    /// Views `op` as a function when it is a `func.func` (or the older
    /// `func`) with a name and a function type.
    pub fn new(op: &'a Op) -> Option<Func<'a>> {
        let is_func = op.name == FUNC_OP || op.name == "func";
        let func = Func { op };
        (is_func && func.sym_name().is_some() && func.function_type().is_some()).then_some(func)
    }

    /// The `sym_name` attribute: the function's name, if it is a UTF-8 string.
    pub fn sym_name(&self) -> Option<&'a str> {
        match self.op.attribute("sym_name")? {
            Attribute::String { value, .. } => std::str::from_utf8(value).ok(),
            _ => None,
        }
    }

    /// The function's name, or `""` when it has none.
    pub fn name(&self) -> &'a str {
        self.sym_name().unwrap_or_default()
    }

    /// `(inputs, results)` of the `function_type` attribute.
    pub fn function_type(&self) -> Option<(&'a [Type], &'a [Type])> {
        match self.op.attribute("function_type")? {
            Attribute::Type(Type::Function { inputs, results }) => Some((inputs, results)),
            _ => None,
        }
    }

    /// Argument types.
    pub fn inputs(&self) -> &'a [Type] {
        self.function_type().map_or(&[], |(inputs, _)| inputs)
    }

    /// Result types.
    pub fn results(&self) -> &'a [Type] {
        self.function_type().map_or(&[], |(_, results)| results)
    }

    /// How BEF runs the function, from its `tfrt.native` / `tfrt.sync` attributes.
    pub fn kind(&self) -> FuncKind {
        if self.op.attribute("tfrt.native").is_some() {
            FuncKind::Native
        } else if self.op.attribute("tfrt.sync").is_some() {
            FuncKind::Sync
        } else {
            FuncKind::Bef
        }
    }

    /// The body region, `None` for a declaration (`func.func private @f(i32)`).
    pub fn body(&self) -> Option<&'a Region> {
        self.op.regions.first().filter(|r| !r.blocks.is_empty())
    }

    /// Whether `sym_visibility` is `"private"`.
    pub fn is_private(&self) -> bool {
        matches!(
            self.op.attribute("sym_visibility"),
            Some(Attribute::String { value, .. }) if value == b"private"
        )
    }
}

impl Module {
    /// An empty module: `builtin.module` with one empty block.
    pub fn new(location: Location) -> Module {
        let mut op = Op::new(MODULE_OP, location);
        op.regions.push(Region {
            blocks: vec![Block::default()],
        });
        Module {
            op,
            values: Vec::new(),
            resources: Vec::new(),
            origin: None,
        }
    }

    /// The block holding the module's ops.
    pub fn body(&self) -> &Block {
        &self.op.regions[0].blocks[0]
    }

    /// The block holding the module's ops, mutably.
    pub fn body_mut(&mut self) -> &mut Block {
        &mut self.op.regions[0].blocks[0]
    }

    /// The module's `func.func` ops, in order.
    pub fn functions(&self) -> impl Iterator<Item = Func<'_>> {
        self.body().ops.iter().filter_map(Func::new)
    }

    /// Adds a value to the arena; the caller makes an op or block define it.
    pub fn new_value(&mut self, ty: Type, location: Option<Location>) -> ValueId {
        let id = ValueId(u32::try_from(self.values.len()).expect("fewer than 2^32 values"));
        self.values.push(ValueData {
            ty,
            location: location.map(Box::new),
            use_list_order: None,
        });
        id
    }

    /// The type of `value`.
    pub fn value_type(&self, value: ValueId) -> &Type {
        &self.values[value.index()].ty
    }

    /// Forgets every location (ops and block arguments): what a module
    /// printed without `--print-debuginfo` and parsed back can be compared
    /// with.
    pub fn strip_locations(&mut self) {
        let mut stack = vec![&mut self.op];
        while let Some(op) = stack.pop() {
            op.location = Location::Unknown;
            for region in &mut op.regions {
                for block in &mut region.blocks {
                    stack.extend(block.ops.iter_mut());
                }
            }
        }
        for value in &mut self.values {
            value.location = None;
        }
    }

    /// Renumbers values in canonical order (see the module comment) and
    /// drops values no block or op defines.
    pub fn renumber_values(&mut self) {
        let mut order: Vec<ValueId> = Vec::with_capacity(self.values.len());
        visit_definitions(&self.op, &mut order);
        // Already canonical: nothing to rename.
        if order.len() == self.values.len() && order.iter().enumerate().all(|(i, v)| v.index() == i)
        {
            return;
        }
        let mut new_id = vec![u32::MAX; self.values.len()];
        let mut defined_once = true;
        for (new, old) in order.iter().enumerate() {
            defined_once &= new_id[old.index()] == u32::MAX;
            new_id[old.index()] = new as u32;
        }
        rename_op(&mut self.op, &new_id);
        if !defined_once {
            // A value defined twice keeps one copy per definition.
            self.values = order
                .iter()
                .map(|old| self.values[old.index()].clone())
                .collect();
            return;
        }
        // Move the values in place: values nobody defines take the ids
        // after the defined ones and are cut off.
        let undefined = new_id.iter_mut().filter(|id| **id == u32::MAX);
        for (next, id) in (order.len() as u32..).zip(undefined) {
            *id = next;
        }
        for i in 0..new_id.len() {
            while new_id[i] as usize != i {
                let j = new_id[i] as usize;
                self.values.swap(i, j);
                new_id.swap(i, j);
            }
        }
        self.values.truncate(order.len());
    }
}

/// Definitions in canonical order, iteratively (nesting depth is untrusted).
fn visit_definitions(root: &Op, order: &mut Vec<ValueId>) {
    enum Item<'a> {
        Op(&'a Op),
        Block(&'a Block),
    }
    let mut stack = vec![Item::Op(root)];
    while let Some(item) = stack.pop() {
        match item {
            Item::Op(op) => {
                order.extend_from_slice(&op.results);
                for region in op.regions.iter().rev() {
                    for block in region.blocks.iter().rev() {
                        stack.push(Item::Block(block));
                    }
                }
            }
            Item::Block(block) => {
                order.extend_from_slice(&block.arguments);
                for op in block.ops.iter().rev() {
                    stack.push(Item::Op(op));
                }
            }
        }
    }
}

fn rename_op(root: &mut Op, new_id: &[u32]) {
    let rename = |v: &mut ValueId| {
        let n = new_id[v.index()];
        debug_assert!(n != u32::MAX, "use of a value nobody defines");
        *v = ValueId(n);
    };
    let mut stack: Vec<&mut Op> = vec![root];
    while let Some(op) = stack.pop() {
        op.operands.iter_mut().for_each(rename);
        op.results.iter_mut().for_each(rename);
        for region in &mut op.regions {
            for block in &mut region.blocks {
                block.arguments.iter_mut().for_each(rename);
                stack.extend(block.ops.iter_mut());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A large module holds a `ValueData` per op result: a location held
    /// inline again would add 32 bytes to each.
    #[test]
    fn value_data_keeps_its_location_out_of_line() {
        assert!(
            std::mem::size_of::<ValueData>()
                <= std::mem::size_of::<Type>() + 3 * std::mem::size_of::<usize>(),
            "ValueData is {} bytes",
            std::mem::size_of::<ValueData>()
        );
    }

    #[test]
    fn renumbering_follows_definition_order() {
        let mut module = Module::new(Location::Unknown);
        // Define values out of order on purpose.
        let late = module.new_value(Type::i(32), None);
        let arg = module.new_value(Type::i(32), None);
        let mut func = Op::new(FUNC_OP, Location::Unknown);
        func.set_attribute("sym_name", Attribute::string("f"));
        func.set_attribute(
            "function_type",
            Attribute::Type(Type::Function {
                inputs: vec![Type::i(32)],
                results: vec![Type::i(32)],
            }),
        );
        let mut add = Op::new("tfrt.add.i32", Location::Unknown);
        add.operands = vec![arg, arg];
        add.results = vec![late];
        let mut ret = Op::new("tfrt.return", Location::Unknown);
        ret.operands = vec![late];
        func.regions.push(Region {
            blocks: vec![Block {
                arguments: vec![arg],
                ops: vec![add, ret],
            }],
        });
        module.body_mut().ops.push(func);
        module.renumber_values();
        let func = module.functions().next().unwrap();
        let block = func.body().unwrap().single_block().unwrap();
        assert_eq!(block.arguments, vec![ValueId(0)]);
        assert_eq!(block.ops[0].results, vec![ValueId(1)]);
        assert_eq!(block.ops[1].operands, vec![ValueId(1)]);
        assert_eq!(func.name(), "f");
        assert_eq!(func.kind(), FuncKind::Bef);
        assert_eq!(func.inputs(), &[Type::i(32)]);
    }
}
