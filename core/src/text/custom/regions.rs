//! Custom forms of the ops with regions whose entry arguments shadow the
//! operands: `tfrt.if`, `tfrt.repeat.i32`, `tfrt.parallel_for.i32`,
//! `tfrt_test.benchmark` and `tfrt_test.do.async`.

use super::*;

impl<'a> Parser<'a> {
    /// Parses `tfrt.if %c, %a attributes {...} : (A) -> R { then } else { else }`.
    pub(super) fn parse_if(&mut self, op: &mut Op, t: Token) -> R<Vec<Type>> {
        let uses = self.parse_use_list()?;
        self.opt_attributes_keyword(op)?;
        let (inputs, results) = self.colon_function_type()?;
        let Some((cond, rest)) = uses.split_first() else {
            return Err(self.err_here("expected condition"));
        };
        op.operands.push(self.resolve(cond, &Type::i(1))?);
        op.operands.extend(self.resolve_all(rest, &inputs, t)?);
        let args = implicit_args(rest, &inputs);
        op.regions
            .push(self.parse_region(true, Some(args.clone()))?);
        if self.at_keyword("else") {
            self.bump()?;
            op.regions.push(self.parse_region(true, Some(args))?);
        } else {
            if !results.is_empty() {
                return Err(self.err_here("expected 'else' in 'tfrt.if' with result values"));
            }
            let arguments = inputs
                .iter()
                .map(|ty| self.module.new_value(ty.clone(), Some(Location::Unknown)))
                .collect();
            let ret = Op::new("tfrt.return", self.loc_at(t));
            op.regions.push(Region {
                blocks: vec![Block {
                    arguments,
                    ops: vec![ret],
                }],
            });
        }
        Ok(results)
    }

    /// Parses `tfrt.repeat.i32 %n, %a : A { body }`.
    pub(super) fn parse_repeat(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let uses = self.parse_use_list()?;
        self.opt_attributes_keyword(op)?;
        let at = self.tok;
        let types = if self.eat(Kind::Colon)? {
            self.parse_type_list()?
        } else {
            Vec::new()
        };
        let Some((count, rest)) = uses.split_first() else {
            return Err(self.err_here("expected trip count"));
        };
        op.operands.push(self.resolve(count, &Type::i(32))?);
        op.operands.extend(self.resolve_all(rest, &types, at)?);
        op.regions
            .push(self.parse_region(true, Some(implicit_args(rest, &types)))?);
        Ok(types)
    }

    /// Parses `tfrt.parallel_for.i32 %lo to %hi fixed %n, %a : A { body }`.
    pub(super) fn parse_parallel_for(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let bounds = self.parse_bounds()?;
        let extra = if self.eat(Kind::Comma)? {
            self.parse_use_list()?
        } else {
            Vec::new()
        };
        let at = self.tok;
        let types = if self.eat(Kind::Colon)? {
            self.parse_type_list()?
        } else {
            Vec::new()
        };
        for b in &bounds {
            op.operands.push(self.resolve(b, &Type::i(32))?);
        }
        op.operands.extend(self.resolve_all(&extra, &types, at)?);
        let mut names = vec![bounds[0], bounds[1]];
        names.extend(extra.iter().copied());
        let mut arg_types = vec![Type::i(32), Type::i(32)];
        arg_types.extend(types);
        op.regions
            .push(self.parse_region(true, Some(implicit_args(&names, &arg_types)))?);
        Ok(vec![self.chain.clone()])
    }
}

impl Printer<'_> {
    /// Prints `tfrt.if`, `tfrt.repeat.i32` and `tfrt.parallel_for.i32`, whose regions' arguments shadow the operands; `false` if `op` does not fit it.
    pub(super) fn print_implicit_region_op(&mut self, op: &Op, form: &Form) -> bool {
        if !self.shadowed.contains(&(op as *const Op)) {
            return false;
        }
        match form {
            Form::If => {
                self.out.push(' ');
                self.values(&op.operands);
                self.attributes_keyword(&op.attributes, &[]);
                self.out.push_str(" : ");
                self.function_type(&op.operands[1..], &op.results, true);
                self.out.push(' ');
                self.region(&op.regions[0], EntryMode::Implicit);
                self.out.push_str(" else ");
                self.region(&op.regions[1], EntryMode::Implicit);
            }
            Form::Repeat => {
                self.out.push(' ');
                self.values(&op.operands);
                self.attributes_keyword(&op.attributes, &[]);
                if op.operands.len() > 1 {
                    self.out.push_str(" : ");
                    self.value_types(&op.operands[1..]);
                }
                self.out.push(' ');
                self.region(&op.regions[0], EntryMode::Implicit);
            }
            _ => {
                self.bounds(&op.operands);
                if op.operands.len() > 3 {
                    self.out.push_str(", ");
                    self.values(&op.operands[3..]);
                    self.out.push_str(" : ");
                    self.value_types(&op.operands[3..]);
                }
                self.out.push(' ');
                self.region(&op.regions[0], EntryMode::Implicit);
            }
        }
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt_test.benchmark "name"(%a : T) key = 1, ... { body }`.
    pub(super) fn parse_benchmark(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let name_tok = self.expect(Kind::String, "expected benchmark name string")?;
        let name = self.decode_string(name_tok)?;
        op.attributes.push((
            "name".into(),
            Attribute::String {
                value: name,
                ty: None,
            },
        ));
        self.expect(Kind::LParen, "expected '('")?;
        let mut uses: Vec<Use<'a>> = Vec::new();
        let mut types: Vec<Type> = Vec::new();
        if !self.eat(Kind::RParen)? {
            loop {
                uses.push(self.parse_use()?);
                self.expect(Kind::Colon, "expected ':'")?;
                types.push(self.parse_type()?);
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
            self.expect(Kind::RParen, "expected ')'")?;
        }
        for (u, ty) in uses.iter().zip(&types) {
            let v = self.resolve(u, ty)?;
            op.operands.push(v);
        }
        loop {
            let key = self.expect(Kind::BareId, "expected attribute name")?;
            self.expect(Kind::Equal, "expected '='")?;
            let negative = self.eat(Kind::Minus)?;
            let n = self.expect(Kind::Integer, "expected integer value")?;
            let value = self.number_attr(negative, n, Some(Type::i(32)))?;
            self.add_attr(op, self.text(key), value, key)?;
            if !self.eat(Kind::Comma)? {
                break;
            }
        }
        if find_attribute(&op.attributes, "num_warmup_runs").is_none() {
            op.set_attribute("num_warmup_runs", Attribute::i32(1));
        }
        op.regions
            .push(self.parse_region(true, Some(implicit_args(&uses, &types)))?);
        Ok(vec![self.chain.clone()])
    }
}

impl Printer<'_> {
    /// Prints `tfrt_test.benchmark "name"(%a : T) key = 1, ... { body }`; `false` if `op` does not fit it.
    pub(super) fn print_benchmark(&mut self, op: &Op) -> bool {
        let chain = Type::chain();
        let Some(Attribute::String {
            value: name,
            ty: None,
        }) = find_attribute(&op.attributes, "name")
        else {
            return false;
        };
        let keys: Vec<(&str, i128)> = op
            .attributes
            .iter()
            .filter(|(k, _)| k != "name")
            .filter_map(|(k, v)| match v {
                Attribute::Integer { value, ty } if *ty == Type::i(32) => {
                    Some((k.as_str(), *value))
                }
                _ => None,
            })
            .collect();
        if !(self.shadowed.contains(&(op as *const Op))
            && !keys.is_empty()
            && keys.len() + 1 == op.attributes.len()
            && keys
                .iter()
                .all(|(k, _)| crate::text::lexer::is_bare_identifier(k))
            && self.types_are(&op.results, &[chain]))
        {
            return false;
        }
        self.out.push(' ');
        crate::text::printer::write_string(&mut self.out, name);
        self.out.push('(');
        for (i, &v) in op.operands.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(v);
            let _ = write!(self.out, " : {}", self.m.value_type(v));
        }
        self.out.push_str(") ");
        for (i, (k, v)) in keys.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{k} = {v}");
        }
        self.out.push(' ');
        self.region(&op.regions[0], EntryMode::Implicit);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt_test.do.async %a : (A) -> (R) { body }`.
    pub(super) fn parse_do_async(&mut self, op: &mut Op, t: Token) -> R<Vec<Type>> {
        let uses = self.parse_use_list()?;
        self.opt_attributes_keyword(op)?;
        let (inputs, results) = self.colon_function_type()?;
        op.operands = self.resolve_all(&uses, &inputs, t)?;
        op.regions
            .push(self.parse_region(true, Some(implicit_args(&uses, &inputs)))?);
        Ok(results)
    }
}

impl Printer<'_> {
    /// Prints `tfrt_test.do.async %a : (A) -> (R) { body }`; `false` if `op` does not fit it.
    pub(super) fn print_do_async(&mut self, op: &Op) -> bool {
        if !self.shadowed.contains(&(op as *const Op)) {
            return false;
        }
        if !op.operands.is_empty() {
            self.out.push(' ');
            self.values(&op.operands);
        }
        self.attributes_keyword(&op.attributes, &[]);
        self.out.push_str(" : ");
        self.function_type(&op.operands, &op.results, true);
        self.out.push(' ');
        self.region(&op.regions[0], EntryMode::Implicit);
        true
    }
}
