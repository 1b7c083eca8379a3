//! The custom op forms: ONE table (`lookup`) used by both the parser and
//! the printer, with each form's parse and print side by side so they
//! cannot drift apart. Attribute names are the ODS names of the reference
//! TFRT dialects (they end up in BEF files).
//!
//! `tfrt.constant.i1` stores `Attribute::Integer { value: 0 | 1, ty: i1 }`
//! and prints `true` / `false` (it accepts `0`, `1`, `true`, `false`).
//! Implicit region arguments of `tfrt.if` / `tfrt.repeat.i32` /
//! `tfrt.parallel_for.i32` get the location `Some(Location::Unknown)`.

use std::fmt::Write;

use super::lexer::Kind;
use super::num::format_float;
use super::parser::{EntryArg, Parser, R, Use};
use super::printer::{EntryMode, Printer};
use crate::ir::signatures::{fixed_signature, is_dtype, scalar_type, tensor_type};
use crate::ir::{Attribute, Block, Location, NamedAttribute, Op, Region, Type, find_attribute};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOut {
    /// `(T, T) -> T`
    Same,
    /// `(T, T) -> (T, T)` (`div`: quotient and remainder)
    Pair,
    /// `(T, T) -> i1` (comparisons)
    Bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Produced {
    /// `!t.tensor`
    Tensor,
    /// `!ts.shape`
    Shape,
    /// `!ts.partial_shape`
    PartialShape,
    /// `!corert.tensorhandle`
    TensorHandle,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Form {
    /// `tfrt.constant.T $value attr-dict`
    Constant(Type),
    /// `tfrt.new.chain attr-dict`
    NewChain,
    /// `tfrt.merge.chains $inputs attr-dict : type($inputs)`
    MergeChains,
    /// `tfrt.add.i32 %a, %b attr-dict`
    Binary {
        ty: Type,
        out: BinOut,
    },
    /// `tfrt.print.T %x, %ch attr-dict`
    Print(Type),
    /// `tfrt_dht.print_tensor %t, %ch attr-dict`
    PrintTensor,
    /// `tfrt_dht.fill_tensor_with_constant.T %t, %ch $value attr-dict`
    TensorAttr(&'static str),
    /// `tfrt_dht.create_uninitialized_tensor.T.N $shape attr-dict`,
    /// `ts.build_shape $value attr-dict`
    AttrResult {
        attr: &'static str,
        result: Produced,
    },
    /// `operands attr-dict` of an op whose operand and result types its
    /// definition fixes (`ts.print_shape %s, %ch`).
    Fixed {
        operands: Vec<Type>,
        results: Vec<Type>,
    },
    /// `$args attr-dict : type($args)` with a fixed result type
    /// (`tfrt_test.test_cost %a {...} : i32`).
    TypedOperands(Type),
    /// `tfrt_test.benchmark "name"(%a : T) key = 1, ... { body }`
    Benchmark,
    /// `tfrt_test.do.async %a, %b : (A, B) -> (R) { body }`
    DoAsync,
    Call,
    If,
    Repeat,
    ParallelFor,
    ParallelCall,
    Cond,
    Case,
    While,
    Once,
    Return,
    Func,
    Module,
}

const BINARY_OPS: [(&str, BinOut); 10] = [
    ("add", BinOut::Same),
    ("sub", BinOut::Same),
    ("mul", BinOut::Same),
    ("minimum", BinOut::Same),
    ("maximum", BinOut::Same),
    ("and", BinOut::Same),
    ("or", BinOut::Same),
    ("div", BinOut::Pair),
    ("equal", BinOut::Bool),
    ("lessequal", BinOut::Bool),
];

/// The form of a custom op written as `keyword`.
pub(crate) fn lookup(keyword: &str) -> Option<Form> {
    let form = match keyword {
        "func.func" | "func" => Form::Func,
        "module" => Form::Module,
        "return" | "func.return" | "tfrt.return" => Form::Return,
        "tfrt.new.chain" => Form::NewChain,
        "tfrt.merge.chains" => Form::MergeChains,
        "tfrt.call" => Form::Call,
        "tfrt.if" => Form::If,
        "tfrt.repeat.i32" => Form::Repeat,
        "tfrt.parallel_for.i32" => Form::ParallelFor,
        "tfrt.parallel_call.i32" => Form::ParallelCall,
        "tfrt.cond" => Form::Cond,
        "tfrt.case" => Form::Case,
        "tfrt.while" => Form::While,
        "tfrt.once" => Form::Once,
        "tfrt_dht.print_tensor" => Form::PrintTensor,
        "ts.build_shape" => Form::AttrResult {
            attr: "value",
            result: Produced::Shape,
        },
        "ts.build_partial_shape" => Form::AttrResult {
            attr: "value",
            result: Produced::PartialShape,
        },
        "corert.const_dense_tensor" => Form::AttrResult {
            attr: "value",
            result: Produced::TensorHandle,
        },
        "tfrt_test.test_cost" => Form::TypedOperands(Type::i(32)),
        "tfrt_test.benchmark" => Form::Benchmark,
        "tfrt_test.do.async" => Form::DoAsync,
        _ => {
            if let Some((operands, results)) = fixed_signature(keyword) {
                return Some(Form::Fixed { operands, results });
            }
            if let Some(t) = keyword.strip_prefix("tfrt.constant.") {
                return scalar_type(t).map(Form::Constant);
            }
            if let Some(t) = keyword.strip_prefix("tfrt.print.") {
                return scalar_type(t)
                    .filter(|t| {
                        matches!(t, Type::Integer { .. }) || *t == Type::f32() || *t == Type::f64()
                    })
                    .filter(|t| {
                        !matches!(
                            t,
                            Type::Integer {
                                signedness: crate::ir::Signedness::Unsigned,
                                ..
                            }
                        )
                    })
                    .map(Form::Print);
            }
            if let Some(rest) = keyword.strip_prefix("tfrt_dht.") {
                if let Some(r) = rest.strip_prefix("create_uninitialized_tensor.") {
                    let (dtype, rank) = r.split_once('.')?;
                    return (is_dtype(dtype)
                        && !rank.is_empty()
                        && rank.bytes().all(|c| c.is_ascii_digit()))
                    .then_some(Form::AttrResult {
                        attr: "shape",
                        result: Produced::Tensor,
                    });
                }
                if let Some(d) = rest.strip_prefix("fill_tensor_with_constant.") {
                    return is_dtype(d).then_some(Form::TensorAttr("value"));
                }
                if let Some(d) = rest.strip_prefix("set_tensor_with_constant_values.") {
                    return is_dtype(d).then_some(Form::TensorAttr("values"));
                }
                return None;
            }
            let (op, ty) = keyword.strip_prefix("tfrt.")?.split_once('.')?;
            let out = BINARY_OPS.iter().find(|(n, _)| *n == op)?.1;
            let ty = scalar_type(ty).filter(|t| {
                *t == Type::i(1)
                    || *t == Type::i(32)
                    || *t == Type::i(64)
                    || *t == Type::f32()
                    || *t == Type::f64()
            })?;
            return Some(Form::Binary { ty, out });
        }
    };
    Some(form)
}

/// The op name a custom keyword stands for.
pub(crate) fn op_name(keyword: &str) -> &str {
    match keyword {
        "func" | "func.func" => crate::ir::FUNC_OP,
        "module" => crate::ir::MODULE_OP,
        "return" => "func.return",
        k => k,
    }
}

/// The keyword the printer writes for an op name.
pub(crate) fn keyword_for(name: &str) -> &str {
    match name {
        crate::ir::MODULE_OP => "module",
        "func.return" => "return",
        n => n,
    }
}

fn produced_type(p: Produced) -> Type {
    match p {
        Produced::Tensor => tensor_type(),
        Produced::Shape => Type::dialect("ts", "shape"),
        Produced::PartialShape => Type::dialect("ts", "partial_shape"),
        Produced::TensorHandle => Type::dialect("corert", "tensorhandle"),
    }
}

fn binary_results(ty: &Type, out: BinOut) -> Vec<Type> {
    match out {
        BinOut::Same => vec![ty.clone()],
        BinOut::Pair => vec![ty.clone(), ty.clone()],
        BinOut::Bool => vec![Type::i(1)],
    }
}

// ============================ parsing =====================================

impl<'a> Parser<'a> {
    /// A custom-form op at the current (bare identifier) token.
    pub(crate) fn parse_custom_op(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let t = self.tok;
        let keyword = self.text(t);
        let form = match self.custom_forms.get(keyword) {
            Some(form) => form.clone(),
            None => {
                let form = lookup(keyword)
                    .ok_or_else(|| self.err(t, format!("custom op '{keyword}' is unknown")))?;
                self.custom_forms.insert(keyword, form.clone());
                form
            }
        };
        self.bump()?;
        op.name = op_name(keyword).to_string();
        let results = match form {
            Form::Constant(ty) => {
                let value = self.parse_constant_value(&ty)?;
                op.attributes.push(("value".into(), value));
                self.opt_attr_dict(op)?;
                self.result_types([ty])
            }
            Form::NewChain => {
                self.opt_attr_dict(op)?;
                self.result_types([self.chain.clone()])
            }
            Form::MergeChains => {
                let uses = self.parse_use_list()?;
                if uses.is_empty() {
                    return Err(self.err_here("expected SSA operand"));
                }
                self.opt_attr_dict(op)?;
                self.expect(Kind::Colon, "expected ':'")?;
                let at = self.tok;
                let types = self.parse_type_list()?;
                op.operands = self.resolve_all(&uses, &types, at)?;
                self.result_types([self.chain.clone()])
            }
            Form::Binary { ty, out } => {
                self.fixed_operands(op, [&ty, &ty], t)?;
                self.opt_attr_dict(op)?;
                match out {
                    BinOut::Same => self.result_types([ty]),
                    _ => binary_results(&ty, out),
                }
            }
            Form::Print(ty) => {
                let chain = self.chain.clone();
                self.fixed_operands(op, [&ty, &chain], t)?;
                self.opt_attr_dict(op)?;
                self.result_types([chain])
            }
            Form::PrintTensor => {
                let chain = self.chain.clone();
                self.fixed_operands(op, [&tensor_type(), &chain], t)?;
                self.opt_attr_dict(op)?;
                self.result_types([chain])
            }
            Form::TensorAttr(attr) => {
                let chain = self.chain.clone();
                self.fixed_operands(op, [&tensor_type(), &chain], t)?;
                let value = self.parse_attribute()?;
                op.attributes.push((attr.into(), value));
                self.opt_attr_dict(op)?;
                self.result_types([chain])
            }
            Form::AttrResult { attr, result } => {
                let value = self.parse_attribute()?;
                op.attributes.push((attr.into(), value));
                self.opt_attr_dict(op)?;
                vec![produced_type(result)]
            }
            Form::Fixed { operands, results } => {
                // Without operands the form is `attr-dict` alone: a `%x`
                // after it starts the next op.
                let uses = if operands.is_empty() {
                    Vec::new()
                } else {
                    self.parse_use_list()?
                };
                op.operands = self.resolve_all(&uses, &operands, t)?;
                self.opt_attr_dict(op)?;
                results
            }
            Form::TypedOperands(result) => {
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
                vec![result]
            }
            Form::Benchmark => {
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
                vec![self.chain.clone()]
            }
            Form::DoAsync => {
                let uses = self.parse_use_list()?;
                self.opt_attributes_keyword(op)?;
                let (inputs, results) = self.colon_function_type()?;
                op.operands = self.resolve_all(&uses, &inputs, t)?;
                op.regions
                    .push(self.parse_region(true, Some(implicit_args(&uses, &inputs)))?);
                results
            }
            Form::Call => {
                let callee = self.parse_symbol_attr()?;
                op.attributes.push(("callee".into(), callee));
                let uses = self.paren_uses()?;
                self.opt_attr_dict(op)?;
                let (inputs, results) = self.colon_function_type()?;
                op.operands = self.resolve_all(&uses, &inputs, t)?;
                results
            }
            Form::Once => {
                let f = self.parse_symbol_attr()?;
                op.attributes.push(("function".into(), f));
                let uses = self.paren_uses()?;
                self.opt_attr_dict(op)?;
                let (inputs, results) = self.colon_function_type()?;
                op.operands = self.resolve_all(&uses, &inputs, t)?;
                results
            }
            Form::Cond => {
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
                results
            }
            Form::Case => {
                let index = self.parse_use()?;
                let branches = self.parse_attribute()?;
                op.attributes.push(("branches".into(), branches));
                let uses = self.paren_uses()?;
                self.opt_attr_dict(op)?;
                let (inputs, results) = self.colon_function_type()?;
                op.operands.push(self.resolve(&index, &Type::i(32))?);
                op.operands.extend(self.resolve_all(&uses, &inputs, t)?);
                results
            }
            Form::While => {
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
                results
            }
            Form::ParallelCall => {
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
                vec![self.chain.clone()]
            }
            Form::Return => {
                let uses = self.parse_use_list()?;
                if !uses.is_empty() {
                    self.expect(Kind::Colon, "expected ':'")?;
                    let at = self.tok;
                    let types = self.parse_type_list()?;
                    op.operands = self.resolve_all(&uses, &types, at)?;
                }
                Vec::new()
            }
            Form::If => {
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
                        return Err(
                            self.err_here("expected 'else' in 'tfrt.if' with result values")
                        );
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
                results
            }
            Form::Repeat => {
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
                types
            }
            Form::ParallelFor => {
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
                vec![self.chain.clone()]
            }
            Form::Func => {
                self.parse_func_body(op)?;
                Vec::new()
            }
            Form::Module => {
                if self.at(Kind::AtId) {
                    let name = self.parse_symbol_name()?;
                    op.attributes
                        .push(("sym_name".into(), Attribute::string(&name)));
                }
                self.opt_attributes_keyword(op)?;
                let mut region = self.parse_region(true, None)?;
                if region.blocks.is_empty() {
                    region.blocks.push(Block::default());
                }
                op.regions.push(region);
                Vec::new()
            }
        };
        Ok(results)
    }

    fn parse_constant_value(&mut self, ty: &Type) -> R<Attribute> {
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

    fn add_attr(
        &self,
        op: &mut Op,
        name: &str,
        value: Attribute,
        at: super::lexer::Token,
    ) -> R<()> {
        if find_attribute(&op.attributes, name).is_some() {
            return Err(self.err(at, format!("duplicate attribute '{name}'")));
        }
        op.set_attribute(name, value);
        Ok(())
    }

    /// Sorts the form's own attributes and merges an optional `{...}`.
    fn opt_attr_dict(&mut self, op: &mut Op) -> R<()> {
        op.attributes.sort_by(|a, b| a.0.cmp(&b.0));
        if self.at(Kind::LBrace) {
            let at = self.tok;
            for (k, v) in self.parse_attr_dict()? {
                self.add_attr(op, &k, v, at)?;
            }
        }
        Ok(())
    }

    /// `attributes {...}` (as `tfrt.if` and `module` write it).
    fn opt_attributes_keyword(&mut self, op: &mut Op) -> R<()> {
        op.attributes.sort_by(|a, b| a.0.cmp(&b.0));
        if self.at_keyword("attributes") {
            self.bump()?;
            let at = self.tok;
            for (k, v) in self.parse_attr_dict()? {
                self.add_attr(op, &k, v, at)?;
            }
        }
        Ok(())
    }

    /// `%a, %b` of the forms with two operands of known types (most ops
    /// come here), resolved without building a list of types.
    fn fixed_operands(&mut self, op: &mut Op, types: [&Type; 2], at: super::lexer::Token) -> R<()> {
        // The uses are kept in place, not listed: any count but two is an
        // error, for which the rest are only parsed and counted.
        let mut pair: [Option<Use<'a>>; 2] = [None; 2];
        let mut count = 0;
        if self.tok.kind == Kind::PercentId {
            loop {
                let u = self.parse_use()?;
                if let Some(slot) = pair.get_mut(count) {
                    *slot = Some(u);
                }
                count += 1;
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
        }
        match pair {
            [Some(a), Some(b)] if count == 2 => {
                let a = self.resolve(&a, types[0])?;
                let b = self.resolve(&b, types[1])?;
                op.operands = vec![a, b];
                Ok(())
            }
            _ => Err(self.operand_count_error(at, count, 2)),
        }
    }

    fn parse_symbol_attr(&mut self) -> R<Attribute> {
        if !self.at(Kind::AtId) {
            return Err(self.err_here("expected symbol reference attribute"));
        }
        self.parse_attribute()
    }

    fn paren_uses(&mut self) -> R<Vec<Use<'a>>> {
        self.expect(Kind::LParen, "expected '('")?;
        let uses = self.parse_use_list()?;
        self.expect(Kind::RParen, "expected ')'")?;
        Ok(uses)
    }

    fn colon_function_type(&mut self) -> R<(Vec<Type>, Vec<Type>)> {
        self.expect(Kind::Colon, "expected ':'")?;
        let at = self.tok;
        match self.parse_type()? {
            Type::Function { inputs, results } => Ok((inputs, results)),
            _ => Err(self.err(at, "expected function type")),
        }
    }

    /// `%start to %end fixed %block`
    fn parse_bounds(&mut self) -> R<[Use<'a>; 3]> {
        let start = self.parse_use()?;
        self.expect_keyword("to")?;
        let end = self.parse_use()?;
        self.expect_keyword("fixed")?;
        let block = self.parse_use()?;
        Ok([start, end, block])
    }

    /// `[visibility] @name(args) [-> results] [attributes {...}] [{body}]`
    fn parse_func_body(&mut self, op: &mut Op) -> R<()> {
        let mut extra: Vec<NamedAttribute> = Vec::new();
        if self.at(Kind::BareId) && matches!(self.text(self.tok), "private" | "public" | "nested") {
            extra.push((
                "sym_visibility".into(),
                Attribute::string(self.text(self.tok)),
            ));
            self.bump()?;
        }
        let name = self.parse_symbol_name()?;
        extra.push(("sym_name".into(), Attribute::string(&name)));
        self.expect(Kind::LParen, "expected '(' in function signature")?;
        let mut entry: Vec<EntryArg<'a>> = Vec::new();
        let mut inputs = Vec::new();
        let mut arg_attrs = Vec::new();
        let mut named: Option<bool> = None;
        if !self.at(Kind::RParen) {
            loop {
                let at = self.tok;
                let is_named = at.kind == Kind::PercentId;
                if *named.get_or_insert(is_named) != is_named {
                    return Err(self.err_here(if is_named {
                        "expected type instead of SSA identifier"
                    } else {
                        "expected SSA identifier"
                    }));
                }
                let u = if is_named {
                    let u = self.parse_use()?;
                    if u.end != at.end {
                        return Err(self.err(at, "invalid argument name"));
                    }
                    self.expect(Kind::Colon, "expected ':'")?;
                    Some(u)
                } else {
                    None
                };
                let ty = self.parse_type()?;
                let attrs = if self.at(Kind::LBrace) {
                    self.parse_attr_dict()?
                } else {
                    Vec::new()
                };
                if let Some(u) = u {
                    let loc = if self.at_keyword("loc") {
                        self.parse_trailing_loc()?
                    } else {
                        self.loc_at(at)
                    };
                    entry.push(EntryArg {
                        name: u.name,
                        idx: 0,
                        tok: at,
                        ty: ty.clone(),
                        loc,
                    });
                }
                inputs.push(ty);
                arg_attrs.push(attrs);
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
        }
        self.expect(Kind::RParen, "expected ')' in function signature")?;
        let mut results = Vec::new();
        let mut res_attrs = Vec::new();
        if self.eat(Kind::Arrow)? {
            if self.eat(Kind::LParen)? {
                if !self.at(Kind::RParen) {
                    loop {
                        results.push(self.parse_type()?);
                        res_attrs.push(if self.at(Kind::LBrace) {
                            self.parse_attr_dict()?
                        } else {
                            Vec::new()
                        });
                        if !self.eat(Kind::Comma)? {
                            break;
                        }
                    }
                }
                self.expect(Kind::RParen, "expected ')' in function result list")?;
            } else {
                let at = self.tok;
                let ty = self.parse_type()?;
                if matches!(ty, Type::Function { .. }) {
                    return Err(self.err(at, "expected non-function type"));
                }
                results.push(ty);
                res_attrs.push(Vec::new());
            }
        }
        let dict_list = |dicts: Vec<Vec<NamedAttribute>>| {
            dicts
                .iter()
                .any(|d| !d.is_empty())
                .then(|| Attribute::Array(dicts.into_iter().map(Attribute::Dictionary).collect()))
        };
        if let Some(a) = dict_list(arg_attrs) {
            extra.push(("arg_attrs".into(), a));
        }
        if let Some(a) = dict_list(res_attrs) {
            extra.push(("res_attrs".into(), a));
        }
        extra.push((
            "function_type".into(),
            Attribute::Type(Type::Function { inputs, results }),
        ));
        op.attributes = extra;
        self.opt_attributes_keyword(op)?;
        let region = if self.at(Kind::LBrace) {
            if named == Some(false) {
                return Err(self.err_here("expected named arguments for a function with a body"));
            }
            self.parse_region(true, Some(entry))?
        } else {
            Region::default()
        };
        op.regions.push(region);
        Ok(())
    }
}

fn implicit_args<'a>(uses: &[Use<'a>], types: &[Type]) -> Vec<EntryArg<'a>> {
    uses.iter()
        .zip(types)
        .map(|(u, ty)| EntryArg {
            name: u.name,
            idx: u.idx,
            tok: u.tok,
            ty: ty.clone(),
            loc: Location::Unknown,
        })
        .collect()
}

// ============================ printing ====================================

fn implicit_loc_ok(loc: &Option<Location>) -> bool {
    matches!(loc, None | Some(Location::Unknown))
}

impl Printer<'_> {
    fn types_are(&self, values: &[crate::ir::ValueId], types: &[Type]) -> bool {
        values.len() == types.len()
            && values
                .iter()
                .zip(types)
                .all(|(v, t)| self.m.value_type(*v) == t)
    }

    fn plain(op: &Op) -> bool {
        op.successors.is_empty() && op.properties.is_none()
    }

    /// Operands of an isolated custom form that its region's entry block
    /// arguments shadow, when the op can print that way.
    pub(crate) fn shadow_operands(&self, op: &Op, form: &Form) -> Option<Vec<crate::ir::ValueId>> {
        if !Self::plain(op) {
            return None;
        }
        let (names, regions): (Vec<crate::ir::ValueId>, usize) = match form {
            Form::If => {
                let (c, rest) = op.operands.split_first()?;
                if self.m.value_type(*c) != &Type::i(1) {
                    return None;
                }
                (rest.to_vec(), 2)
            }
            Form::Repeat => {
                let (c, rest) = op.operands.split_first()?;
                if self.m.value_type(*c) != &Type::i(32) {
                    return None;
                }
                let tys: Vec<Type> = rest.iter().map(|v| self.m.value_type(*v).clone()).collect();
                if !self.types_are(&op.results, &tys) {
                    return None;
                }
                (rest.to_vec(), 1)
            }
            Form::ParallelFor => {
                if op.operands.len() < 3
                    || !self.types_are(&op.operands[..3], &[Type::i(32), Type::i(32), Type::i(32)])
                    || !self.types_are(&op.results, std::slice::from_ref(&Type::chain()))
                    || !op.attributes.is_empty()
                {
                    return None;
                }
                let mut names = vec![op.operands[0], op.operands[1]];
                names.extend_from_slice(&op.operands[3..]);
                (names, 1)
            }
            Form::Benchmark | Form::DoAsync => {
                if !self.types_are(&op.results, std::slice::from_ref(&Type::chain()))
                    && *form == Form::Benchmark
                {
                    return None;
                }
                (op.operands.clone(), 1)
            }
            _ => return None,
        };
        if op.regions.len() != regions {
            return None;
        }
        let arg_types: Vec<Type> = names
            .iter()
            .map(|v| self.m.value_type(*v).clone())
            .collect();
        for region in &op.regions {
            let block = region.single_block()?;
            if !self.types_are(&block.arguments, &arg_types) {
                return None;
            }
            if self.opts.debug_info
                && !block
                    .arguments
                    .iter()
                    .all(|a| implicit_loc_ok(&self.m.values[a.index()].location))
            {
                return None;
            }
            if !region_is_isolated(region) {
                return None;
            }
        }
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        (sorted.len() == names.len()).then_some(names)
    }

    /// Writes `op` (after its results) in its custom form; `false` when the
    /// op does not match the form exactly (the caller prints it generic).
    pub(crate) fn print_custom(&mut self, op: &Op, form: &Form) -> bool {
        let chain = Type::chain();
        let no_regions = op.regions.is_empty() && Self::plain(op);
        match form {
            Form::Constant(ty) => {
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
            }
            Form::NewChain => {
                if !(no_regions && op.operands.is_empty() && self.types_are(&op.results, &[chain]))
                {
                    return false;
                }
                self.attr_dict(&op.attributes, &[]);
            }
            Form::MergeChains => {
                if !(no_regions && !op.operands.is_empty() && self.types_are(&op.results, &[chain]))
                {
                    return false;
                }
                self.out.push(' ');
                self.values(&op.operands);
                self.attr_dict(&op.attributes, &[]);
                self.out.push_str(" : ");
                self.value_types(&op.operands);
            }
            Form::Binary { ty, out } => {
                if !(no_regions
                    && self.types_are(&op.operands, &[ty.clone(), ty.clone()])
                    && self.types_are(&op.results, &binary_results(ty, *out)))
                {
                    return false;
                }
                self.out.push(' ');
                self.values(&op.operands);
                self.attr_dict(&op.attributes, &[]);
            }
            Form::Print(ty) => {
                if !(no_regions
                    && self.types_are(&op.operands, &[ty.clone(), chain.clone()])
                    && self.types_are(&op.results, &[chain]))
                {
                    return false;
                }
                self.out.push(' ');
                self.values(&op.operands);
                self.attr_dict(&op.attributes, &[]);
            }
            Form::PrintTensor => {
                if !(no_regions
                    && self.types_are(&op.operands, &[tensor_type(), chain.clone()])
                    && self.types_are(&op.results, &[chain]))
                {
                    return false;
                }
                self.out.push(' ');
                self.values(&op.operands);
                self.attr_dict(&op.attributes, &[]);
            }
            Form::TensorAttr(attr) => {
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
            }
            Form::AttrResult { attr, result } => {
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
            }
            Form::Fixed { operands, results } => {
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
            }
            Form::TypedOperands(result) => {
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
            }
            Form::Benchmark => {
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
                        .all(|(k, _)| super::lexer::is_bare_identifier(k))
                    && self.types_are(&op.results, &[chain]))
                {
                    return false;
                }
                self.out.push(' ');
                super::printer::write_string(&mut self.out, name);
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
            }
            Form::DoAsync => {
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
            }
            Form::Call | Form::Once => {
                let key = if *form == Form::Call {
                    "callee"
                } else {
                    "function"
                };
                let Some(callee @ Attribute::SymbolRef { .. }) =
                    find_attribute(&op.attributes, key)
                else {
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
            }
            Form::Cond | Form::Case | Form::While => {
                let (first_ty, keys): (Type, &[&str]) = match form {
                    Form::Cond => (Type::i(1), &["a_true_fn", "b_false_fn"]),
                    Form::Case => (Type::i(32), &["branches"]),
                    _ => (Type::i(1), &["body_fn", "parallel_iterations"]),
                };
                if !no_regions
                    || op.operands.is_empty()
                    || self.m.value_type(op.operands[0]) != &first_ty
                {
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
            }
            Form::ParallelCall => {
                let Some(callee @ Attribute::SymbolRef { .. }) =
                    find_attribute(&op.attributes, "callee")
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
            }
            Form::Return => {
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
            }
            Form::If | Form::Repeat | Form::ParallelFor => {
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
            }
            Form::Func => return self.print_func(op),
            Form::Module => {
                if !(Self::plain(op)
                    && op.operands.is_empty()
                    && op.results.is_empty()
                    && op.regions.len() == 1
                    && op.regions[0].blocks.len() == 1
                    && op.regions[0].blocks[0].arguments.is_empty())
                {
                    return false;
                }
                let mut skip: Vec<&str> = Vec::new();
                if let Some(Attribute::String { value, ty: None }) =
                    find_attribute(&op.attributes, "sym_name")
                    && let Ok(name) = std::str::from_utf8(value)
                {
                    self.out.push(' ');
                    self.symbol(name);
                    skip.push("sym_name");
                }
                self.attributes_keyword(&op.attributes, &skip);
                self.out.push(' ');
                self.region(&op.regions[0], EntryMode::ModuleBody);
            }
        }
        true
    }

    fn bounds(&mut self, operands: &[crate::ir::ValueId]) {
        self.out.push(' ');
        self.value(operands[0]);
        self.out.push_str(" to ");
        self.value(operands[1]);
        self.out.push_str(" fixed ");
        self.value(operands[2]);
    }

    fn print_func(&mut self, op: &Op) -> bool {
        if !(Self::plain(op)
            && op.operands.is_empty()
            && op.results.is_empty()
            && op.regions.len() == 1)
        {
            return false;
        }
        let name = match find_attribute(&op.attributes, "sym_name") {
            Some(Attribute::String { value, ty: None }) => match std::str::from_utf8(value) {
                Ok(n) => n,
                Err(_) => return false,
            },
            _ => return false,
        };
        let Some(Attribute::Type(Type::Function { inputs, results })) =
            find_attribute(&op.attributes, "function_type")
        else {
            return false;
        };
        let mut skip = vec!["sym_name", "function_type"];
        let visibility = match find_attribute(&op.attributes, "sym_visibility") {
            Some(Attribute::String { value, ty: None })
                if matches!(value.as_slice(), b"private" | b"public" | b"nested") =>
            {
                skip.push("sym_visibility");
                std::str::from_utf8(value).ok()
            }
            _ => None,
        };
        let dicts = |key: &str, n: usize| match find_attribute(&op.attributes, key) {
            Some(Attribute::Array(items))
                if items.len() == n
                    && items.iter().all(|i| matches!(i, Attribute::Dictionary(_)))
                    && items
                        .iter()
                        .any(|i| matches!(i, Attribute::Dictionary(d) if !d.is_empty())) =>
            {
                Some(items.as_slice())
            }
            _ => None,
        };
        let arg_attrs = dicts("arg_attrs", inputs.len());
        let res_attrs = dicts("res_attrs", results.len());
        if arg_attrs.is_some() {
            skip.push("arg_attrs");
        }
        if res_attrs.is_some() {
            skip.push("res_attrs");
        }
        let region = &op.regions[0];
        let entry = region.blocks.first();
        if let Some(entry) = entry
            && !self.types_are(&entry.arguments, inputs)
        {
            return false;
        }
        self.out.push(' ');
        if let Some(v) = visibility {
            self.out.push_str(v);
            self.out.push(' ');
        }
        self.symbol(name);
        self.out.push('(');
        for (i, ty) in inputs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if let Some(entry) = entry {
                let arg = entry.arguments[i];
                self.value(arg);
                self.out.push_str(": ");
                let _ = write!(self.out, "{ty}");
                if let Some(Attribute::Dictionary(d)) = arg_attrs.map(|a| &a[i])
                    && !d.is_empty()
                {
                    self.out.push(' ');
                    self.attr(&arg_attrs.expect("some")[i]);
                }
                if self.opts.debug_info
                    && let Some(loc) = &self.m.values[arg.index()].location
                {
                    self.out.push(' ');
                    self.out.push_str(&super::printer::location_string(loc));
                }
            } else {
                let _ = write!(self.out, "{ty}");
                if let Some(Attribute::Dictionary(d)) = arg_attrs.map(|a| &a[i])
                    && !d.is_empty()
                {
                    self.out.push(' ');
                    self.attr(&arg_attrs.expect("some")[i]);
                }
            }
        }
        self.out.push(')');
        let single = results.len() == 1
            && !matches!(results[0], Type::Function { .. })
            && res_attrs.is_none();
        if single {
            let _ = write!(self.out, " -> {}", results[0]);
        } else if !results.is_empty() {
            self.out.push_str(" -> (");
            for (i, ty) in results.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                let _ = write!(self.out, "{ty}");
                if let Some(Attribute::Dictionary(d)) = res_attrs.map(|a| &a[i])
                    && !d.is_empty()
                {
                    self.out.push(' ');
                    self.attr(&res_attrs.expect("some")[i]);
                }
            }
            self.out.push(')');
        }
        self.attributes_keyword(&op.attributes, &skip);
        if entry.is_some() {
            self.out.push(' ');
            self.region(region, EntryMode::Implicit);
        }
        true
    }
}

/// Whether every operand used in `region` (at any depth) is defined inside
/// it.
pub(crate) fn region_is_isolated(region: &Region) -> bool {
    let mut defined = rustc_hash::FxHashSet::default();
    let mut used = Vec::new();
    let mut stack: Vec<&Region> = vec![region];
    while let Some(r) = stack.pop() {
        for block in &r.blocks {
            defined.extend(block.arguments.iter().copied());
            for op in &block.ops {
                defined.extend(op.results.iter().copied());
                used.extend(op.operands.iter().copied());
                stack.extend(op.regions.iter());
            }
        }
    }
    used.iter().all(|v| defined.contains(v))
}
