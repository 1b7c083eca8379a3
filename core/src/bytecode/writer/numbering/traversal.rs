//! The walk of the IR in upstream's order: op ids, isolation of regions,
//! and the numbering of each op's entries, properties and values.

use super::*;

impl<'m> Numbering<'m> {
    /// Pre-order op ids (the order the IR section is written in) with
    /// their subtree sizes, and which ops with regions use no value
    /// defined outside them (their regions are written as isolated).
    /// One walk of the IR (it is large and out of cache): a use of a
    /// value defined earlier is resolved at once, one defined later (or
    /// never) after the walk. The number of block arguments; `None` if
    /// `check_split` finds an op to split (see `new`).
    pub(super) fn compute_isolation(
        &mut self,
        module: &Module,
        check_split: bool,
    ) -> Option<usize> {
        // The op whose region defines each value, by value index.
        let mut owner: Vec<u32> = vec![NONE; module.values.len()];
        // Whether some value is defined twice (malformed IR): a use seen
        // before the second definition would have used the first one.
        let mut redefined = false;
        let mut set_owner = |owner: &mut [u32], v: &ValueId, op: u32| {
            if let Some(slot) = owner.get_mut(v.index()) {
                redefined |= *slot != NONE;
                *slot = op;
            }
        };
        // The op whose region holds each op, by pre-order id.
        let mut parents: Vec<u32> = Vec::with_capacity(module.values.len() + 1);
        self.ops.reserve(module.values.len() + 1);
        let mut later: Vec<(u32, u32)> = Vec::new(); // (user op, value)
        let mut block_arguments = 0usize;
        let mut work = vec![(&module.op, NONE)];
        while let Some((op, parent)) = work.pop() {
            if check_split && ops::keeps_inherent_attributes(op) {
                return None;
            }
            let id = parents.len() as u32;
            parents.push(parent);
            self.ops.push(OpRecord {
                isolated: !op.regions.is_empty(),
                ..UNNUMBERED_OP
            });
            for v in &op.operands {
                match owner.get(v.index()) {
                    Some(&NONE) => later.push((id, v.index() as u32)),
                    def => mark_use(&mut self.ops, &parents, id, def.copied().unwrap_or(NONE)),
                }
            }
            op.results
                .iter()
                .for_each(|r| set_owner(&mut owner, r, parent));
            for region in op.regions.iter().rev() {
                for block in region.blocks.iter().rev() {
                    block_arguments += block.arguments.len();
                    block
                        .arguments
                        .iter()
                        .for_each(|a| set_owner(&mut owner, a, id));
                    work.extend(block.ops.iter().rev().map(|inner| (inner, id)));
                }
            }
        }
        if redefined {
            self.mark_all_uses(module, &owner, &parents);
        } else {
            for (id, v) in later {
                mark_use(&mut self.ops, &parents, id, owner[v as usize]);
            }
        }
        // Parents come before their ops: sizes add up in reverse.
        let mut sizes = vec![1u32; parents.len()];
        for id in (1..parents.len()).rev() {
            let parent = parents[id];
            if parent != NONE {
                sizes[parent as usize] += sizes[id];
            }
        }
        self.subtree_sizes = sizes;
        Some(block_arguments)
    }

    /// Isolation from every use again, with the final owner of each value
    /// (the walk above resolved uses as it met them).
    fn mark_all_uses(&mut self, module: &Module, owner: &[u32], parents: &[u32]) {
        let mut work = vec![&module.op];
        let mut id = 0u32;
        while let Some(op) = work.pop() {
            // Ancestors come first in pre-order: reset before any use
            // inside marks them.
            self.ops[id as usize].isolated = !op.regions.is_empty();
            for v in &op.operands {
                let def = owner.get(v.index()).copied().unwrap_or(NONE);
                mark_use(&mut self.ops, parents, id, def);
            }
            for region in op.regions.iter().rev() {
                for block in region.blocks.iter().rev() {
                    work.extend(block.ops.iter().rev());
                }
            }
            id += 1;
        }
    }

    /// Upstream's order: the root op, then regions from a stack (each
    /// region's ops first, then the regions nested in them pushed in order,
    /// so the last one is numbered next).
    pub(super) fn number_ir(&mut self, module: &'m Module) {
        self.number_op(&module.op, 0, &mut 0);
        let mut pending: Vec<PendingRegion<'m>> = Vec::new();
        self.push_regions(&module.op, 0, 0, &mut pending);
        while let Some(p) = pending.pop() {
            let mut next = p.first_value;
            self.number_region(p.region, p.slot, p.first_op, &mut next);
            let mut id = p.first_op;
            for block in &p.region.blocks {
                for op in &block.ops {
                    if !op.regions.is_empty() {
                        let isolated = self.ops[id as usize].isolated;
                        self.push_regions(op, id, if isolated { 0 } else { next }, &mut pending);
                    }
                    id += self.subtree_sizes[id as usize];
                }
            }
        }
    }

    /// Queues the regions of op `id`, giving each its slot in
    /// `region_counts` and the pre-order id of its first op.
    fn push_regions(
        &mut self,
        op: &'m Op,
        id: u32,
        first_value: u64,
        pending: &mut Vec<PendingRegion<'m>>,
    ) {
        let slot = self.region_counts.len() as u32;
        self.ops[id as usize].regions = slot;
        self.region_counts
            .resize(self.region_counts.len() + op.regions.len(), (0, 0));
        let mut first_op = id + 1;
        for (k, region) in op.regions.iter().enumerate() {
            pending.push(PendingRegion {
                region,
                slot: slot + k as u32,
                first_op,
                first_value,
            });
            for block in &region.blocks {
                for _ in &block.ops {
                    first_op += self.subtree_sizes[first_op as usize];
                }
            }
        }
    }

    fn number_region(&mut self, region: &'m Region, slot: u32, first_op: u32, next: &mut u64) {
        if region.blocks.is_empty() {
            return;
        }
        let first = *next;
        let mut id = first_op;
        for block in &region.blocks {
            self.number_block(block, &mut id, next);
        }
        self.region_counts[slot as usize] = (region.blocks.len() as u64, *next - first);
    }

    fn number_block(&mut self, block: &'m Block, id: &mut u32, next: &mut u64) {
        let values = self.values;
        for &arg in &block.arguments {
            let value_id = *next;
            *next += 1;
            let (loc, ty) = match values.get(arg.index()) {
                Some(data) => (
                    data.location.as_deref().unwrap_or(&UNKNOWN_LOCATION),
                    &data.ty,
                ),
                None => (&UNKNOWN_LOCATION, &NONE_TYPE),
            };
            let location = self.number_loc(Key::Module(loc));
            let ty = self.number_type(Key::Module(ty));
            if let Some(record) = self.value_records.get_mut(arg.index()) {
                *record = ValueRecord {
                    id: value_id,
                    ty,
                    location,
                };
            }
        }
        for op in &block.ops {
            self.number_op(op, *id, next);
            *id += self.subtree_sizes[*id as usize];
        }
    }

    /// Counts a use of `value` as property `field` of an op named by
    /// entry `name_entry`; its entry index.
    fn number_property(&mut self, name_entry: u32, field: usize, value: &'m Attribute) -> u32 {
        let last = &mut self.op_names[name_entry as usize].last_properties;
        if last.len() <= field {
            last.resize(field + 1, NONE);
        }
        let cached = last[field];
        if cached != NONE
            && matches!(&self.attrs[cached as usize].key, AttrKey::Attr(a) if **a == *value)
        {
            return count_use(&mut self.attrs, cached as usize);
        }
        let entry = self.number_attr(Key::Module(value));
        self.op_names[name_entry as usize].last_properties[field] = entry;
        entry
    }

    /// Counts a use of `ty` as result `k` of an op named by entry
    /// `name_entry`; its entry index. Ops of one name mostly repeat their
    /// result types even where ops of several names interleave.
    fn number_result_type(&mut self, name_entry: u32, k: usize, ty: &'m Type) -> u32 {
        let last = &self.op_names[name_entry as usize].last_results;
        if let Some(&cached) = last.get(k)
            && cached != NONE
            && *self.types[cached as usize].key == *ty
        {
            return count_use(&mut self.types, cached as usize);
        }
        let entry = self.number_type(Key::Module(ty));
        let last = &mut self.op_names[name_entry as usize].last_results;
        if last.len() <= k {
            last.resize(k + 1, NONE);
        }
        last[k] = entry;
        entry
    }

    fn number_op(&mut self, op: &'m Op, id: u32, next: &mut u64) {
        let name = self.number_op_name(&op.name);
        let values = self.values;
        let mut result_use_orders = false;
        for (k, &r) in op.results.iter().enumerate() {
            let value_id = *next;
            *next += 1;
            let data = values.get(r.index());
            result_use_orders |= data.is_some_and(|d| d.use_list_order.is_some());
            let ty = data.map_or(&NONE_TYPE, |data| &data.ty);
            let ty = self.number_result_type(name, k, ty);
            if let Some(record) = self.value_records.get_mut(r.index()) {
                *record = ValueRecord {
                    id: value_id,
                    ty,
                    location: NONE,
                };
            }
        }
        let entry = &self.op_names[name as usize];
        let (registered, definition) = (Self::registered(entry, op), entry.definition);
        let dictionary = match written_dictionary(op, self.version, registered) {
            dict if dict.is_empty() => NONE,
            Cow::Borrowed(dict) => self.number_dict(Key::Module(dict)),
            Cow::Owned(dict) => self.number_dict(Key::Temporary(&dict)),
        };
        let properties = self.property_attrs.len() as u32;
        if self.version >= 5 {
            if registered {
                if let Some(def) = definition {
                    let props = match op.properties.as_deref() {
                        Some(Attribute::Dictionary(props)) => &props[..],
                        _ => &[],
                    };
                    for (field, (field_name, _)) in property_fields(def, self.version).enumerate() {
                        let entry = match crate::ir::find_attribute(props, field_name) {
                            Some(v) => self.number_property(name, field, v),
                            None => NONE,
                        };
                        self.property_attrs.push(entry);
                    }
                }
            } else if let Some(p) = op.properties.as_deref() {
                let entry = self.number_attr(Key::Module(p));
                self.property_attrs.push(entry);
            }
        }
        let location = self.number_loc(Key::Module(&op.location));
        let record = &mut self.ops[id as usize];
        record.name = name;
        record.location = location;
        record.dictionary = dictionary;
        record.properties = properties;
        record.result_use_orders = result_use_orders;
    }
}

/// A region waiting to be numbered.
struct PendingRegion<'m> {
    region: &'m Region,
    /// Its index in `region_counts`.
    slot: u32,
    /// Pre-order id of its first op.
    first_op: u32,
    /// Id of the first value it defines.
    first_value: u64,
}

/// An op record before numbering.
const UNNUMBERED_OP: OpRecord = OpRecord {
    name: NONE,
    location: NONE,
    dictionary: NONE,
    properties: NONE,
    regions: NONE,
    isolated: false,
    result_use_orders: false,
};

/// A use in op `user` of a value defined in a region of op `def` (`NONE`:
/// outside the module's ops): every op holding the user strictly inside
/// `def` is not isolated.
#[inline(always)]
fn mark_use(ops: &mut [OpRecord], parents: &[u32], user: u32, def: u32) {
    let mut anc = parents[user as usize];
    while anc != NONE && anc != def {
        ops[anc as usize].isolated = false;
        anc = parents[anc as usize];
    }
}
