//! The custom op forms: ONE table (`lookup`) used by both the parser and
//! the printer. Each form's parse and print functions sit side by side, by
//! op family: `scalars` (constants, chains, binary operators, prints),
//! `tensors`, `calls` (function calls and `tfrt.return`), `regions` (ops
//! whose regions' arguments shadow their operands) and `modules`
//! (`func.func`, `builtin.module`); this file dispatches on the form.
//! Attribute names are the ODS names of the reference TFRT dialects (they
//! end up in BEF files).
//!
//! `tfrt.constant.i1` stores `Attribute::Integer { value: 0 | 1, ty: i1 }`
//! and prints `true` / `false` (it accepts `0`, `1`, `true`, `false`).
//! Implicit region arguments of `tfrt.if` / `tfrt.repeat.i32` /
//! `tfrt.parallel_for.i32` get the location `Some(Location::Unknown)`.

mod calls;
mod modules;
mod regions;
mod scalars;
mod tensors;

use std::fmt::Write;

use super::lexer::{Kind, Token};
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
            Form::Constant(ty) => self.parse_constant(op, ty)?,
            Form::NewChain => self.parse_new_chain(op)?,
            Form::MergeChains => self.parse_merge_chains(op)?,
            Form::Binary { ty, out } => self.parse_binary(op, t, ty, out)?,
            Form::Print(ty) => self.parse_scalar_print(op, t, ty)?,
            Form::PrintTensor => self.parse_print_tensor(op, t)?,
            Form::TensorAttr(attr) => self.parse_tensor_attr(op, t, attr)?,
            Form::AttrResult { attr, result } => self.parse_attr_result(op, attr, result)?,
            Form::Fixed { operands, results } => self.parse_fixed(op, t, operands, results)?,
            Form::TypedOperands(result) => self.parse_typed_operands(op, result)?,
            Form::Call => self.parse_call(op, t)?,
            Form::Once => self.parse_once(op, t)?,
            Form::Cond => self.parse_cond(op, t)?,
            Form::Case => self.parse_case(op, t)?,
            Form::While => self.parse_while(op, t)?,
            Form::ParallelCall => self.parse_parallel_call(op)?,
            Form::Return => self.parse_return(op)?,
            Form::If => self.parse_if(op, t)?,
            Form::Repeat => self.parse_repeat(op)?,
            Form::ParallelFor => self.parse_parallel_for(op)?,
            Form::Benchmark => self.parse_benchmark(op)?,
            Form::DoAsync => self.parse_do_async(op, t)?,
            Form::Module => self.parse_module(op)?,
            Form::Func => {
                self.parse_func_body(op)?;
                Vec::new()
            }
        };
        Ok(results)
    }

    fn add_attr(&self, op: &mut Op, name: &str, value: Attribute, at: Token) -> R<()> {
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
    fn fixed_operands(&mut self, op: &mut Op, types: [&Type; 2], at: Token) -> R<()> {
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

fn implicit_loc_ok(loc: Option<&Location>) -> bool {
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
                    .all(|a| implicit_loc_ok(self.m.values[a.index()].location.as_deref()))
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
        match form {
            Form::Constant(ty) => self.print_constant(op, ty),
            Form::NewChain => self.print_new_chain(op),
            Form::MergeChains => self.print_merge_chains(op),
            Form::Binary { ty, out } => self.print_binary(op, ty, out),
            Form::Print(ty) => self.print_scalar_print(op, ty),
            Form::PrintTensor => self.print_print_tensor(op),
            Form::TensorAttr(attr) => self.print_tensor_attr(op, attr),
            Form::AttrResult { attr, result } => self.print_attr_result(op, attr, result),
            Form::Fixed { operands, results } => self.print_fixed(op, operands, results),
            Form::TypedOperands(result) => self.print_typed_operands(op, result),
            Form::Call | Form::Once => self.print_call(op, form),
            Form::Cond | Form::Case | Form::While => self.print_conditional_call(op, form),
            Form::ParallelCall => self.print_parallel_call(op),
            Form::Return => self.print_return(op),
            Form::If | Form::Repeat | Form::ParallelFor => self.print_implicit_region_op(op, form),
            Form::Benchmark => self.print_benchmark(op),
            Form::DoAsync => self.print_do_async(op),
            Form::Module => self.print_module(op),
            Form::Func => self.print_func(op),
        }
    }

    fn bounds(&mut self, operands: &[crate::ir::ValueId]) {
        self.out.push(' ');
        self.value(operands[0]);
        self.out.push_str(" to ");
        self.value(operands[1]);
        self.out.push_str(" fixed ");
        self.value(operands[2]);
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
