//! The IR section: ops, regions and blocks, decoded with an explicit stack
//! of region frames (nesting depth is untrusted), value ids resolved per
//! value scope (isolated regions open a new one) with forward references,
//! properties decoded through the op table, use-list orders restored.

use super::super::encoding::Reader;
use super::super::error::{BytecodeError, Result};
use super::super::{ops, section};
use super::{MAX_NESTING, Structure};
use crate::ir::{
    Attribute, Block, Location, Module, NamedAttribute, Op, Region, Type, ValueData, ValueId,
};

const HAS_ATTRS: u8 = 0x01;
const HAS_RESULTS: u8 = 0x02;
const HAS_OPERANDS: u8 = 0x04;
const HAS_SUCCESSORS: u8 = 0x08;
const HAS_REGIONS: u8 = 0x10;
const HAS_USE_LIST_ORDERS: u8 = 0x20;
const HAS_PROPERTIES: u8 = 0x40;

const UNSET: u32 = u32::MAX;

struct RegionState {
    blocks: Vec<Block>,
    current: usize,
    ops_left: usize,
    /// First value id of this region in the scope, next id to define, end.
    base: usize,
    next: usize,
    end: usize,
}

struct Frame {
    op: Op,
    num_regions: usize,
    isolated: bool,
    owns_reader: bool,
    region: Option<RegionState>,
}

/// A use-list order as read, resolved once every use is known.
struct PendingOrder {
    value: ValueId,
    indices: Vec<u32>,
    pairs: bool,
    offset: usize,
}

/// An isolated op whose regions were left undecoded (`read_lazy`): its
/// position as (region, block, op) triples below the decoding root, and
/// the nested IR section holding its regions.
pub(super) struct Deferred<'a> {
    pub path: Vec<usize>,
    pub data: Reader<'a>,
    pub num_regions: usize,
    /// Frames above it, so the nesting limit holds across loads.
    pub depth: usize,
}

/// What the reader needs of an op name, resolved once per file (see
/// [`Structure::op_kinds`]).
#[derive(Debug, Clone)]
pub(super) struct OpKind {
    pub full_name: String,
    pub registered: bool,
    pub definition: Option<&'static ops::OpDefinition>,
    /// The attributes of `definition` in the order its properties encode
    /// them, as (name, optional): before version 6 segment sizes are
    /// ordinary required attributes, all in name order.
    pub fields: Box<[(&'static str, bool)]>,
}

pub(super) fn op_kinds(
    names: &[super::OpName<'_>],
    dialects: &[&str],
    version: u64,
) -> Vec<OpKind> {
    names
        .iter()
        .map(|name| {
            let full_name = name.full_name(dialects);
            let definition = ops::lookup(&full_name);
            let fields = definition.map_or_else(Default::default, |def| {
                let attributes = def.attributes.iter().map(|a| (a.name, a.optional));
                if version < 6 {
                    let mut fields: Vec<_> = attributes
                        .chain(def.segments.iter().map(|s| (s.name, false)))
                        .collect();
                    fields.sort_by(|a, b| a.0.cmp(b.0));
                    fields.into()
                } else {
                    attributes.collect()
                }
            });
            OpKind {
                registered: name.registered,
                definition,
                full_name,
                fields,
            }
        })
        .collect()
}

struct IrReader<'s, 'a> {
    s: &'s mut Structure<'a>,
    /// Defer isolated regions below the root instead of decoding them.
    lazy: bool,
    deferred: Vec<Deferred<'a>>,
    /// `frames[0]` is a stand-in holding the root op (whole-file reads);
    /// otherwise it is the op whose regions are being decoded.
    pseudo_root: bool,
    /// Nesting depth of `frames[0]` in the whole IR.
    base_depth: usize,
    values: Vec<ValueData>,
    /// Values before this id were defined before this reader started (a
    /// deferred region reads into the module's values); `defined` covers
    /// the ones from here on.
    first_value: usize,
    defined: Vec<bool>,
    /// Per value scope: local id → module value (`UNSET` when unused yet).
    scopes: Vec<Vec<u32>>,
    readers: Vec<Reader<'a>>,
    frames: Vec<Frame>,
    orders: Vec<PendingOrder>,
    /// Every value so far was created by its definition, in decoding
    /// order, before any region was deferred: then the values are in
    /// canonical order (decoding order is the order `renumber_values`
    /// walks) and need no renumbering.
    in_order: bool,
}

pub(super) fn read_ir(s: &mut Structure<'_>) -> Result<Module> {
    let (module, deferred, _) = read_ir_with(s, false)?;
    debug_assert!(deferred.is_empty());
    Ok(module)
}

/// Reads the IR section; with `lazy`, isolated regions below the root op
/// are returned undecoded (paths relative to `Module::op`). The flag says
/// whether the values were already in canonical order, so that values
/// of deferred regions appended in file order keep it.
pub(super) fn read_ir_with<'a>(
    s: &mut Structure<'a>,
    lazy: bool,
) -> Result<(Module, Vec<Deferred<'a>>, bool)> {
    let ir = s.ir;
    let mut r = IrReader::new(s, lazy, ir, Vec::new());
    let root = r.run()?;
    let in_order = r.in_order;
    let (values, orders, mut deferred) = (r.values, r.orders, r.deferred);
    let (mut module, wrapped) = wrap_root(root, values);
    resolve_use_list_orders(&module.op, &mut module.values, orders)?;
    if wrapped {
        // The root op is op 0 of block 0 of the wrapper's region 0.
        for d in &mut deferred {
            d.path.splice(0..0, [0, 0, 0]);
        }
    }
    if !in_order {
        module.renumber_values();
    }
    debug_assert!(is_canonical(&module));
    Ok((module, deferred, in_order))
}

/// Whether renumbering would leave `module` as it is.
pub(super) fn is_canonical(module: &Module) -> bool {
    let mut renumbered = module.clone();
    renumbered.renumber_values();
    renumbered == *module
}

/// Decodes the regions of `op` (deferred by `read_ir_with`) from `data`,
/// adding their values to `values`. With `lazy`, isolated ops inside are
/// deferred in turn (paths relative to `op`). The flag says whether the
/// values were added in canonical order (see `IrReader::in_order`).
pub(super) fn read_deferred<'a>(
    s: &mut Structure<'a>,
    op: Op,
    deferred: &Deferred<'a>,
    values: &mut Vec<ValueData>,
    lazy: bool,
) -> Result<(Op, Vec<Deferred<'a>>, bool)> {
    let mut r = IrReader::new(s, lazy, deferred.data, std::mem::take(values));
    r.pseudo_root = false;
    r.base_depth = deferred.depth;
    r.frames.push(Frame {
        op,
        num_regions: deferred.num_regions,
        isolated: true,
        owns_reader: true,
        region: None,
    });
    let result = r.drive();
    *values = r.values;
    let op = result?;
    // Values of an isolated region are used only inside it.
    resolve_use_list_orders(&op, values, r.orders)?;
    Ok((op, r.deferred, r.in_order))
}

/// A `builtin.module` with one block is the module; anything else is
/// wrapped in one, as MLIR's parser does (the flag says which).
fn wrap_root(root: Op, values: Vec<ValueData>) -> (Module, bool) {
    let is_module = root.name == crate::ir::MODULE_OP
        && root.regions.len() == 1
        && root.regions[0].blocks.len() == 1;
    if is_module {
        let module = Module {
            op: root,
            values,
            resources: Vec::new(),
            origin: None,
        };
        return (module, false);
    }
    let mut module = Module::new(Location::Unknown);
    module.values = values;
    module.body_mut().ops.push(root);
    (module, true)
}

impl<'s, 'a> IrReader<'s, 'a> {
    /// A reader of `data` whose new values follow `values` (all defined).
    fn new(
        s: &'s mut Structure<'a>,
        lazy: bool,
        data: Reader<'a>,
        values: Vec<ValueData>,
    ) -> IrReader<'s, 'a> {
        IrReader {
            s,
            lazy,
            deferred: Vec::new(),
            pseudo_root: true,
            base_depth: 0,
            first_value: values.len(),
            values,
            defined: Vec::new(),
            scopes: vec![Vec::new()],
            readers: vec![data],
            frames: Vec::new(),
            orders: Vec::new(),
            in_order: true,
        }
    }

    fn mark_defined(&mut self, id: u32) {
        if let Some(i) = (id as usize).checked_sub(self.first_value) {
            self.defined[i] = true;
        }
    }

    fn reader(&mut self) -> &mut Reader<'a> {
        self.readers.last_mut().expect("a reader is always open")
    }

    fn run(&mut self) -> Result<Op> {
        // The section is one block without arguments holding the root op.
        let at = self.reader().offset();
        let (num_ops, has_args) = self.reader().varint_with_flag()?;
        if has_args || num_ops != 1 {
            return Err(BytecodeError::new(
                at,
                format!(
                    "the IR section must hold exactly one op without block arguments, found {num_ops} ops"
                ),
            ));
        }
        self.frames.push(Frame {
            op: Op::default(),
            num_regions: 1,
            isolated: true,
            owns_reader: false,
            region: Some(RegionState {
                blocks: vec![Block::default()],
                current: 0,
                ops_left: 1,
                base: 0,
                next: 0,
                end: 0,
            }),
        });
        self.drive()
    }

    /// Runs the frame stack until `frames[0]` completes.
    fn drive(&mut self) -> Result<Op> {
        loop {
            let top = self.frames.len() - 1;
            if let Some(rs) = &mut self.frames[top].region {
                if rs.ops_left > 0 {
                    rs.ops_left -= 1;
                    self.read_op()?;
                    continue;
                }
                rs.current += 1;
                if rs.current < rs.blocks.len() {
                    let current = rs.current;
                    self.read_block_header(current)?;
                    continue;
                }
                let rs = self.frames[top].region.take().expect("checked");
                self.close_region(&rs)?;
                self.frames[top]
                    .op
                    .regions
                    .push(Region { blocks: rs.blocks });
                continue;
            }
            if self.frames[top].op.regions.len() < self.frames[top].num_regions {
                self.open_region(top)?;
                continue;
            }
            let frame = self.frames.pop().expect("top frame");
            if frame.owns_reader {
                let r = self.readers.pop().expect("owned reader");
                if !r.is_empty() {
                    return Err(r.error("unexpected trailing data in a nested IR section"));
                }
            }
            if frame.isolated {
                self.scopes.pop();
            }
            match self.frames.last_mut() {
                Some(parent) => {
                    let rs = parent.region.as_mut().expect("parent reads a region");
                    rs.blocks[rs.current].ops.push(frame.op);
                }
                None if !self.pseudo_root => return Ok(frame.op),
                None => {
                    let r = self.reader();
                    if !r.is_empty() {
                        return Err(r.error("unexpected trailing data in the IR section"));
                    }
                    let mut pseudo = frame.op;
                    let block = pseudo.regions.pop().and_then(|mut r| r.blocks.pop());
                    return Ok(block
                        .and_then(|mut b| b.ops.pop())
                        .expect("the root block holds one op"));
                }
            }
        }
    }

    fn open_region(&mut self, top: usize) -> Result<()> {
        let num_blocks = self.reader().count(1, "block")?;
        if num_blocks == 0 {
            self.frames[top].op.regions.push(Region::default());
            return Ok(());
        }
        let num_values = self.reader().count(1, "value")?;
        // `count` bounded it by the remaining bytes; reserve at most one
        // value per 8 of them, as real values take several bytes each.
        let reserve = num_values.min(self.reader().remaining() / 8);
        self.values.reserve(reserve);
        self.defined.reserve(reserve);
        let scope = self.scopes.last_mut().expect("a scope is open");
        let base = scope.len();
        scope.resize(base + num_values, UNSET);
        self.frames[top].region = Some(RegionState {
            blocks: vec![Block::default(); num_blocks],
            current: 0,
            ops_left: 0,
            base,
            next: base,
            end: base + num_values,
        });
        self.read_block_header(0)
    }

    /// Every value used in the region must have been defined by now.
    fn close_region(&mut self, rs: &RegionState) -> Result<()> {
        let at = self.reader().offset();
        let scope = self.scopes.last_mut().expect("a scope is open");
        for (local, &id) in scope[rs.base..].iter().enumerate() {
            if id != UNSET && !is_defined(self.first_value, &self.defined, id) {
                return Err(BytecodeError::new(
                    at,
                    format!("value {} is used but never defined", rs.base + local),
                ));
            }
        }
        scope.truncate(rs.base);
        Ok(())
    }

    fn region_state(&mut self) -> &mut RegionState {
        self.frames
            .last_mut()
            .and_then(|f| f.region.as_mut())
            .expect("reading inside a region")
    }

    fn define(&mut self, ty: Type, location: Option<Location>, at: usize) -> Result<ValueId> {
        let rs = self.region_state();
        if rs.next >= rs.end {
            return Err(BytecodeError::new(
                at,
                "more values defined than the region declares",
            ));
        }
        let local = rs.next;
        rs.next += 1;
        let scope = self.scopes.last_mut().expect("a scope is open");
        let existing = scope[local];
        if existing != UNSET {
            let data = &mut self.values[existing as usize];
            data.ty = ty;
            data.location = location.map(Box::new);
            self.mark_defined(existing);
            return Ok(ValueId(existing));
        }
        let id = self.new_value(ty, location, at)?;
        self.scopes.last_mut().expect("scope")[local] = id.0;
        self.mark_defined(id.0);
        Ok(id)
    }

    fn new_value(&mut self, ty: Type, location: Option<Location>, at: usize) -> Result<ValueId> {
        let id = u32::try_from(self.values.len())
            .ok()
            .filter(|&id| id != UNSET)
            .ok_or_else(|| BytecodeError::new(at, "too many values"))?;
        self.in_order &= self.deferred.is_empty();
        self.values.push(ValueData {
            ty,
            location: location.map(Box::new),
            use_list_order: None,
        });
        self.defined.push(false);
        Ok(ValueId(id))
    }

    fn use_value(&mut self, at: usize) -> Result<ValueId> {
        let local = self.reader().index()?;
        let scope = self.scopes.last().expect("a scope is open");
        let Some(&existing) = scope.get(local) else {
            return Err(BytecodeError::new(
                at,
                format!("invalid value index {local} (scope has {})", scope.len()),
            ));
        };
        if existing != UNSET {
            return Ok(ValueId(existing));
        }
        // A forward reference: a placeholder the definition fills in.
        self.in_order = false;
        let id = self.new_value(Type::None, None, at)?;
        self.scopes.last_mut().expect("scope")[local] = id.0;
        Ok(id)
    }

    fn location(&mut self) -> Result<Location> {
        let at = self.reader().offset();
        let index = self.reader().varint()?;
        self.s.table.location(index, at)
    }

    fn type_(&mut self) -> Result<Type> {
        let at = self.reader().offset();
        let index = self.reader().varint()?;
        self.s.table.type_(index, at)
    }

    fn read_block_header(&mut self, block: usize) -> Result<()> {
        let (num_ops, has_args) = self.reader().varint_with_flag()?;
        let at = self.reader().offset();
        let num_ops = usize::try_from(num_ops)
            .ok()
            .filter(|&n| n <= self.reader().remaining())
            .ok_or_else(|| {
                BytecodeError::new(at, format!("op count {num_ops} exceeds the data"))
            })?;
        // Real ops take several bytes each (name, mask, location); a
        // hostile count reserves at most one op per 8 bytes left.
        let reserve = num_ops.min(self.reader().remaining() / 8);
        let rs = self.region_state();
        rs.ops_left = num_ops;
        rs.blocks[block].ops.reserve_exact(reserve);
        if !has_args {
            return Ok(());
        }
        let version = self.s.version;
        let num_args = self.reader().count(1, "block argument")?;
        let mut args = Vec::with_capacity(num_args);
        for _ in 0..num_args {
            let at = self.reader().offset();
            let (ty, location) = if version >= 4 {
                let (type_index, has_loc) = self.reader().varint_with_flag()?;
                let ty = self.s.table.type_(type_index, at)?;
                let loc = if has_loc {
                    self.location()?
                } else {
                    Location::Unknown
                };
                (ty, loc)
            } else {
                let ty = self.type_()?;
                (ty, self.location()?)
            };
            args.push(self.define(ty, Some(location), at)?);
        }
        if version >= 3 {
            let flag = self.reader().byte()?;
            if flag != 0 {
                self.read_use_list_orders(&args)?;
            }
        }
        self.region_state().blocks[block].arguments = args;
        Ok(())
    }

    fn read_use_list_orders(&mut self, values: &[ValueId]) -> Result<()> {
        let multiple = values.len() > 1;
        let count = if multiple {
            self.reader().count(2, "use-list order")?
        } else {
            1
        };
        for _ in 0..count {
            let at = self.reader().offset();
            let index = if multiple { self.reader().index()? } else { 0 };
            let Some(&value) = values.get(index) else {
                return Err(BytecodeError::new(
                    at,
                    format!("use-list order for value {index} of {}", values.len()),
                ));
            };
            let (n, pairs) = self.reader().varint_with_flag()?;
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n <= self.reader().remaining())
                .ok_or_else(|| BytecodeError::new(at, "use-list order longer than the data"))?;
            if pairs && n % 2 != 0 {
                return Err(BytecodeError::new(at, "odd number of use-list index pairs"));
            }
            let mut indices = Vec::with_capacity(n);
            for _ in 0..n {
                let at = self.reader().offset();
                let v = self.reader().varint()?;
                indices.push(
                    u32::try_from(v)
                        .map_err(|_| BytecodeError::new(at, "use index out of range"))?,
                );
            }
            self.orders.push(PendingOrder {
                value,
                indices,
                pairs,
                offset: at,
            });
        }
        Ok(())
    }

    /// Reads one op into the current block, or, when it has regions to
    /// read, into a new frame. (Nothing as large as an op is returned:
    /// each move of one is a copy.)
    fn read_op(&mut self) -> Result<()> {
        let op_at = self.reader().offset();
        let name_index = self.reader().index()?;
        let Some(kind) = self.s.op_kinds.get(name_index) else {
            return Err(BytecodeError::new(
                op_at,
                format!("invalid op name index {name_index}"),
            ));
        };
        let name = kind.full_name.clone();
        let mask_at = self.reader().offset();
        let mask = self.reader().byte()?;
        let version = self.s.version;
        let allowed = if version >= 5 { 0x7F } else { 0x3F };
        if mask & !allowed != 0 || (version < 3 && mask & HAS_USE_LIST_ORDERS != 0) {
            return Err(BytecodeError::new(
                mask_at,
                format!("invalid op encoding mask {mask:#04x}"),
            ));
        }
        let mut op = Op::new(name, self.location()?);
        if mask & HAS_ATTRS != 0 {
            let at = self.reader().offset();
            let index = self.reader().varint()?;
            match self.s.table.attribute_ref(index, at)? {
                Attribute::Dictionary(entries) => op.attributes = entries.clone(),
                _ => return Err(BytecodeError::new(at, "op attributes must be a dictionary")),
            }
        }
        if mask & HAS_PROPERTIES != 0 {
            let at = self.reader().offset();
            let index = self.reader().index()?;
            let Some(&(blob_at, blob)) = self.s.properties.get(index) else {
                return Err(BytecodeError::new(
                    at,
                    format!("invalid properties index {index}"),
                ));
            };
            decode_properties(self.s, &mut op, name_index, blob_at, blob)?;
        } else if version < 5 {
            // Before version 5 inherent attributes sit in the dictionary.
            ops::split_inherent_attributes(&mut op);
        }
        if mask & HAS_RESULTS != 0 {
            let n = self.reader().count(1, "result")?;
            let at = self.reader().offset();
            let mut results = Vec::with_capacity(n);
            for _ in 0..n {
                let ty = self.type_()?;
                results.push(self.define(ty, None, at)?);
            }
            op.results = results;
        }
        if mask & HAS_OPERANDS != 0 {
            let n = self.reader().count(1, "operand")?;
            let mut operands = Vec::with_capacity(n);
            for _ in 0..n {
                let at = self.reader().offset();
                operands.push(self.use_value(at)?);
            }
            op.operands = operands;
        }
        if mask & HAS_SUCCESSORS != 0 {
            let n = self.reader().count(1, "successor")?;
            let num_blocks = self.region_state().blocks.len();
            let mut successors = Vec::with_capacity(n);
            for _ in 0..n {
                let at = self.reader().offset();
                let b = self.reader().index()?;
                if b >= num_blocks {
                    return Err(BytecodeError::new(
                        at,
                        format!("invalid successor block {b} of {num_blocks}"),
                    ));
                }
                successors.push(b as u32);
            }
            op.successors = successors;
        }
        if mask & HAS_USE_LIST_ORDERS != 0 {
            let results = op.results.clone();
            self.read_use_list_orders(&results)?;
        }
        if mask & HAS_REGIONS == 0 {
            let rs = self.region_state();
            rs.blocks[rs.current].ops.push(op);
            return Ok(());
        }
        let at = self.reader().offset();
        let (num_regions, isolated) = self.reader().varint_with_flag()?;
        let num_regions = usize::try_from(num_regions)
            .ok()
            .filter(|&n| n <= self.reader().remaining() + 1)
            .ok_or_else(|| BytecodeError::new(at, "region count exceeds the data"))?;
        let mut owns_reader = false;
        if isolated && version >= 2 {
            let section_at = self.reader().offset();
            let (id, data) = self.reader().section()?;
            if id != section::IR {
                return Err(BytecodeError::new(
                    section_at,
                    format!("expected a nested IR section, found section {id}"),
                ));
            }
            // Below the root, a lazy read keeps the section for later.
            if self.lazy && self.frames.len() > usize::from(self.pseudo_root) {
                let path = self.next_op_path();
                self.deferred.push(Deferred {
                    path,
                    depth: self.base_depth + self.frames.len(),
                    data,
                    num_regions,
                });
                let rs = self.region_state();
                rs.blocks[rs.current].ops.push(op);
                return Ok(());
            }
            self.readers.push(data);
            owns_reader = true;
        }
        if isolated {
            self.scopes.push(Vec::new());
        }
        if self.base_depth + self.frames.len() >= MAX_NESTING {
            return Err(self
                .reader()
                .error(format!("regions nested deeper than {MAX_NESTING}")));
        }
        self.frames.push(Frame {
            op,
            num_regions,
            isolated,
            owns_reader,
            region: None,
        });
        Ok(())
    }

    /// Where the op about to be pushed into the current block will sit, as
    /// (region, block, op) triples from the decoding root.
    fn next_op_path(&self) -> Vec<usize> {
        let first = usize::from(self.pseudo_root);
        let mut path = Vec::with_capacity(3 * (self.frames.len() - first));
        for frame in &self.frames[first..] {
            let rs = frame
                .region
                .as_ref()
                .expect("frames below the top read a region");
            path.extend([
                frame.op.regions.len(),
                rs.current,
                rs.blocks[rs.current].ops.len(),
            ]);
        }
        path
    }
}

/// Decodes the properties blob of `op` (op name `kind` of `s`).
fn decode_properties<'a>(
    s: &mut Structure<'a>,
    op: &mut Op,
    kind: usize,
    at: usize,
    blob: &'a [u8],
) -> Result<()> {
    let mut r = Reader::new(blob, at);
    let kind = &s.op_kinds[kind];
    if !kind.registered {
        // An unregistered op stores its properties as one dictionary.
        let index_at = r.offset();
        let attr = s.table.attribute(r.varint()?, index_at)?;
        if !matches!(attr, Attribute::Dictionary(_)) {
            return Err(BytecodeError::new(
                index_at,
                "properties of an unregistered op must be a dictionary",
            ));
        }
        if !r.is_empty() {
            return Err(r.error("unexpected trailing data in properties"));
        }
        op.properties = Some(Box::new(attr));
        return Ok(());
    }
    let Some(def) = kind.definition else {
        op.opaque_properties = Some(blob.into());
        return Ok(());
    };
    let version = s.version;
    let mut entries: Vec<NamedAttribute> =
        Vec::with_capacity(kind.fields.len() + def.segments.len());
    for &(name, optional) in kind.fields.iter() {
        let field_at = r.offset();
        let v = r.varint()?;
        let index = if optional {
            if v == 0 {
                continue;
            }
            if v & 1 == 0 {
                return Err(BytecodeError::new(
                    field_at,
                    format!("invalid optional attribute encoding for '{name}'"),
                ));
            }
            v >> 1
        } else {
            v
        };
        entries.push((name.to_string(), s.table.attribute(index, field_at)?));
    }
    if version >= 6 {
        for seg in def.segments {
            let sizes = read_segment_sizes(&mut r, seg.len)?;
            let data = sizes.iter().flat_map(|v| v.to_le_bytes()).collect();
            entries.push((
                seg.name.to_string(),
                Attribute::DenseArray {
                    element: Type::i(32),
                    data,
                },
            ));
        }
    }
    if !r.is_empty() {
        return Err(r.error(format!(
            "unexpected trailing data in the properties of {}",
            op.name
        )));
    }
    // Already in name order unless segments were appended.
    if !entries.is_sorted_by(|a, b| a.0 <= b.0) {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
    }
    if !entries.is_empty() {
        op.properties = Some(Box::new(Attribute::Dictionary(entries)));
    }
    Ok(())
}

/// A fixed-length i32 array written natively (version 6): dense
/// `(len << 1)` then the values, or sparse `(nonzero << 1) | 1`, the index
/// bit width, then `(value << width) | index` per non-zero element.
fn read_segment_sizes(r: &mut Reader<'_>, len: usize) -> Result<Vec<i32>> {
    let at = r.offset();
    let (n, sparse) = r.varint_with_flag()?;
    let mut out = vec![0i32; len];
    let value_i32 = |v: u64, at: usize| {
        i32::try_from(v)
            .map_err(|_| BytecodeError::new(at, format!("segment size {v} out of range")))
    };
    if !sparse {
        if n != len as u64 {
            return Err(BytecodeError::new(
                at,
                format!("{n} segment sizes, expected {len}"),
            ));
        }
        for slot in out.iter_mut() {
            let at = r.offset();
            *slot = value_i32(r.varint()?, at)?;
        }
        return Ok(out);
    }
    if n > len as u64 {
        return Err(BytecodeError::new(
            at,
            format!("{n} non-zero segment sizes of {len}"),
        ));
    }
    let width_at = r.offset();
    let width = r.varint()?;
    if width > 32 {
        return Err(BytecodeError::new(
            width_at,
            format!("segment index width {width}"),
        ));
    }
    for _ in 0..n {
        let at = r.offset();
        let v = r.varint()?;
        let index = (v & ((1u64 << width) - 1)) as usize;
        if index >= len {
            return Err(BytecodeError::new(
                at,
                format!("segment index {index} of {len}"),
            ));
        }
        out[index] = value_i32(v >> width, at)?;
    }
    Ok(out)
}

/// Whether value `id` is defined: every value before `first_value` is;
/// `defined` tells for the later ones.
fn is_defined(first_value: usize, defined: &[bool], id: u32) -> bool {
    (id as usize)
        .checked_sub(first_value)
        .is_none_or(|i| defined[i])
}

/// Counts each value's uses and turns the recorded orders into full
/// permutations.
fn resolve_use_list_orders(
    root: &Op,
    values: &mut [ValueData],
    orders: Vec<PendingOrder>,
) -> Result<()> {
    if orders.is_empty() {
        return Ok(());
    }
    let mut uses = vec![0u32; values.len()];
    let mut stack = vec![root];
    while let Some(op) = stack.pop() {
        for v in &op.operands {
            uses[v.index()] += 1;
        }
        for region in &op.regions {
            for block in &region.blocks {
                stack.extend(block.ops.iter());
            }
        }
    }
    for order in orders {
        let n = uses[order.value.index()] as usize;
        let perm: Vec<u32> = if order.pairs {
            let mut perm: Vec<u32> = (0..n as u32).collect();
            for pair in order.indices.chunks_exact(2) {
                let (from, to) = (pair[0] as usize, pair[1] as usize);
                if from >= n || to >= n {
                    return Err(BytecodeError::new(
                        order.offset,
                        format!("use-list index out of range for a value with {n} uses"),
                    ));
                }
                perm[to] = from as u32;
            }
            perm
        } else {
            if order.indices.len() != n {
                return Err(BytecodeError::new(
                    order.offset,
                    format!(
                        "use-list order of {} entries for a value with {n} uses",
                        order.indices.len()
                    ),
                ));
            }
            order.indices
        };
        let mut seen = vec![false; n];
        for &p in &perm {
            if (p as usize) >= n || std::mem::replace(&mut seen[p as usize], true) {
                return Err(BytecodeError::new(
                    order.offset,
                    "use-list order is not a permutation",
                ));
            }
        }
        values[order.value.index()].use_list_order = Some(perm.into_boxed_slice());
    }
    Ok(())
}
