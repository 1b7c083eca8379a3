//! Arbitrary IR for property tests and fuzz targets.
//!
//! `arbitrary_module` builds modules in the canonical form the parser
//! produces (sorted unique dictionaries, canonical integer and dense
//! values, `renumber_values` applied), so `parse(print(m)) == m` must hold
//! for every generated `m`. With `Config::bef_encodable` the IR also stays
//! within what BEF can encode: single-block regions, BEF attribute kinds,
//! kernel-like op names, functions ending with `tfrt.return`, operands only
//! from the op's own region.

use arbitrary::{Result, Unstructured};

use crate::ir::{
    Attribute, Block, DYNAMIC, DenseElements, FUNC_OP, FloatKind, Location, Module, Op, Region,
    Signedness, Type, ValueId,
};

/// Limits and restrictions of the generated IR.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Restrict to what the BEF encoder accepts (see the module comment).
    pub bef_encodable: bool,
    /// Deepest region nesting below a function body.
    pub max_depth: u32,
    /// Most ops per block.
    pub max_ops: usize,
    /// Most functions per module.
    pub max_functions: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bef_encodable: false,
            max_depth: 3,
            max_ops: 8,
            max_functions: 4,
        }
    }
}

/// Any module the text format can hold (generic ops, nested regions, all
/// attribute, type and location kinds).
pub fn arbitrary_module(u: &mut Unstructured) -> Result<Module> {
    arbitrary_module_with(u, Config::default())
}

/// A module the BEF encoder accepts.
pub fn arbitrary_bef_module(u: &mut Unstructured) -> Result<Module> {
    arbitrary_module_with(
        u,
        Config {
            bef_encodable: true,
            ..Config::default()
        },
    )
}

/// A module generated under `cfg`.
pub fn arbitrary_module_with(u: &mut Unstructured, cfg: Config) -> Result<Module> {
    let mut g = Gen {
        cfg,
        module: Module::new(Location::Unknown),
        functions: Vec::new(),
    };
    g.module.op.location = g.location(u, 2)?;
    let n = u.int_in_range(0..=cfg.max_functions)?;
    g.functions = (0..n).map(|i| format!("f{i}")).collect();
    if !cfg.bef_encodable && u.ratio(1, 4)? {
        g.functions.push("weird name\n".to_string());
    }
    if !cfg.bef_encodable && u.ratio(1, 4)? {
        let a = g.attribute(u, 1)?;
        g.module.op.set_attribute("test.attr", a);
    }
    let names = g.functions.clone();
    let mut ops = Vec::new();
    for name in &names {
        ops.push(g.function(u, name)?);
    }
    if !cfg.bef_encodable && u.ratio(1, 4)? {
        let visible: Vec<ValueId> = Vec::new();
        ops.push(g.generic_op(u, &visible, 1)?);
    }
    g.module.body_mut().ops = ops;
    g.module.renumber_values();
    Ok(g.module)
}

struct Gen {
    cfg: Config,
    module: Module,
    functions: Vec<String>,
}

const OP_NAMES: [&str; 8] = [
    "test.op",
    "tfrt_test.do.async",
    "tfrt_test.print_hello",
    "x",
    "a.b.c",
    "tfrt.add.i32",
    "tfrt.return",
    "weird \"op\"\\name",
];

const BEF_OP_NAMES: [&str; 4] = [
    "tfrt_test.kernel",
    "tfrt_test.do.async",
    "test.k",
    "tfrt_test.print_hello",
];

const FILES: [&str; 4] = ["a.mlir", "dir/b.py", "", "odd \"file\"\t"];

impl Gen {
    fn location(&mut self, u: &mut Unstructured, depth: u32) -> Result<Location> {
        let choice = if depth == 0 {
            u.int_in_range(0..=1)?
        } else {
            u.int_in_range(0..=4)?
        };
        Ok(match choice {
            0 => Location::Unknown,
            1 => Location::FileLineCol {
                file: (*u.choose(&FILES)?).into(),
                line: u.arbitrary()?,
                column: u.arbitrary::<u32>()? % 100_000,
            },
            2 => Location::Name {
                name: u.choose(&["n", "name with space", "f"])?.to_string(),
                child: Box::new(self.location(u, depth - 1)?),
            },
            3 => Location::CallSite {
                callee: Box::new(self.location(u, depth - 1)?),
                caller: Box::new(self.location(u, depth - 1)?),
            },
            _ => {
                let n = u.int_in_range(0..=3)?;
                let locations = (0..n)
                    .map(|_| self.location(u, depth - 1))
                    .collect::<Result<_>>()?;
                let metadata = if u.ratio(1, 3)? {
                    Some(Box::new(Attribute::string(u.choose(&["meta", "m2"])?)))
                } else {
                    None
                };
                Location::Fused {
                    locations,
                    metadata,
                }
            }
        })
    }

    fn int_type(&self, u: &mut Unstructured) -> Result<Type> {
        if self.cfg.bef_encodable {
            return Ok(u
                .choose(&[
                    Type::i(1),
                    Type::i(8),
                    Type::i(16),
                    Type::i(32),
                    Type::i(64),
                    Type::ui(32),
                    Type::ui(64),
                ])?
                .clone());
        }
        let width = *u.choose(&[0u32, 1, 7, 8, 16, 32, 64, 128])?;
        let signedness = *u.choose(&[
            Signedness::Signless,
            Signedness::Signed,
            Signedness::Unsigned,
        ])?;
        if u.ratio(1, 8)? {
            return Ok(Type::Index);
        }
        Ok(Type::Integer { width, signedness })
    }

    fn float_kind(&self, u: &mut Unstructured) -> Result<FloatKind> {
        if self.cfg.bef_encodable {
            return Ok(*u.choose(&[
                FloatKind::F16,
                FloatKind::BF16,
                FloatKind::F32,
                FloatKind::F64,
            ])?);
        }
        Ok(*u.choose(&FloatKind::STANDARD)?)
    }

    /// A scalar type usable as a dense or array element.
    fn element_type(&self, u: &mut Unstructured) -> Result<Type> {
        Ok(match self.scalar_type(u)? {
            Type::Integer { width: 0, .. } | Type::Index => Type::i(8),
            t => t,
        })
    }

    fn scalar_type(&self, u: &mut Unstructured) -> Result<Type> {
        if u.ratio(1, 2)? {
            self.int_type(u)
        } else {
            Ok(Type::Float(self.float_kind(u)?))
        }
    }

    fn ty(&self, u: &mut Unstructured, depth: u32) -> Result<Type> {
        let max = if depth == 0 { 2 } else { 9 };
        Ok(match u.int_in_range(0..=max)? {
            0 => self.scalar_type(u)?,
            1 => Type::chain(),
            2 => u
                .choose(&[
                    Type::dialect("t", "tensor"),
                    Type::dialect("ts", "shape"),
                    Type::dialect("tfrt", "string"),
                    Type::dialect("foo", "<\"x\">"),
                    Type::dialect("tfrt", "tensor<f32>"),
                ])?
                .clone(),
            3 => Type::None,
            4 => Type::Complex(Box::new(self.scalar_type(u)?)),
            5 => {
                let shape = if u.ratio(1, 4)? {
                    None
                } else {
                    Some(self.dims(u, true)?)
                };
                Type::Tensor {
                    shape,
                    element: Box::new(self.scalar_type(u)?),
                    encoding: None,
                }
            }
            6 => Type::Vector {
                shape: self.dims(u, false)?,
                element: Box::new(self.scalar_type(u)?),
                scalable: Vec::new(),
            },
            7 => {
                let n = u.int_in_range(0..=2)?;
                let m = u.int_in_range(0..=2)?;
                Type::Function {
                    inputs: (0..n)
                        .map(|_| self.ty(u, depth - 1))
                        .collect::<Result<_>>()?,
                    results: (0..m)
                        .map(|_| self.ty(u, depth - 1))
                        .collect::<Result<_>>()?,
                }
            }
            8 => {
                let n = u.int_in_range(0..=2)?;
                Type::Tuple(
                    (0..n)
                        .map(|_| self.ty(u, depth - 1))
                        .collect::<Result<_>>()?,
                )
            }
            _ => Type::Index,
        })
    }

    fn dims(&self, u: &mut Unstructured, dynamic: bool) -> Result<Vec<i64>> {
        let n = u.int_in_range(0..=3)?;
        (0..n)
            .map(|_| {
                Ok(if dynamic && u.ratio(1, 5)? {
                    DYNAMIC
                } else {
                    i64::from(u.int_in_range(0u8..=4)?)
                })
            })
            .collect()
    }

    /// A canonical integer value of `ty` (see `ir::Attribute::Integer`).
    fn int_value(&self, u: &mut Unstructured, ty: &Type) -> Result<i128> {
        let (width, signedness) = match ty {
            Type::Integer { width, signedness } => (*width, *signedness),
            _ => (64, Signedness::Signless),
        };
        let raw: u128 = u.arbitrary()?;
        let small = u.ratio(1, 2)?;
        let raw = if small { raw % 300 } else { raw };
        Ok(match (width, signedness) {
            (0, _) => 0,
            (1, Signedness::Signless) => (raw & 1) as i128,
            (w, Signedness::Unsigned) => {
                let masked = if w >= 128 {
                    raw >> 1
                } else {
                    raw & ((1u128 << w) - 1)
                };
                masked as i128
            }
            (w, _) => {
                let shift = 128 - w.min(128);
                ((raw << shift) as i128) >> shift
            }
        })
    }

    fn float_bits(&self, u: &mut Unstructured, kind: FloatKind) -> Result<u128> {
        let w = kind.bit_width();
        let raw: u128 = if u.ratio(1, 2)? {
            match kind {
                FloatKind::F32 => {
                    u128::from((f32::from(u.int_in_range(-100i16..=100)?) / 4.0).to_bits())
                }
                FloatKind::F64 => {
                    u128::from((f64::from(u.int_in_range(-100i16..=100)?) / 8.0).to_bits())
                }
                _ => u.arbitrary()?,
            }
        } else {
            u.arbitrary()?
        };
        Ok(if w >= 128 {
            raw
        } else {
            raw & ((1u128 << w) - 1)
        })
    }

    fn scalar_attr(&mut self, u: &mut Unstructured) -> Result<Attribute> {
        Ok(match u.int_in_range(0..=4)? {
            0 => {
                let ty = self.int_type(u)?;
                Attribute::Integer {
                    value: self.int_value(u, &ty)?,
                    ty,
                }
            }
            1 => {
                let kind = self.float_kind(u)?;
                Attribute::Float {
                    bits: self.float_bits(u, kind)?,
                    ty: Type::Float(kind),
                }
            }
            2 => Attribute::String {
                value: u.arbitrary::<Vec<u8>>()?.into_iter().take(12).collect(),
                ty: None,
            },
            3 => Attribute::Type(self.scalar_type(u)?),
            _ => match u.choose(&self.functions).ok() {
                Some(f) => Attribute::symbol(f),
                None => Attribute::i32(0),
            },
        })
    }

    fn dense(&mut self, u: &mut Unstructured) -> Result<DenseElements> {
        let element = if !self.cfg.bef_encodable && u.ratio(1, 4)? {
            Type::Complex(Box::new(self.element_type(u)?))
        } else {
            self.element_type(u)?
        };
        let shape = self.dims(u, false)?;
        let numel: usize = shape.iter().map(|&d| d as usize).product();
        let splat = numel != 0 && u.ratio(1, 3)?;
        let count = if splat { 1 } else { numel };
        let mut data = Vec::new();
        for _ in 0..count {
            self.encode_element(u, &element, &mut data)?;
        }
        let size = super::dense::element_size(&element).unwrap_or(1);
        let all_same = numel >= 1 && data.chunks_exact(size).all(|c| c == &data[..size]);
        let ty = if u.ratio(1, 4)? && !self.cfg.bef_encodable {
            Type::Vector {
                shape,
                element: Box::new(element),
                scalable: Vec::new(),
            }
        } else {
            Type::Tensor {
                shape: Some(shape),
                element: Box::new(element),
                encoding: None,
            }
        };
        if all_same && !splat {
            data.truncate(size);
        }
        Ok(DenseElements {
            ty,
            splat: splat || all_same,
            data,
        })
    }

    fn encode_element(&mut self, u: &mut Unstructured, ty: &Type, out: &mut Vec<u8>) -> Result<()> {
        let size = super::dense::element_size(ty).unwrap_or(1);
        match ty {
            Type::Complex(e) => {
                self.encode_element(u, e, out)?;
                self.encode_element(u, e, out)?;
            }
            Type::Float(kind) => {
                let bits = self.float_bits(u, *kind)?;
                out.extend_from_slice(&bits.to_le_bytes()[..size]);
            }
            Type::Integer { width: 1, .. } => out.push(u8::from(u.arbitrary::<bool>()?)),
            _ => {
                let v = self.int_value(u, ty)?;
                out.extend_from_slice(&(v as u128).to_le_bytes()[..size]);
            }
        }
        Ok(())
    }

    fn attribute(&mut self, u: &mut Unstructured, depth: u32) -> Result<Attribute> {
        if self.cfg.bef_encodable {
            return Ok(match u.int_in_range(0..=3)? {
                0 | 1 => self.scalar_attr(u)?,
                2 if depth > 0 => {
                    let n = u.int_in_range(0..=3)?;
                    let mut elements = (0..n)
                        .map(|_| self.attribute(u, depth - 1))
                        .collect::<Result<Vec<_>>>()?;
                    // BEF takes an array that starts with a symbol as a
                    // list of functions; symbols elsewhere it cannot hold.
                    elements.retain(|e| !matches!(e, Attribute::SymbolRef { .. }));
                    Attribute::Array(elements)
                }
                2 => Attribute::Shape(if u.ratio(1, 4)? {
                    None
                } else {
                    Some(
                        self.dims(u, false)?
                            .into_iter()
                            .map(|d| if d == 3 { -1 } else { d })
                            .collect(),
                    )
                }),
                _ => Attribute::DenseElements(self.dense(u)?),
            });
        }
        let max = if depth == 0 { 6 } else { 13 };
        Ok(match u.int_in_range(0..=max)? {
            0..=2 => self.scalar_attr(u)?,
            3 => Attribute::Unit,
            4 => Attribute::Bool(u.arbitrary()?),
            5 => Attribute::Shape(if u.ratio(1, 4)? {
                None
            } else {
                Some(
                    self.dims(u, false)?
                        .into_iter()
                        .map(|d| if d == 3 { -1 } else { d })
                        .collect(),
                )
            }),
            6 => u
                .choose(&[
                    Attribute::Dialect {
                        dialect: "arith".into(),
                        body: "overflow<none>".into(),
                    },
                    Attribute::Dialect {
                        dialect: "foo".into(),
                        body: "<\"x\", [1]>".into(),
                    },
                    Attribute::Dialect {
                        dialect: "foo".into(),
                        body: "bar".into(),
                    },
                ])?
                .clone(),
            7 => {
                let n = u.int_in_range(0..=3)?;
                Attribute::Array(
                    (0..n)
                        .map(|_| self.attribute(u, depth - 1))
                        .collect::<Result<_>>()?,
                )
            }
            8 => Attribute::Dictionary(self.dictionary(u, depth - 1)?),
            9 => Attribute::DenseElements(self.dense(u)?),
            10 => {
                let element = self.element_type(u)?;
                let n = u.int_in_range(0..=3)?;
                let mut data = Vec::new();
                for _ in 0..n {
                    self.encode_element(u, &element, &mut data)?;
                }
                Attribute::DenseArray { element, data }
            }
            11 => Attribute::Location(Box::new(self.location(u, 2)?)),
            12 => Attribute::String {
                value: b"typed".to_vec(),
                ty: Some(self.ty(u, 1)?),
            },
            _ => Attribute::Type(self.ty(u, 2)?),
        })
    }

    fn dictionary(&mut self, u: &mut Unstructured, depth: u32) -> Result<Vec<(String, Attribute)>> {
        let n = u.int_in_range(0..=3)?;
        let mut entries: Vec<(String, Attribute)> = Vec::new();
        for _ in 0..n {
            let key = u
                .choose(&["a", "value", "tfrt.sync", "b.c", "key with space", "_x"])?
                .to_string();
            let value = self.attribute(u, depth)?;
            if !entries.iter().any(|(k, _)| *k == key) {
                entries.push((key, value));
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entries)
    }

    fn function(&mut self, u: &mut Unstructured, name: &str) -> Result<Op> {
        // A sync function may not return an argument or a value twice.
        fn sync_can_return(op: &Op) -> bool {
            let Some(block) = op.regions.first().and_then(|r| r.blocks.first()) else {
                return false;
            };
            let Some(ret) = block.ops.last() else {
                return false;
            };
            ret.operands
                .iter()
                .enumerate()
                .all(|(i, v)| !block.arguments.contains(v) && !ret.operands[..i].contains(v))
        }
        let mut op = Op::new(FUNC_OP, self.location(u, 2)?);
        op.set_attribute("sym_name", Attribute::string(name));
        let n = u.int_in_range(0..=3)?;
        let inputs: Vec<Type> = (0..n).map(|_| self.ty(u, 1)).collect::<Result<_>>()?;
        let declaration = u.ratio(1, 5)?;
        let mut results = Vec::new();
        if declaration {
            op.set_attribute("sym_visibility", Attribute::string("private"));
            if self.cfg.bef_encodable {
                // BEF only knows declarations of native functions.
                op.set_attribute("tfrt.native", Attribute::Unit);
            }
            let m = u.int_in_range(0..=2)?;
            results = (0..m).map(|_| self.ty(u, 1)).collect::<Result<_>>()?;
            op.regions.push(Region::default());
        } else {
            let mut visible = Vec::new();
            let mut arguments = Vec::new();
            for ty in &inputs {
                let loc = self.location(u, 1)?;
                let v = self.module.new_value(ty.clone(), Some(loc));
                arguments.push(v);
                visible.push(v);
            }
            let mut ops = self.ops(u, &mut visible, 0)?;
            // Return some of the visible values.
            let mut ret = Op::new("tfrt.return", self.location(u, 1)?);
            let k = u.int_in_range(0..=2)?;
            for _ in 0..k {
                if let Ok(&v) = u.choose(&visible) {
                    ret.operands.push(v);
                    results.push(self.module.value_type(v).clone());
                }
            }
            ops.push(ret);
            op.regions.push(Region {
                blocks: vec![Block { arguments, ops }],
            });
        }
        if u.ratio(1, 4)? && !(declaration && self.cfg.bef_encodable) {
            let mut key = *u.choose(&["tfrt.sync", "tfrt.cost_threshold"])?;
            if key == "tfrt.sync" && self.cfg.bef_encodable && !sync_can_return(&op) {
                key = "tfrt.cost_threshold";
            }
            let v = if key == "tfrt.sync" {
                Attribute::Unit
            } else {
                Attribute::i64(2)
            };
            op.set_attribute(key, v);
        }
        op.set_attribute(
            "function_type",
            Attribute::Type(Type::Function { inputs, results }),
        );
        Ok(op)
    }

    fn ops(
        &mut self,
        u: &mut Unstructured,
        visible: &mut Vec<ValueId>,
        depth: u32,
    ) -> Result<Vec<Op>> {
        let n = u.int_in_range(0..=self.cfg.max_ops)?;
        let mut ops = Vec::with_capacity(n);
        for _ in 0..n {
            if u.is_empty() {
                break;
            }
            let op = match u.int_in_range(0..=6)? {
                0 | 1 => self.kernel_op(u, visible)?,
                2 if depth < self.cfg.max_depth => self.if_op(u, visible, depth)?,
                _ => self.generic_op(u, visible, depth)?,
            };
            visible.extend(op.results.iter().copied());
            ops.push(op);
        }
        Ok(ops)
    }

    fn find(
        &self,
        u: &mut Unstructured,
        visible: &[ValueId],
        ty: &Type,
    ) -> Result<Option<ValueId>> {
        let candidates: Vec<ValueId> = visible
            .iter()
            .copied()
            .filter(|v| self.module.value_type(*v) == ty)
            .collect();
        Ok(u.choose(&candidates).ok().copied())
    }

    /// Ops shaped like the standard kernels' custom forms.
    fn kernel_op(&mut self, u: &mut Unstructured, visible: &[ValueId]) -> Result<Op> {
        let loc = self.location(u, 1)?;
        let i32t = Type::i(32);
        let chain = Type::chain();
        let mut op;
        match u.int_in_range(0..=5)? {
            0 => {
                op = Op::new("tfrt.constant.i32", loc);
                op.set_attribute("value", Attribute::i32(u.arbitrary()?));
                op.results.push(self.module.new_value(i32t, None));
            }
            1 => {
                op = Op::new("tfrt.new.chain", loc);
                op.results.push(self.module.new_value(chain, None));
            }
            2 => match (self.find(u, visible, &i32t)?, self.find(u, visible, &i32t)?) {
                (Some(a), Some(b)) => {
                    op = Op::new("tfrt.add.i32", loc);
                    op.operands = vec![a, b];
                    op.results.push(self.module.new_value(i32t, None));
                }
                _ => {
                    op = Op::new("tfrt.constant.f32", loc);
                    op.set_attribute(
                        "value",
                        Attribute::f32(f32::from(u.arbitrary::<i8>()?) / 3.0),
                    );
                    op.results.push(self.module.new_value(Type::f32(), None));
                }
            },
            3 => match (
                self.find(u, visible, &i32t)?,
                self.find(u, visible, &chain)?,
            ) {
                (Some(a), Some(c)) => {
                    op = Op::new("tfrt.print.i32", loc);
                    op.operands = vec![a, c];
                    op.results.push(self.module.new_value(chain, None));
                }
                _ => {
                    op = Op::new("tfrt.constant.i1", loc);
                    op.set_attribute(
                        "value",
                        Attribute::Integer {
                            value: u.int_in_range(0..=1)?,
                            ty: Type::i(1),
                        },
                    );
                    op.results.push(self.module.new_value(Type::i(1), None));
                }
            },
            4 => {
                op = Op::new("tfrt.call", loc);
                let callee = u
                    .choose(&self.functions)
                    .ok()
                    .cloned()
                    .unwrap_or_else(|| "missing".into());
                op.set_attribute("callee", Attribute::symbol(&callee));
                let n = u.int_in_range(0..=2)?;
                for _ in 0..n {
                    if let Ok(&v) = u.choose(visible) {
                        op.operands.push(v);
                    }
                }
                let m = u.int_in_range(0..=2)?;
                for _ in 0..m {
                    let ty = self.ty(u, 1)?;
                    op.results.push(self.module.new_value(ty, None));
                }
            }
            _ => {
                op = Op::new("tfrt.merge.chains", loc);
                if let Some(c) = self.find(u, visible, &chain)? {
                    op.operands.push(c);
                }
                if let Some(c) = self.find(u, visible, &i32t)? {
                    op.operands.push(c);
                }
                if op.operands.is_empty() {
                    op.name = "tfrt.new.chain".into();
                }
                op.results.push(self.module.new_value(chain, None));
            }
        }
        Ok(op)
    }

    /// `tfrt.if` with isolated regions whose arguments mirror the operands.
    fn if_op(&mut self, u: &mut Unstructured, visible: &[ValueId], depth: u32) -> Result<Op> {
        let mut op = Op::new("tfrt.if", self.location(u, 1)?);
        let cond = match self.find(u, visible, &Type::i(1))? {
            Some(c) => c,
            None => return self.generic_op(u, visible, depth),
        };
        op.operands.push(cond);
        let n = u.int_in_range(0..=2)?;
        let mut operands: Vec<ValueId> = Vec::new();
        for _ in 0..n {
            if let Ok(&v) = u.choose(visible)
                && !operands.contains(&v)
            {
                operands.push(v);
            }
        }
        op.operands.extend_from_slice(&operands);
        let types: Vec<Type> = operands
            .iter()
            .map(|v| self.module.value_type(*v).clone())
            .collect();
        // Results: the types of some arguments, returned by both branches.
        let picks: Vec<usize> = (0..u.int_in_range(0..=types.len())?).collect();
        for _ in 0..2 {
            let arguments: Vec<ValueId> = types
                .iter()
                .map(|t| self.module.new_value(t.clone(), Some(Location::Unknown)))
                .collect();
            let mut inner = arguments.clone();
            let mut ops = self.ops(u, &mut inner, depth + 1)?;
            let mut ret = Op::new("tfrt.return", self.location(u, 1)?);
            ret.operands = picks.iter().map(|&i| arguments[i]).collect();
            ops.push(ret);
            op.regions.push(Region {
                blocks: vec![Block { arguments, ops }],
            });
        }
        for &i in &picks {
            op.results
                .push(self.module.new_value(types[i].clone(), None));
        }
        Ok(op)
    }

    fn generic_op(&mut self, u: &mut Unstructured, visible: &[ValueId], depth: u32) -> Result<Op> {
        let bef = self.cfg.bef_encodable;
        let name = if bef {
            *u.choose(&BEF_OP_NAMES)?
        } else {
            *u.choose(&OP_NAMES)?
        };
        let mut op = Op::new(name, self.location(u, 2)?);
        let n = u.int_in_range(0..=3)?;
        for _ in 0..n {
            if let Ok(&v) = u.choose(visible) {
                op.operands.push(v);
            }
        }
        op.attributes = self.dictionary(u, 2)?;
        if !bef && u.ratio(1, 5)? {
            op.properties = Some(Box::new(Attribute::Dictionary(self.dictionary(u, 1)?)));
        }
        if depth < self.cfg.max_depth && u.ratio(1, 3)? {
            let regions = u.int_in_range(1..=2)?;
            for _ in 0..regions {
                let blocks = if bef { 1 } else { u.int_in_range(0..=2)? };
                let mut region = Region::default();
                for _ in 0..blocks {
                    let nargs = u.int_in_range(0..=2)?;
                    let mut arguments = Vec::new();
                    for _ in 0..nargs {
                        let ty = self.ty(u, 1)?;
                        let loc = self.location(u, 1)?;
                        arguments.push(self.module.new_value(ty, Some(loc)));
                    }
                    // BEF regions only see their own values; others also see
                    // the enclosing ones.
                    let mut inner = if bef { Vec::new() } else { visible.to_vec() };
                    inner.extend_from_slice(&arguments);
                    let mut ops = self.ops(u, &mut inner, depth + 1)?;
                    if bef {
                        let mut ret = Op::new("tfrt.return", self.location(u, 1)?);
                        if let Ok(&v) = u.choose(&inner) {
                            ret.operands.push(v);
                        }
                        ops.push(ret);
                    }
                    region.blocks.push(Block { arguments, ops });
                }
                if !bef && region.blocks.len() > 1 && u.ratio(1, 2)? {
                    // A branch to a later block of the same region.
                    let target = region.blocks.len() as u32 - 1;
                    let mut br = Op::new("cf.br", Location::Unknown);
                    br.successors.push(target);
                    region.blocks[0].ops.push(br);
                }
                op.regions.push(region);
            }
        }
        let m = u.int_in_range(0..=3)?;
        for _ in 0..m {
            let ty = self.ty(u, 2)?;
            op.results.push(self.module.new_value(ty, None));
        }
        Ok(op)
    }
}
