//! Custom forms of the scalar ops: constants, chains, binary operators and prints.

use super::*;

impl<'a> Parser<'a> {
    /// Parses `tfrt.constant.T $value attr-dict`.
    pub(super) fn parse_constant(&mut self, op: &mut Op, ty: Type) -> R<Vec<Type>> {
        let value = self.parse_constant_value(&ty)?;
        op.attributes.push(("value".into(), value));
        self.opt_attr_dict(op)?;
        Ok(self.result_types([ty]))
    }
}

impl Printer<'_> {
    /// Prints `tfrt.constant.T $value attr-dict`; `false` if `op` does not fit it.
    pub(super) fn print_constant(&mut self, op: &Op, ty: &Type) -> bool {
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions
            && op.operands.is_empty()
            && self.types_are(&op.results, std::slice::from_ref(ty)))
        {
            return false;
        }
        let text = match find_attribute(&op.attributes, "value") {
            Some(Attribute::Integer { value, ty: t }) if t == ty => {
                if *ty == Type::i(1) {
                    match value {
                        0 => "false".to_string(),
                        1 => "true".to_string(),
                        _ => return false,
                    }
                } else {
                    value.to_string()
                }
            }
            Some(Attribute::Bool(b)) if *ty == Type::i(1) => b.to_string(),
            Some(Attribute::Float {
                bits,
                ty: t @ Type::Float(kind),
            }) if t == ty => format_float(*bits, *kind),
            _ => return false,
        };
        self.out.push(' ');
        self.out.push_str(&text);
        self.attr_dict(&op.attributes, &["value"]);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt.new.chain attr-dict`.
    pub(super) fn parse_new_chain(&mut self, op: &mut Op) -> R<Vec<Type>> {
        self.opt_attr_dict(op)?;
        Ok(self.result_types([self.chain.clone()]))
    }
}

impl Printer<'_> {
    /// Prints `tfrt.new.chain attr-dict`; `false` if `op` does not fit it.
    pub(super) fn print_new_chain(&mut self, op: &Op) -> bool {
        let chain = Type::chain();
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions && op.operands.is_empty() && self.types_are(&op.results, &[chain])) {
            return false;
        }
        self.attr_dict(&op.attributes, &[]);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt.merge.chains $inputs attr-dict : type($inputs)`.
    pub(super) fn parse_merge_chains(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let uses = self.parse_use_list()?;
        if uses.is_empty() {
            return Err(self.err_here("expected SSA operand"));
        }
        self.opt_attr_dict(op)?;
        self.expect(Kind::Colon, "expected ':'")?;
        let at = self.tok;
        let types = self.parse_type_list()?;
        op.operands = self.resolve_all(&uses, &types, at)?;
        Ok(self.result_types([self.chain.clone()]))
    }
}

impl Printer<'_> {
    /// Prints `tfrt.merge.chains $inputs attr-dict : type($inputs)`; `false` if `op` does not fit it.
    pub(super) fn print_merge_chains(&mut self, op: &Op) -> bool {
        let chain = Type::chain();
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions && !op.operands.is_empty() && self.types_are(&op.results, &[chain])) {
            return false;
        }
        self.out.push(' ');
        self.values(&op.operands);
        self.attr_dict(&op.attributes, &[]);
        self.out.push_str(" : ");
        self.value_types(&op.operands);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt.add.i32 %a, %b attr-dict`.
    pub(super) fn parse_binary(
        &mut self,
        op: &mut Op,
        t: Token,
        ty: Type,
        out: BinOut,
    ) -> R<Vec<Type>> {
        self.fixed_operands(op, [&ty, &ty], t)?;
        self.opt_attr_dict(op)?;
        Ok(match out {
            BinOut::Same => self.result_types([ty]),
            _ => binary_results(&ty, out),
        })
    }
}

impl Printer<'_> {
    /// Prints `tfrt.add.i32 %a, %b attr-dict`; `false` if `op` does not fit it.
    pub(super) fn print_binary(&mut self, op: &Op, ty: &Type, out: &BinOut) -> bool {
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions
            && self.types_are(&op.operands, &[ty.clone(), ty.clone()])
            && self.types_are(&op.results, &binary_results(ty, *out)))
        {
            return false;
        }
        self.out.push(' ');
        self.values(&op.operands);
        self.attr_dict(&op.attributes, &[]);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt.print.T %x, %ch attr-dict`.
    pub(super) fn parse_scalar_print(&mut self, op: &mut Op, t: Token, ty: Type) -> R<Vec<Type>> {
        let chain = self.chain.clone();
        self.fixed_operands(op, [&ty, &chain], t)?;
        self.opt_attr_dict(op)?;
        Ok(self.result_types([chain]))
    }
}

impl Printer<'_> {
    /// Prints `tfrt.print.T %x, %ch attr-dict`; `false` if `op` does not fit it.
    pub(super) fn print_scalar_print(&mut self, op: &Op, ty: &Type) -> bool {
        let chain = Type::chain();
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions
            && self.types_are(&op.operands, &[ty.clone(), chain.clone()])
            && self.types_are(&op.results, &[chain]))
        {
            return false;
        }
        self.out.push(' ');
        self.values(&op.operands);
        self.attr_dict(&op.attributes, &[]);
        true
    }
}

impl<'a> Parser<'a> {
    pub(super) fn parse_constant_value(&mut self, ty: &Type) -> R<Attribute> {
        let t = self.tok;
        if *ty == Type::i(1) && (self.at_keyword("true") || self.at_keyword("false")) {
            self.bump()?;
            return Ok(Attribute::Integer {
                value: i128::from(self.text(t) == "true"),
                ty: ty.clone(),
            });
        }
        let negative = self.eat(Kind::Minus)?;
        let num = self.tok;
        if !matches!(num.kind, Kind::Integer | Kind::Float) {
            return Err(self.err_here("expected attribute value"));
        }
        self.bump()?;
        let explicit = if self.eat(Kind::Colon)? {
            let at = self.tok;
            let e = self.parse_type()?;
            if e != *ty {
                return Err(self.err(at, format!("expected type '{ty}' for the constant value")));
            }
            Some(e)
        } else {
            None
        };
        self.number_attr(negative, num, explicit.or_else(|| Some(ty.clone())))
    }
}
