//! The op verifier `bef opt` runs after parsing and after every pass, as
//! MLIR verifies each op against its definition. It checks what the
//! reference's definitions of the TFRT ops say, with their messages:
//!
//! - operand and result counts and types, and required attributes, of the
//!   ops the reference registers with fixed types (constants, arithmetic,
//!   prints, chains, `tfrt_test.test_cost`, `ts.build_shape`, ...), in
//!   MLIR's words (`'ts.build_shape' op result #0 must be !ts.shape type,
//!   but got 'i64'`);
//! - `tfrt.return` and `func.return` against the enclosing function's
//!   result types, and being last in their block;
//! - `tfrt.call`, `tfrt.cond` and `tfrt.parallel_call.i32` against the
//!   functions they name;
//! - the regions of `tfrt.if`, `tfrt.repeat.i32`, `tfrt.parallel_for.i32`
//!   and `tfrt_test.do.async`: one block each, ending in a `tfrt.return`
//!   of the op's result types; a `tfrt_test.benchmark` body returning one
//!   value;
//! - function bodies against their signatures, and symbol names being
//!   unique in their module;
//! - cost annotations (`_tfrt_cost`) being positive;
//! - ops of the `tfrt` and `tfrt_test` dialects being isolated from
//!   above: their regions use only values defined inside them.
//!
//! Ops it does not know pass unchecked, as in the reference, whose `tfrt`
//! dialect allows unknown ops. Like MLIR, verification stops at the first
//! problem (parents are checked before what they contain).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::signatures::{AttrKind, Operands, Signature, signature};
use crate::ir::{
    Attribute, Block, Diagnostic, FUNC_OP, FloatKind, Func, MODULE_OP, Module, Op, Region,
    Signedness, Type, ValueId,
};

/// The dialects the reference `tfrt_opt` registers (with `builtin` and
/// `func`). Ops of other dialects need `--allow-unregistered-dialect`.
pub const REGISTERED_DIALECTS: &[&str] = &[
    "builtin",
    "func",
    "tfrt",
    "tfrt_test",
    "tfrt_dht",
    "tfrt_dht_sync",
    "tfrt_tensor",
    "t",
    "ts",
    "coo",
    "ht",
    "tfrt_ht",
    "corert",
    "corert_sync",
    "tfrt_data",
    "tfrt_dist",
    "cpurt",
    "rt",
];

/// Rejects the first op of a dialect that is not registered, with MLIR's
/// message, and the first value of a dialect type that is not.
pub fn check_registered_dialects(module: &Module) -> Result<(), Diagnostic> {
    let mut stack = vec![&module.op];
    while let Some(op) = stack.pop() {
        let dialect = op.name.split_once('.').map_or("", |(d, _)| d);
        if !REGISTERED_DIALECTS.contains(&dialect) {
            return Err(Diagnostic::new(
                op.location.clone(),
                "operation being parsed with an unregistered dialect. If this is intended, \
                 please use -allow-unregistered-dialect with the MLIR tool used",
            ));
        }
        let defined = op.results.iter().chain(
            op.regions
                .iter()
                .flat_map(|r| r.blocks.iter().flat_map(|b| b.arguments.iter())),
        );
        for &v in defined {
            if let Some(Type::Dialect { dialect, .. }) = module.values.get(v.index()).map(|d| &d.ty)
                && !REGISTERED_DIALECTS.contains(&&**dialect)
            {
                return Err(Diagnostic::new(
                    op.location.clone(),
                    format!(
                        "dialect '{dialect}' of type '{}' is not registered \
                         (use -allow-unregistered-dialect)",
                        module.values[v.index()].ty
                    ),
                ));
            }
        }
        for region in op.regions.iter().rev() {
            for block in region.blocks.iter().rev() {
                stack.extend(block.ops.iter().rev());
            }
        }
    }
    Ok(())
}

/// Verifies every op of `module`; the first problem found is the error.
pub fn verify(module: &Module) -> Result<(), Diagnostic> {
    let mut verifier = Verifier {
        m: module,
        tables: Vec::new(),
    };
    verifier.run()
}

type R = Result<(), Diagnostic>;

/// Within one block, a value an op defines may be used only by the ops
/// after it and the ops nested in their regions (not by itself or anything
/// before it). Reports the first use that breaks this, as MLIR does.
fn check_dominance(block: &Block) -> R {
    let mut position: FxHashMap<ValueId, usize> = FxHashMap::default();
    for (i, op) in block.ops.iter().enumerate() {
        for &result in &op.results {
            position.insert(result, i);
        }
    }
    if position.is_empty() {
        return Ok(());
    }
    for (i, op) in block.ops.iter().enumerate() {
        let mut users = vec![op];
        while let Some(user) = users.pop() {
            if let Some(k) = user
                .operands
                .iter()
                .position(|v| position.get(v).is_some_and(|&defined| defined >= i))
            {
                return Err(Diagnostic::new(
                    user.location.clone(),
                    format!("operand #{k} does not dominate this use"),
                ));
            }
            for region in &user.regions {
                for inner in &region.blocks {
                    users.extend(inner.ops.iter());
                }
            }
        }
    }
    Ok(())
}

/// Whether `name` ends a function body.
fn is_return(name: &str) -> bool {
    name == "tfrt.return" || name == "func.return"
}

/// Whether `name` is an op of a dialect in [`REGISTERED_DIALECTS`].
fn is_registered(name: &str) -> bool {
    name.split_once('.')
        .is_some_and(|(dialect, _)| REGISTERED_DIALECTS.contains(&dialect))
}

/// An error about `op`, prefixed as MLIR's `emitOpError` does.
fn op_error(op: &Op, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(op.location.clone(), format!("'{}' op {message}", op.name))
}

static NO_TYPE: Type = Type::None;

struct Verifier<'m> {
    m: &'m Module,
    /// The functions of each module op met so far, by name.
    tables: Vec<FxHashMap<&'m str, Func<'m>>>,
}

/// Where an op sits: its parent op, whether it is its block's last op, and
/// the symbol table it sees.
struct Place<'m> {
    parent: Option<&'m Op>,
    last: bool,
    table: usize,
}

impl<'m> Verifier<'m> {
    fn ty(&self, v: ValueId) -> &'m Type {
        self.m.values.get(v.index()).map_or(&NO_TYPE, |d| &d.ty)
    }

    fn types(&self, vs: &[ValueId]) -> Vec<&'m Type> {
        vs.iter().map(|&v| self.ty(v)).collect()
    }

    fn run(&mut self) -> R {
        let root = &self.m.op;
        let mut stack: Vec<(&'m Op, Place<'m>)> = vec![(
            root,
            Place {
                parent: None,
                last: true,
                table: usize::MAX,
            },
        )];
        while let Some((op, place)) = stack.pop() {
            let mut table = place.table;
            if op.name == MODULE_OP {
                let mut functions = FxHashMap::default();
                let mut symbols: FxHashSet<&[u8]> = FxHashSet::default();
                for region in &op.regions {
                    for block in &region.blocks {
                        for inner in &block.ops {
                            if let Some(Attribute::String { value, .. }) =
                                inner.attribute("sym_name")
                                && !symbols.insert(value.as_slice())
                            {
                                return Err(Diagnostic::new(
                                    inner.location.clone(),
                                    format!(
                                        "redefinition of symbol named '{}'",
                                        String::from_utf8_lossy(value)
                                    ),
                                ));
                            }
                        }
                        for f in block.ops.iter().filter_map(Func::new) {
                            functions.entry(f.name()).or_insert(f);
                        }
                    }
                }
                self.tables.push(functions);
                table = self.tables.len() - 1;
            }
            self.verify_op(op, &place, table)?;
            for region in &op.regions {
                for block in &region.blocks {
                    check_dominance(block)?;
                }
            }
            for region in op.regions.iter().rev() {
                for block in region.blocks.iter().rev() {
                    let n = block.ops.len();
                    for (i, inner) in block.ops.iter().enumerate().rev() {
                        stack.push((
                            inner,
                            Place {
                                parent: Some(op),
                                last: i + 1 == n,
                                table,
                            },
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn function(&self, table: usize, name: &str) -> Option<Func<'m>> {
        self.tables.get(table)?.get(name).copied()
    }

    fn verify_op(&self, op: &'m Op, place: &Place<'m>, table: usize) -> R {
        if let Some(signature) = signature(&op.name) {
            self.check_signature(op, &signature)?;
        }
        match op.name.as_str() {
            FUNC_OP => self.verify_func(op)?,
            "tfrt.return" | "func.return" => self.verify_return(op, place)?,
            "tfrt.call" => self.verify_call(op, table)?,
            "tfrt.cond" => self.verify_cond(op, table)?,
            "tfrt.parallel_call.i32" => self.verify_parallel_call(op, table)?,
            "tfrt.if" => self.verify_if(op)?,
            "tfrt.repeat.i32" => self.verify_repeat(op)?,
            "tfrt.parallel_for.i32" => self.verify_parallel_for(op)?,
            "tfrt_test.test_cost" => verify_cost(op, "_tfrt_cost")?,
            "tfrt_test.do.async" => {
                self.single_block_regions(op, &["region"])?;
                let results = self.types(&op.results);
                self.check_return(op, &op.regions[0], &results)?;
            }
            "tfrt_test.benchmark" => {
                self.single_block_regions(op, &["region"])?;
                match op.regions[0].blocks[0].ops.last() {
                    Some(ret) if ret.name == "tfrt.return" => {
                        if ret.operands.len() != 1 {
                            return Err(op_error(
                                op,
                                "incorrect number of return values. One return value is expected",
                            ));
                        }
                    }
                    _ => return Err(op_error(op, "missing return statement")),
                }
            }
            _ => {}
        }
        if !op.regions.is_empty() && matches!(op.dialect(), "tfrt" | "tfrt_test") {
            isolated_from_above(op)?;
        }
        Ok(())
    }

    fn check_signature(&self, op: &Op, sig: &Signature) -> R {
        let (fixed, variadic) = match &sig.operands {
            Operands::Exactly(types) => (types.as_slice(), false),
            Operands::AtLeast(types) => (types.as_slice(), true),
        };
        let n = op.operands.len();
        if variadic && n < fixed.len() {
            return Err(op_error(
                op,
                format!("expected {} or more operands, but found {n}", fixed.len()),
            ));
        }
        if !variadic && n != fixed.len() {
            return Err(op_error(
                op,
                match fixed.len() {
                    0 => "requires zero operands".to_string(),
                    1 => "requires a single operand".to_string(),
                    k => format!("expected {k} operands, but found {n}"),
                },
            ));
        }
        if op.results.len() != sig.results.len() {
            return Err(op_error(
                op,
                match sig.results.len() {
                    0 => "requires zero results".to_string(),
                    1 => "requires one result".to_string(),
                    k => format!("expected {k} results"),
                },
            ));
        }
        for (name, kind) in &sig.attributes {
            let Some(value) = op.attribute(name) else {
                return Err(op_error(op, format!("requires attribute '{name}'")));
            };
            if !kind.accepts(value) {
                return Err(op_error(
                    op,
                    format!(
                        "attribute '{name}' failed to satisfy constraint: {}",
                        describe_attr(kind)
                    ),
                ));
            }
        }
        for (i, (want, &v)) in fixed.iter().zip(&op.operands).enumerate() {
            let got = self.ty(v);
            if got != want {
                return Err(op_error(
                    op,
                    format!("operand #{i} must be {}, but got '{got}'", describe(want)),
                ));
            }
        }
        for (i, (want, &v)) in sig.results.iter().zip(&op.results).enumerate() {
            let got = self.ty(v);
            let Some(want) = want else {
                continue;
            };
            if got != want {
                return Err(op_error(
                    op,
                    format!("result #{i} must be {}, but got '{got}'", describe(want)),
                ));
            }
        }
        Ok(())
    }

    fn verify_func(&self, op: &Op) -> R {
        for required in ["sym_name", "function_type"] {
            if op.attribute(required).is_none() {
                return Err(op_error(op, format!("requires attribute '{required}'")));
            }
        }
        let Some(func) = Func::new(op) else {
            return Err(op_error(
                op,
                "requires a string 'sym_name' and a function type 'function_type'",
            ));
        };
        let Some(region) = func.body() else {
            return Ok(());
        };
        let inputs = func.inputs();
        let entry = &region.blocks[0];
        if entry.arguments.len() != inputs.len() {
            return Err(op_error(
                op,
                format!(
                    "entry block must have {} arguments to match function signature",
                    inputs.len()
                ),
            ));
        }
        for (i, (&arg, want)) in entry.arguments.iter().zip(inputs).enumerate() {
            let got = self.ty(arg);
            if got != want {
                return Err(op_error(
                    op,
                    format!(
                        "type of entry block argument #{i}('{got}') must match the type of the \
                         corresponding argument in function signature('{want}')"
                    ),
                ));
            }
        }
        for block in &region.blocks {
            let Some(last) = block.ops.last() else {
                return Err(Diagnostic::new(
                    op.location.clone(),
                    "empty block: expect at least a terminator",
                ));
            };
            // An op of an unregistered dialect might be a terminator (MLIR
            // cannot tell); a registered one other than a return is not.
            if !is_return(&last.name) && is_registered(&last.name) {
                return Err(Diagnostic::new(
                    last.location.clone(),
                    format!("block with no terminator, has '{}'", last.name),
                ));
            }
        }
        Ok(())
    }

    fn verify_return(&self, op: &Op, place: &Place<'m>) -> R {
        if !place.last {
            return Err(op_error(
                op,
                "must be the last operation in the parent block",
            ));
        }
        let function = place.parent.and_then(Func::new);
        let Some(function) = function else {
            if op.name == "func.return" {
                return Err(op_error(op, "expects parent op 'func.func'"));
            }
            // tfrt.return also ends the regions of tfrt.if and friends,
            // which check it themselves.
            return Ok(());
        };
        let results = function.results();
        let name = function.name();
        let tfrt = op.name == "tfrt.return";
        if op.operands.len() != results.len() {
            let enclosing = if tfrt {
                "enclosing function".to_string()
            } else {
                format!("enclosing function (@{name})")
            };
            return Err(op_error(
                op,
                format!(
                    "has {} operands, but {enclosing} returns {}",
                    op.operands.len(),
                    results.len()
                ),
            ));
        }
        for (i, (&v, want)) in op.operands.iter().zip(results).enumerate() {
            let got = self.ty(v);
            if got != want {
                let suffix = if tfrt {
                    String::new()
                } else {
                    format!(" in function @{name}")
                };
                return Err(Diagnostic::new(
                    op.location.clone(),
                    format!(
                        "type of return operand {i} ('{got}') doesn't match function result \
                         type ('{want}'){suffix}"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The function a symbol attribute names, or the reference's errors.
    fn callee(&self, op: &Op, table: usize, key: &str) -> Result<Func<'m>, Diagnostic> {
        let name = match op.attribute(key) {
            Some(Attribute::SymbolRef { root, nested }) if nested.is_empty() => root,
            _ => {
                return Err(op_error(
                    op,
                    format!("requires a '{key}' symbol reference attribute"),
                ));
            }
        };
        self.function(table, name)
            .ok_or_else(|| op_error(op, format!("'{name}' does not reference a valid function")))
    }

    fn verify_call(&self, op: &Op, table: usize) -> R {
        let callee = self.callee(op, table, "callee")?;
        let (inputs, results) = (callee.inputs(), callee.results());
        if inputs.len() != op.operands.len() {
            return Err(op_error(op, "incorrect number of operands for callee"));
        }
        if self.types(&op.operands).into_iter().ne(inputs) {
            return Err(op_error(op, "operand type mismatch"));
        }
        if results.len() != op.results.len() {
            return Err(op_error(op, "incorrect number of results for callee"));
        }
        if self.types(&op.results).into_iter().ne(results) {
            return Err(op_error(op, "result type mismatch"));
        }
        Ok(())
    }

    fn verify_cond(&self, op: &Op, table: usize) -> R {
        self.leading_operand(op, &Type::i(1))?;
        let on_true = self.callee(op, table, "a_true_fn")?;
        let on_false = self.callee(op, table, "b_false_fn")?;
        let args = self.types(&op.operands[1..]);
        let results = self.types(&op.results);
        for (func, which) in [(on_true, "true"), (on_false, "false")] {
            if func.inputs().len() != args.len() {
                return Err(op_error(
                    op,
                    format!("incorrect number of operands for {which} function"),
                ));
            }
        }
        for (i, arg) in args.iter().enumerate() {
            for (func, which) in [(on_true, "true"), (on_false, "false")] {
                if func.inputs()[i] != **arg {
                    return Err(op_error(
                        op,
                        format!("operand type mismatch for {which} function"),
                    ));
                }
            }
        }
        for (func, which) in [(on_true, "true"), (on_false, "false")] {
            if func.results().len() != results.len() {
                return Err(op_error(
                    op,
                    format!("incorrect number of results for {which} function"),
                ));
            }
        }
        for (i, result) in results.iter().enumerate() {
            for (func, which) in [(on_true, "true"), (on_false, "false")] {
                if func.results()[i] != **result {
                    return Err(op_error(
                        op,
                        format!("result type mismatch for {which} function"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn verify_parallel_call(&self, op: &Op, table: usize) -> R {
        self.bounds(op)?;
        let callee = self.callee(op, table, "callee")?;
        let (inputs, results) = (callee.inputs(), callee.results());
        if inputs.len() + 1 != op.operands.len() {
            return Err(op_error(op, "incorrect number of callee operands"));
        }
        if inputs.len() < 2 || inputs[..2].iter().any(|t| *t != Type::i(32)) {
            return Err(op_error(op, "callee must take start and end indices first"));
        }
        for (i, want) in inputs.iter().enumerate().skip(2) {
            if self.ty(op.operands[i + 1]) != want {
                return Err(op_error(op, "operand type mismatch"));
            }
        }
        match results {
            [] => Ok(()),
            [ty] if *ty == Type::chain() => Ok(()),
            [_] => Err(op_error(op, "async callee must return a chain")),
            _ => Err(op_error(op, "invalid callee result type")),
        }
    }

    /// At least one operand, the first of type `ty`.
    fn leading_operand(&self, op: &Op, ty: &Type) -> R {
        let Some(&first) = op.operands.first() else {
            return Err(op_error(op, "expected 1 or more operands, but found 0"));
        };
        let got = self.ty(first);
        if got != ty {
            return Err(op_error(
                op,
                format!("operand #0 must be {}, but got '{got}'", describe(ty)),
            ));
        }
        Ok(())
    }

    /// `%start to %end fixed %block`: three leading i32 operands.
    fn bounds(&self, op: &Op) -> R {
        let n = op.operands.len();
        if n < 3 {
            return Err(op_error(
                op,
                format!("expected 3 or more operands, but found {n}"),
            ));
        }
        let i32 = Type::i(32);
        for (i, &v) in op.operands[..3].iter().enumerate() {
            let got = self.ty(v);
            if *got != i32 {
                return Err(op_error(
                    op,
                    format!("operand #{i} must be {}, but got '{got}'", describe(&i32)),
                ));
            }
        }
        Ok(())
    }

    /// `SizedRegion<1>` for each of `names`.
    fn single_block_regions(&self, op: &Op, names: &[&str]) -> R {
        if op.regions.len() != names.len() {
            return Err(op_error(
                op,
                format!(
                    "requires {} region{}",
                    names.len(),
                    if names.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        for (i, (region, name)) in op.regions.iter().zip(names).enumerate() {
            if region.blocks.len() != 1 {
                return Err(op_error(
                    op,
                    format!(
                        "region #{i} ('{name}') failed to verify constraint: region with 1 blocks"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The region ends in a `tfrt.return` of `types` (`checkTFRTReturn`).
    fn check_return(&self, op: &Op, region: &Region, types: &[&Type]) -> R {
        let Some(ret) = region.blocks[0]
            .ops
            .last()
            .filter(|r| r.name == "tfrt.return")
        else {
            return Err(op_error(op, "expected tfrt.return in body"));
        };
        if self.types(&ret.operands) != types {
            return Err(op_error(
                ret,
                format!("operand types don't match '{}' result", op.name),
            ));
        }
        Ok(())
    }

    fn verify_if(&self, op: &Op) -> R {
        self.leading_operand(op, &Type::i(1))?;
        self.single_block_regions(op, &["then_region", "else_region"])?;
        let args = &op.operands[1..];
        let then_block = &op.regions[0].blocks[0];
        let else_block = &op.regions[1].blocks[0];
        if then_block.arguments.len() != args.len() {
            return Err(op_error(
                op,
                "incorrect number of arguments to 'then' block",
            ));
        }
        if else_block.arguments.len() != args.len() {
            return Err(op_error(
                op,
                "incorrect number of arguments to 'else' block",
            ));
        }
        for (i, &arg) in args.iter().enumerate() {
            let ty = self.ty(arg);
            if self.ty(then_block.arguments[i]) != ty || self.ty(else_block.arguments[i]) != ty {
                return Err(op_error(op, "operand/argument type mismatch"));
            }
        }
        let results = self.types(&op.results);
        self.check_return(op, &op.regions[0], &results)?;
        self.check_return(op, &op.regions[1], &results)
    }

    fn verify_repeat(&self, op: &Op) -> R {
        self.leading_operand(op, &Type::i(32))?;
        self.single_block_regions(op, &["region"])?;
        if op.results.len() + 1 != op.operands.len() {
            return Err(op_error(op, "incorrect number of operands"));
        }
        for (&operand, &result) in op.operands[1..].iter().zip(&op.results) {
            if self.ty(operand) != self.ty(result) {
                return Err(op_error(op, "operand/result type mismatch"));
            }
        }
        let results = self.types(&op.results);
        self.check_return(op, &op.regions[0], &results)
    }

    fn verify_parallel_for(&self, op: &Op) -> R {
        self.bounds(op)?;
        self.single_block_regions(op, &["region"])?;
        let block = &op.regions[0].blocks[0];
        let Some(ret) = block.ops.last().filter(|r| r.name == "tfrt.return") else {
            return Err(op_error(op, "expected tfrt.return in body"));
        };
        // A synchronous body returns nothing.
        if ret.operands.is_empty() {
            return Ok(());
        }
        let results = self.types(&op.results);
        self.check_return(op, &op.regions[0], &results)
    }
}

/// `TFRT_AttrCostTrait`: the cost attribute is a positive integer.
fn verify_cost(op: &Op, attribute: &str) -> R {
    match op.attribute(attribute) {
        Some(Attribute::Integer { value, .. }) if *value > 0 => Ok(()),
        Some(Attribute::Integer { .. }) => Err(op_error(op, "cost value must be larger than 0")),
        _ => Err(op_error(op, "cost attribute not found")),
    }
}

/// The ops of `op`'s regions use only values defined inside them.
fn isolated_from_above(op: &Op) -> R {
    let mut defined: FxHashSet<ValueId> = FxHashSet::default();
    let mut users: Vec<&Op> = Vec::new();
    let mut stack: Vec<&Region> = op.regions.iter().collect();
    while let Some(region) = stack.pop() {
        for block in &region.blocks {
            defined.extend(block.arguments.iter().copied());
            for inner in &block.ops {
                defined.extend(inner.results.iter().copied());
                users.push(inner);
                stack.extend(inner.regions.iter());
            }
        }
    }
    match users
        .iter()
        .find(|user| user.operands.iter().any(|v| !defined.contains(v)))
    {
        Some(user) => Err(op_error(user, "using value defined outside the region")),
        None => Ok(()),
    }
}

/// MLIR's description of an attribute kind in ODS messages.
fn describe_attr(kind: &AttrKind) -> String {
    match kind {
        AttrKind::Typed(Type::Float(FloatKind::BF16)) => "bfloat16 attribute".to_string(),
        AttrKind::Typed(ty) => format!("{} attribute", describe(ty)),
        AttrKind::I64Array => "64-bit integer array attribute".to_string(),
    }
}

/// MLIR's description of a type in ODS messages.
fn describe(ty: &Type) -> String {
    match ty {
        Type::Integer { width, signedness } => {
            let kind = match signedness {
                Signedness::Signless => "signless",
                Signedness::Signed => "signed",
                Signedness::Unsigned => "unsigned",
            };
            format!("{width}-bit {kind} integer")
        }
        Type::Float(FloatKind::BF16) => "bfloat16 type".to_string(),
        Type::Float(kind) => format!("{}-bit float", kind.bit_width()),
        Type::Dialect { .. } => format!("{ty} type"),
        _ => format!("'{ty}'"),
    }
}
