//! Custom forms of the tensor and shape ops: prints, attribute operands and
//! results, and the ops whose definitions fix their types.

use super::*;

impl<'a> Parser<'a> {
    /// Parses `tfrt_dht.print_tensor %t, %ch attr-dict`.
    pub(super) fn parse_print_tensor(&mut self, op: &mut Op, t: Token) -> R<Vec<Type>> {
        let chain = self.chain.clone();
        self.fixed_operands(op, [&tensor_type(), &chain], t)?;
        self.opt_attr_dict(op)?;
        Ok(self.result_types([chain]))
    }
}

impl Printer<'_> {
    /// Prints `tfrt_dht.print_tensor %t, %ch attr-dict`; `false` if `op` does not fit it.
    pub(super) fn print_print_tensor(&mut self, op: &Op) -> bool {
        let chain = Type::chain();
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions
            && self.types_are(&op.operands, &[tensor_type(), chain.clone()])
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
    /// Parses `tfrt_dht.fill_tensor_with_constant.T %t, %ch $value attr-dict`.
    pub(super) fn parse_tensor_attr(
        &mut self,
        op: &mut Op,
        t: Token,
        attr: &'static str,
    ) -> R<Vec<Type>> {
        let chain = self.chain.clone();
        self.fixed_operands(op, [&tensor_type(), &chain], t)?;
        let value = self.parse_attribute()?;
        op.attributes.push((attr.into(), value));
        self.opt_attr_dict(op)?;
        Ok(self.result_types([chain]))
    }
}

impl Printer<'_> {
    /// Prints `tfrt_dht.fill_tensor_with_constant.T %t, %ch $value attr-dict`; `false` if `op` does not fit it.
    pub(super) fn print_tensor_attr(&mut self, op: &Op, attr: &&'static str) -> bool {
        let chain = Type::chain();
        let no_regions = op.regions.is_empty() && Self::plain(op);
        let Some(value) = find_attribute(&op.attributes, attr) else {
            return false;
        };
        if !(no_regions
            && self.types_are(&op.operands, &[tensor_type(), chain.clone()])
            && self.types_are(&op.results, &[chain]))
        {
            return false;
        }
        self.out.push(' ');
        self.values(&op.operands);
        self.out.push(' ');
        self.attr(value);
        self.attr_dict(&op.attributes, &[attr]);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `tfrt_dht.create_uninitialized_tensor.T.N $shape attr-dict`, `ts.build_shape $value attr-dict`.
    pub(super) fn parse_attr_result(
        &mut self,
        op: &mut Op,
        attr: &'static str,
        result: Produced,
    ) -> R<Vec<Type>> {
        let value = self.parse_attribute()?;
        op.attributes.push((attr.into(), value));
        self.opt_attr_dict(op)?;
        Ok(vec![produced_type(result)])
    }
}

impl Printer<'_> {
    /// Prints `tfrt_dht.create_uninitialized_tensor.T.N $shape attr-dict`, `ts.build_shape $value attr-dict`; `false` if `op` does not fit it.
    pub(super) fn print_attr_result(
        &mut self,
        op: &Op,
        attr: &&'static str,
        result: &Produced,
    ) -> bool {
        let no_regions = op.regions.is_empty() && Self::plain(op);
        let Some(value) = find_attribute(&op.attributes, attr) else {
            return false;
        };
        if !(no_regions
            && op.operands.is_empty()
            && self.types_are(&op.results, &[produced_type(*result)]))
        {
            return false;
        }
        self.out.push(' ');
        self.attr(value);
        self.attr_dict(&op.attributes, &[attr]);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `operands attr-dict`, types fixed by the definition (`ts.print_shape %s, %ch`).
    pub(super) fn parse_fixed(
        &mut self,
        op: &mut Op,
        t: Token,
        operands: Vec<Type>,
        results: Vec<Type>,
    ) -> R<Vec<Type>> {
        // Without operands the form is `attr-dict` alone: a `%x`
        // after it starts the next op.
        let uses = if operands.is_empty() {
            Vec::new()
        } else {
            self.parse_use_list()?
        };
        op.operands = self.resolve_all(&uses, &operands, t)?;
        self.opt_attr_dict(op)?;
        Ok(results)
    }
}

impl Printer<'_> {
    /// Prints `operands attr-dict`, types fixed by the definition (`ts.print_shape %s, %ch`); `false` if `op` does not fit it.
    pub(super) fn print_fixed(&mut self, op: &Op, operands: &[Type], results: &[Type]) -> bool {
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions
            && self.types_are(&op.operands, operands)
            && self.types_are(&op.results, results))
        {
            return false;
        }
        if !op.operands.is_empty() {
            self.out.push(' ');
            self.values(&op.operands);
        }
        self.attr_dict(&op.attributes, &[]);
        true
    }
}

impl<'a> Parser<'a> {
    /// Parses `$args attr-dict : type($args)` (`tfrt_test.test_cost %a {...} : i32`).
    pub(super) fn parse_typed_operands(&mut self, op: &mut Op, result: Type) -> R<Vec<Type>> {
        let uses = self.parse_use_list()?;
        self.opt_attr_dict(op)?;
        self.expect(Kind::Colon, "expected ':'")?;
        let at = self.tok;
        let types = if uses.is_empty() {
            Vec::new()
        } else {
            self.parse_type_list()?
        };
        op.operands = self.resolve_all(&uses, &types, at)?;
        Ok(vec![result])
    }
}

impl Printer<'_> {
    /// Prints `$args attr-dict : type($args)` (`tfrt_test.test_cost %a {...} : i32`); `false` if `op` does not fit it.
    pub(super) fn print_typed_operands(&mut self, op: &Op, result: &Type) -> bool {
        let no_regions = op.regions.is_empty() && Self::plain(op);
        if !(no_regions
            && !op.operands.is_empty()
            && self.types_are(&op.results, std::slice::from_ref(result)))
        {
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
