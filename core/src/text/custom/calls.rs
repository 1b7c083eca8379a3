//! Custom forms of the ops that call functions (`tfrt.call`, `tfrt.once`,
//! `tfrt.cond`, `tfrt.case`, `tfrt.while`, `tfrt.parallel_call.i32`) and of
//! `tfrt.return`.

use super::*;

impl<'a> Parser<'a> {
    /// Parses `tfrt.call @f(%a) attr-dict : (A) -> R`.
    pub(super) fn parse_call(&mut self, op: &mut Op, t: Token) -> R<Vec<Type>> {
        let callee = self.parse_symbol_attr()?;
        op.attributes.push(("callee".into(), callee));
        let uses = self.paren_uses()?;
        self.opt_attr_dict(op)?;
        let (inputs, results) = self.colon_function_type()?;
        op.operands = self.resolve_all(&uses, &inputs, t)?;
        Ok(results)
    }

    /// Parses `tfrt.once @f(%a) attr-dict : (A) -> R`.
    pub(super) fn parse_once(&mut self, op: &mut Op, t: Token) -> R<Vec<Type>> {
        let f = self.parse_symbol_attr()?;
        op.attributes.push(("function".into(), f));
        let uses = self.paren_uses()?;
        self.opt_attr_dict(op)?;
        let (inputs, results) = self.colon_function_type()?;
        op.operands = self.resolve_all(&uses, &inputs, t)?;
        Ok(results)
    }
}

impl Printer<'_> {
    /// Prints `tfrt.call @f(%a) attr-dict : (A) -> R`; `false` if `op` does not fit it.
    pub(super) fn print_call(&mut self, op: &Op, form: &Form) -> bool {
        let no_regions = op.regions.is_empty() && Self::plain(op);
        let key = if *form == Form::Call {
            "callee"
        } else {
            "function"
        };
        let Some(callee @ Attribute::SymbolRef { .. }) = find_attribute(&op.attributes, key) else {
            return false;
        };
        if !no_regions {
            return false;
        }
        self.out.push(' ');
        self.attr(callee);
        self.out.push('(');
        self.values(&op.operands);
        self.out.push(')');
        self.attr_dict(&op.attributes, &[key]);
        self.out.push_str(" : ");
        if *form == Form::Call {
            self.function_type(&op.operands, &op.results, false);
        } else {
            self.function_type(&op.operands, &op.results, true);
        }
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt.cond %c @then @else(%a) attr-dict : (A) -> R`.
    pub(super) fn parse_cond(&mut self, op: &mut Op, t: Token) -> R<Vec<Type>> {
        let cond = self.parse_use()?;
        let a = self.parse_symbol_attr()?;
        let b = self.parse_symbol_attr()?;
        op.attributes.push(("a_true_fn".into(), a));
        op.attributes.push(("b_false_fn".into(), b));
        let uses = self.paren_uses()?;
        self.opt_attr_dict(op)?;
        let (inputs, results) = self.colon_function_type()?;
        op.operands.push(self.resolve(&cond, &Type::i(1))?);
        op.operands.extend(self.resolve_all(&uses, &inputs, t)?);
        Ok(results)
    }

    /// Parses `tfrt.case %i [@a, @b](%x) attr-dict : (A) -> R`.
    pub(super) fn parse_case(&mut self, op: &mut Op, t: Token) -> R<Vec<Type>> {
        let index = self.parse_use()?;
        let branches = self.parse_attribute()?;
        op.attributes.push(("branches".into(), branches));
        let uses = self.paren_uses()?;
        self.opt_attr_dict(op)?;
        let (inputs, results) = self.colon_function_type()?;
        op.operands.push(self.resolve(&index, &Type::i(32))?);
        op.operands.extend(self.resolve_all(&uses, &inputs, t)?);
        Ok(results)
    }

    /// Parses `tfrt.while %c @body(%a) attr-dict parallel_iterations(N) : (A) -> R`.
    pub(super) fn parse_while(&mut self, op: &mut Op, t: Token) -> R<Vec<Type>> {
        let cond = self.parse_use()?;
        let body = self.parse_symbol_attr()?;
        op.attributes.push(("body_fn".into(), body));
        let uses = self.paren_uses()?;
        self.opt_attr_dict(op)?;
        self.expect_keyword("parallel_iterations")?;
        self.expect(Kind::LParen, "expected '('")?;
        let negative = self.eat(Kind::Minus)?;
        let n = self.expect(Kind::Integer, "expected integer value")?;
        let pi = self.number_attr(negative, n, Some(Type::i(64)))?;
        self.expect(Kind::RParen, "expected ')'")?;
        self.add_attr(op, "parallel_iterations", pi, n)?;
        let (inputs, results) = self.colon_function_type()?;
        op.operands.push(self.resolve(&cond, &Type::i(1))?);
        op.operands.extend(self.resolve_all(&uses, &inputs, t)?);
        Ok(results)
    }
}

impl Printer<'_> {
    /// Prints `tfrt.cond`, `tfrt.case` and `tfrt.while`: a leading operand, callee attributes, the call's operands; `false` if `op` does not fit it.
    pub(super) fn print_conditional_call(&mut self, op: &Op, form: &Form) -> bool {
        let no_regions = op.regions.is_empty() && Self::plain(op);
        let (first_ty, keys): (Type, &[&str]) = match form {
            Form::Cond => (Type::i(1), &["a_true_fn", "b_false_fn"]),
            Form::Case => (Type::i(32), &["branches"]),
            _ => (Type::i(1), &["body_fn", "parallel_iterations"]),
        };
        if !no_regions || op.operands.is_empty() || self.m.value_type(op.operands[0]) != &first_ty {
            return false;
        }
        let attrs: Vec<&Attribute> = keys
            .iter()
            .filter_map(|k| find_attribute(&op.attributes, k))
            .collect();
        if attrs.len() != keys.len() {
            return false;
        }
        let ok = match form {
            Form::Cond => attrs
                .iter()
                .all(|a| matches!(a, Attribute::SymbolRef { .. })),
            Form::Case => matches!(attrs[0], Attribute::Array(_)),
            _ => {
                matches!(attrs[0], Attribute::SymbolRef { .. })
                    && matches!(attrs[1], Attribute::Integer { ty, .. } if *ty == Type::i(64))
            }
        };
        if !ok {
            return false;
        }
        self.out.push(' ');
        self.value(op.operands[0]);
        match form {
            Form::Cond => {
                self.out.push(' ');
                self.attr(attrs[0]);
                self.out.push(' ');
                self.attr(attrs[1]);
                self.out.push(' ');
            }
            Form::Case => {
                self.out.push(' ');
                self.attr(attrs[0]);
                self.out.push(' ');
            }
            _ => {
                self.out.push(' ');
                self.attr(attrs[0]);
            }
        }
        self.out.push('(');
        self.values(&op.operands[1..]);
        self.out.push(')');
        self.attr_dict(&op.attributes, keys);
        if *form == Form::While {
            let Attribute::Integer { value, .. } = attrs[1] else {
                return false;
            };
            let _ = write!(self.out, " parallel_iterations({value})");
        }
        self.out.push_str(" : ");
        self.function_type(&op.operands[1..], &op.results, true);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt.parallel_call.i32 %lo to %hi fixed %n @f(%a) : A`.
    pub(super) fn parse_parallel_call(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let bounds = self.parse_bounds()?;
        let callee = self.parse_symbol_attr()?;
        op.attributes.push(("callee".into(), callee));
        let uses = self.paren_uses()?;
        let at = self.tok;
        let types = if self.eat(Kind::Colon)? {
            self.parse_type_list()?
        } else {
            Vec::new()
        };
        for b in &bounds {
            op.operands.push(self.resolve(b, &Type::i(32))?);
        }
        op.operands.extend(self.resolve_all(&uses, &types, at)?);
        Ok(vec![self.chain.clone()])
    }
}

impl Printer<'_> {
    /// Prints `tfrt.parallel_call.i32 %lo to %hi fixed %n @f(%a) : A`; `false` if `op` does not fit it.
    pub(super) fn print_parallel_call(&mut self, op: &Op) -> bool {
        let chain = Type::chain();
        let no_regions = op.regions.is_empty() && Self::plain(op);
        let Some(callee @ Attribute::SymbolRef { .. }) = find_attribute(&op.attributes, "callee")
        else {
            return false;
        };
        if !(no_regions
            && op.attributes.len() == 1
            && op.operands.len() >= 3
            && self.types_are(&op.operands[..3], &[Type::i(32), Type::i(32), Type::i(32)])
            && self.types_are(&op.results, &[chain]))
        {
            return false;
        }
        self.bounds(&op.operands);
        self.out.push(' ');
        self.attr(callee);
        self.out.push('(');
        self.values(&op.operands[3..]);
        self.out.push(')');
        if op.operands.len() > 3 {
            self.out.push_str(" : ");
            self.value_types(&op.operands[3..]);
        }
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt.return %a : A`.
    pub(super) fn parse_return(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let uses = self.parse_use_list()?;
        if !uses.is_empty() {
            self.expect(Kind::Colon, "expected ':'")?;
            let at = self.tok;
            let types = self.parse_type_list()?;
            op.operands = self.resolve_all(&uses, &types, at)?;
        }
        Ok(Vec::new())
    }
}

impl Printer<'_> {
    /// Prints `tfrt.return %a : A`; `false` if `op` does not fit it.
    pub(super) fn print_return(&mut self, op: &Op) -> bool {
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions
            && op.results.is_empty()
            && op.attributes.is_empty()
            && (!op.operands.is_empty() || !self.next_has_results))
        {
            return false;
        }
        if !op.operands.is_empty() {
            self.out.push(' ');
            self.values(&op.operands);
            self.out.push_str(" : ");
            self.value_types(&op.operands);
        }
        true
    }
}
