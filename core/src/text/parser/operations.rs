//! Operations: the generic form, and the dispatch to custom forms.

use super::*;

impl<'a> Parser<'a> {
    /// An operation, parsed in place at the end of `ops` (an op is large:
    /// built where it stays rather than moved there).
    pub fn parse_operation_into(&mut self, ops: &mut Vec<Op>) -> R<()> {
        ops.push(Op::default());
        let op = ops.last_mut().expect("just pushed");
        let parsed = self.parse_operation(op);
        if parsed.is_err() {
            ops.pop();
        }
        parsed
    }

    pub(super) fn parse_operation(&mut self, op: &mut Op) -> R<()> {
        self.enter()?;
        let base = self.bindings.len();
        if self.tok.kind == Kind::PercentId {
            loop {
                let t = self.tok;
                if t.kind != Kind::PercentId {
                    return Err(self.err_here("expected SSA identifier"));
                }
                let name = self.after_sigil(t);
                self.bump()?;
                let mut count = 1;
                if self.eat(Kind::Colon)? {
                    let n = self.expect(Kind::Integer, "expected integer number of results")?;
                    count = self
                        .text(n)
                        .parse::<u32>()
                        .ok()
                        .filter(|&c| c > 0)
                        .ok_or_else(|| {
                            self.err(n, "expected named operation to have at least 1 result")
                        })?;
                }
                self.bindings.push(Binding {
                    name,
                    count,
                    tok: t,
                });
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
            self.expect(Kind::Equal, "expected '=' after SSA name")?;
        }
        // Number the bound results before the op's operands and regions
        // create values, so that the module comes out in canonical order
        // and `renumber_values` has nothing to do. Types are filled in
        // once known. Large counts (untrusted) take the slow path.
        let bound: u64 = self.bindings[base..]
            .iter()
            .map(|b| u64::from(b.count))
            .sum();
        let reserved = if (1..=MAX_RESERVED_RESULTS).contains(&bound) {
            let first = self.module.values.len() as u32;
            for _ in 0..bound {
                self.module.new_value(Type::None, None);
            }
            Some(first)
        } else {
            None
        };
        let name_tok = self.tok;
        let result_types = match name_tok.kind {
            Kind::String => self.parse_generic_op(op)?,
            Kind::BareId => self.parse_custom_op(op)?,
            _ => return Err(self.err_here("expected operation name in quotes")),
        };
        let location = if self.at_keyword("loc") && self.peek_kind() == Kind::LParen {
            self.parse_trailing_loc()?
        } else {
            self.loc_at(name_tok)
        };
        fill_placeholder(&mut op.location, location, |l| {
            matches!(l, Location::Unknown)
        });
        if self.bindings.len() > base && bound != result_types.len() as u64 {
            return Err(self.err(
                self.bindings[base].tok,
                format!(
                    "operation defines {} results but was provided {bound} to bind",
                    result_types.len()
                ),
            ));
        }
        // The op was empty: its results are allocated once, at their size.
        op.results = Vec::with_capacity(result_types.len());
        let mut result_types = result_types;
        // Popped in order below (cheaper than draining).
        result_types.reverse();
        let mut next_reserved = reserved;
        for index in base..self.bindings.len() {
            let b = self.bindings[index];
            for i in 0..b.count {
                let ty = result_types.pop().expect("counted");
                let slot = next_reserved.map(ValueId);
                next_reserved = next_reserved.map(|n| n + 1);
                op.results
                    .push(self.define_in(b.name, i, b.tok, ty, None, slot)?);
            }
        }
        self.bindings.truncate(base);
        while let Some(ty) = result_types.pop() {
            op.results.push(self.module.new_value(ty, None));
        }
        if self.type_lists.len() < 16 {
            self.type_lists.push(result_types);
        }
        self.leave();
        Ok(())
    }

    pub(super) fn parse_generic_op(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let name_tok = self.tok;
        let name = String::from_utf8(self.decode_string(name_tok)?)
            .ok()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| self.err(name_tok, "invalid operation name"))?;
        self.bump()?;
        self.expect(Kind::LParen, "expected '(' to start operand list")?;
        let uses = self.parse_use_list()?;
        self.expect(Kind::RParen, "expected ')' to end operand list")?;
        op.name = name;
        if self.eat(Kind::LSquare)? {
            loop {
                let t = self.expect(Kind::CaretId, "expected block name")?;
                if self.at(Kind::LParen) {
                    return Err(self.err_here("successor operands are not supported"));
                }
                op.successors.push(self.label_use(t));
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
            self.expect(Kind::RSquare, "expected ']' to end successor list")?;
        }
        if self.eat(Kind::Less)? {
            let props = self.parse_attribute()?;
            self.expect(Kind::Greater, "expected '>' to close properties")?;
            op.properties = Some(Box::new(props));
        }
        if self.at(Kind::LParen) && self.peek_kind() == Kind::LBrace {
            self.bump()?;
            let isolated = op.name == crate::ir::FUNC_OP || op.name == crate::ir::MODULE_OP;
            loop {
                op.regions.push(self.parse_region(isolated, None)?);
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
            self.expect(Kind::RParen, "expected ')' to end region list")?;
            if op.name == crate::ir::MODULE_OP
                && op.regions.len() == 1
                && op.regions[0].blocks.is_empty()
            {
                op.regions[0].blocks.push(Block::default());
            }
        }
        if self.at(Kind::LBrace) {
            op.attributes = self.parse_attr_dict()?;
        }
        merge_inherent_properties(op);
        self.expect(Kind::Colon, "expected ':' followed by operation type")?;
        let ty_tok = self.tok;
        let Type::Function { inputs, results } = self.parse_type()? else {
            return Err(self.err(ty_tok, "expected function type"));
        };
        if inputs.len() != uses.len() {
            return Err(self.err(
                ty_tok,
                format!(
                    "expected {} operand type{} but had {}",
                    uses.len(),
                    if uses.len() == 1 { "" } else { "s" },
                    inputs.len()
                ),
            ));
        }
        op.operands = self.resolve_all(&uses, &inputs, ty_tok)?;
        Ok(results)
    }
}
