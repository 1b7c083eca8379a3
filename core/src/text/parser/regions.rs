//! Regions and blocks, with their labels.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn push_labels(&mut self) {
        if self.nlabels == self.labels.len() {
            self.labels.push(Labels::default());
        }
        let l = &mut self.labels[self.nlabels];
        l.ids.clear();
        l.pos.clear();
        l.first_use.clear();
        self.nlabels += 1;
    }

    pub(super) fn label_id(&mut self, name: &'a str) -> u32 {
        let l = &mut self.labels[self.nlabels - 1];
        let next = l.pos.len() as u32;
        let id = *l.ids.entry(name).or_insert(next);
        if id == next {
            l.pos.push(u32::MAX);
            l.first_use.push(None);
        }
        id
    }

    pub(super) fn label_use(&mut self, t: Token) -> u32 {
        let id = self.label_id(self.after_sigil(t));
        let l = &mut self.labels[self.nlabels - 1];
        l.first_use[id as usize].get_or_insert(t);
        id
    }

    /// Maps successor label ids to block positions and pops the labels.
    pub(super) fn finish_labels(&mut self, region: &mut Region) -> R<()> {
        self.nlabels -= 1;
        let l = &self.labels[self.nlabels];
        if l.pos.is_empty() {
            return Ok(());
        }
        for (id, &pos) in l.pos.iter().enumerate() {
            if pos == u32::MAX {
                let t = l.first_use[id].expect("used label");
                return Err(self.err(t, "reference to an undefined block"));
            }
        }
        for block in &mut region.blocks {
            for op in &mut block.ops {
                for s in &mut op.successors {
                    *s = l.pos[*s as usize];
                }
            }
        }
        Ok(())
    }

    /// `{ ... }`. `entry` gives the entry block's arguments when the op
    /// names them (function signature, implicit operand names).
    pub fn parse_region(&mut self, isolated: bool, entry: Option<Vec<EntryArg<'a>>>) -> R<Region> {
        self.enter_weighted(REGION_WEIGHT)?;
        self.expect(Kind::LBrace, "expected '{' to begin a region")?;
        self.push_scope(isolated);
        self.push_labels();
        let mut region = Region::default();
        let entry = entry.unwrap_or_default();
        let named_entry = !entry.is_empty();
        if self.at(Kind::CaretId) {
            if named_entry {
                return Err(self.err_here("invalid block name in region with named arguments"));
            }
        } else if named_entry || !self.at(Kind::RBrace) {
            let mut arguments = Vec::with_capacity(entry.len());
            for a in entry {
                arguments.push(self.define(a.name, a.idx, a.tok, a.ty, Some(a.loc))?);
            }
            let ops = self.parse_block_ops()?;
            region.blocks.push(Block { arguments, ops });
        }
        while self.at(Kind::CaretId) {
            let t = self.tok;
            let id = self.label_id(self.after_sigil(t));
            let pos = region.blocks.len() as u32;
            let l = &mut self.labels[self.nlabels - 1];
            if l.pos[id as usize] != u32::MAX {
                return Err(self.err(t, format!("redefinition of block '{}'", self.text(t))));
            }
            l.pos[id as usize] = pos;
            self.bump()?;
            let mut arguments = Vec::new();
            if self.eat(Kind::LParen)? && !self.eat(Kind::RParen)? {
                loop {
                    let at = self.tok;
                    let u = self.parse_use()?;
                    if u.idx != 0 || u.end != at.end {
                        return Err(self.err(at, "invalid block argument name"));
                    }
                    self.expect(Kind::Colon, "expected ':' and type for SSA operand")?;
                    let ty = self.parse_type()?;
                    let loc = if self.at_keyword("loc") {
                        self.parse_trailing_loc()?
                    } else {
                        self.loc_at(at)
                    };
                    arguments.push(self.define(u.name, 0, at, ty, Some(loc))?);
                    if !self.eat(Kind::Comma)? {
                        break;
                    }
                }
                self.expect(Kind::RParen, "expected ')' to end argument list")?;
            }
            self.expect(Kind::Colon, "expected ':' after block name")?;
            let ops = self.parse_block_ops()?;
            region.blocks.push(Block { arguments, ops });
        }
        self.expect(Kind::RBrace, "expected '}' to end region")?;
        self.finish_labels(&mut region)?;
        self.pop_scope()?;
        self.leave_weighted(REGION_WEIGHT);
        Ok(region)
    }

    pub(super) fn parse_block_ops(&mut self) -> R<Vec<Op>> {
        let depth = self.nscopes;
        let room = self.block_sizes.get(depth).copied().unwrap_or(0);
        let mut ops = Vec::with_capacity(room.min(MAX_BLOCK_ROOM));
        while !matches!(self.tok.kind, Kind::RBrace | Kind::CaretId | Kind::Eof) {
            self.parse_operation_into(&mut ops)?;
        }
        // A guess well above the size gives the room back.
        if ops.capacity() > 2 * ops.len() {
            ops.shrink_to_fit();
        }
        if self.block_sizes.len() <= depth {
            self.block_sizes.resize(depth + 1, 0);
        }
        self.block_sizes[depth] = ops.len();
        Ok(ops)
    }
}
