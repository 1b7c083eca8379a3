//! Random valid host programs for fuzzing the executor: several functions
//! over `i32` values using synchronous and asynchronous arithmetic, errors
//! (a failing kernel, division by zero), calls, conditionals and loops.
//! Every program terminates and its results do not depend on scheduling,
//! so running it on different work queues must give the same results.

use std::fmt::Write;

use arbitrary::{Result, Unstructured};

/// Limits of a generated program.
#[derive(Clone, Copy, Debug)]
pub struct ProgramLimits {
    /// Most functions besides `@main`.
    pub max_functions: usize,
    /// Most ops in one function body.
    pub max_ops: usize,
    /// Largest iteration count of a generated `tfrt.repeat.i32`.
    pub max_repeat: i32,
}

impl Default for ProgramLimits {
    fn default() -> Self {
        ProgramLimits {
            max_functions: 4,
            max_ops: 24,
            max_repeat: 4,
        }
    }
}

/// A generated program: MLIR text whose function `@main` takes no
/// arguments and returns `results` i32 values.
#[derive(Debug, Clone)]
pub struct GeneratedProgram {
    /// The program's MLIR text.
    pub source: String,
    /// Number of i32 results of `@main`.
    pub results: usize,
}

struct FunctionSig {
    name: String,
    arguments: usize,
}

/// Builds one function body, tracking the i32 values in scope.
struct Body<'a> {
    text: String,
    values: Vec<String>,
    next: usize,
    callees: &'a [FunctionSig],
    limits: ProgramLimits,
    indent: &'static str,
}

impl Body<'_> {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn pick(&self, u: &mut Unstructured) -> Result<String> {
        Ok(u.choose(&self.values)?.clone())
    }

    fn line(&mut self, line: &str) {
        let _ = writeln!(self.text, "{}{line}", self.indent);
    }

    /// Appends one op defining a new i32 value.
    fn op(&mut self, u: &mut Unstructured, depth: usize) -> Result<()> {
        let out = self.fresh();
        let choice = u.int_in_range(0..=10u8)?;
        match choice {
            0 | 1 => {
                let n: i32 = u.int_in_range(-8..=8)?;
                self.line(&format!("{out} = tfrt.constant.i32 {n}"));
            }
            2..=4 => {
                // The reference's i32 arithmetic (no multiply or minimum).
                let op = *u.choose(&["add", "minus"])?;
                let (a, b) = (self.pick(u)?, self.pick(u)?);
                self.line(&format!(
                    "{out} = \"tfrt.{op}.i32\"({a}, {b}) : (i32, i32) -> i32"
                ));
            }
            5 => {
                let (a, b) = (self.pick(u)?, self.pick(u)?);
                self.line(&format!(
                    "{out} = \"tfrt_test.async_add.i32\"({a}, {b}) : (i32, i32) -> i32"
                ));
            }
            6 => {
                // Division: an error value when the divisor is zero.
                let (a, b) = (self.pick(u)?, self.pick(u)?);
                let rem = self.fresh();
                self.line(&format!("{out}, {rem} = tfrt.div.i32 {a}, {b}"));
            }
            7 if u.ratio(1, 4)? => {
                self.line(&format!("{out} = \"tfrt_test.fail\"() : () -> i32"));
            }
            7 | 8 if !self.callees.is_empty() => {
                let callee = u.choose(self.callees)?;
                let args = (0..callee.arguments)
                    .map(|_| self.pick(u))
                    .collect::<Result<Vec<_>>>()?;
                let types = vec!["i32"; args.len()].join(", ");
                self.line(&format!(
                    "{out} = tfrt.call @{}({}) : ({types}) -> i32",
                    callee.name,
                    args.join(", ")
                ));
            }
            9 if depth == 0 => self.conditional(u, &out)?,
            10 if depth == 0 => self.repeat(u, &out)?,
            _ => {
                let a = self.pick(u)?;
                self.line(&format!(
                    "{out} = \"tfrt.add.i32\"({a}, {a}) : (i32, i32) -> i32"
                ));
            }
        }
        self.values.push(out);
        Ok(())
    }

    /// `tfrt.if` on a comparison, each branch a small nested body.
    fn conditional(&mut self, u: &mut Unstructured, out: &str) -> Result<()> {
        let (a, b) = (self.pick(u)?, self.pick(u)?);
        let cond = self.fresh();
        self.line(&format!("{cond} = tfrt.lessequal.i32 {a}, {b}"));
        let x = self.pick(u)?;
        let then_body = self.region(u, &x)?;
        let else_body = self.region(u, &x)?;
        self.line(&format!(
            "{out} = tfrt.if {cond}, {x} : (i32) -> (i32) {{\n{then_body}{}}} else {{\n{else_body}{}}}",
            self.indent, self.indent
        ));
        Ok(())
    }

    /// `tfrt.repeat.i32` a small constant number of times.
    fn repeat(&mut self, u: &mut Unstructured, out: &str) -> Result<()> {
        let count = self.fresh();
        let n = u.int_in_range(0..=self.limits.max_repeat)?;
        self.line(&format!("{count} = tfrt.constant.i32 {n}"));
        let x = self.pick(u)?;
        let body = self.region(u, &x)?;
        self.line(&format!(
            "{out} = tfrt.repeat.i32 {count}, {x} : i32 {{\n{body}{}}}",
            self.indent
        ));
        Ok(())
    }

    /// A region whose block argument takes the name `arg` (the custom forms
    /// name region arguments after the operands) returning one i32.
    fn region(&mut self, u: &mut Unstructured, arg: &str) -> Result<String> {
        let mut inner = Body {
            text: String::new(),
            values: vec![arg.to_string()],
            next: self.next,
            callees: self.callees,
            limits: self.limits,
            indent: "      ",
        };
        let ops = u.int_in_range(0..=3)?;
        for _ in 0..ops {
            inner.op(u, 1)?;
        }
        let result = inner.pick(u)?;
        inner.line(&format!("tfrt.return {result} : i32"));
        self.next = inner.next;
        Ok(inner.text)
    }
}

/// Generates a program from `u`.
pub fn arbitrary_program(u: &mut Unstructured, limits: ProgramLimits) -> Result<GeneratedProgram> {
    let count = u.int_in_range(0..=limits.max_functions.saturating_sub(1))?;
    let mut functions: Vec<FunctionSig> = Vec::new();
    let mut source = String::new();
    for i in 0..=count {
        let is_main = i == count;
        let arguments = if is_main { 0 } else { u.int_in_range(1..=3)? };
        let name = if is_main {
            "main".to_string()
        } else {
            format!("f{i}")
        };
        let mut body = Body {
            text: String::new(),
            values: (0..arguments).map(|a| format!("%a{a}")).collect(),
            next: 0,
            callees: &functions,
            limits,
            indent: "  ",
        };
        if body.values.is_empty() {
            body.op(u, 0)?;
        }
        let ops = u.int_in_range(1..=limits.max_ops)?;
        for _ in 0..ops {
            body.op(u, 0)?;
        }
        let results = if is_main { u.int_in_range(1..=3)? } else { 1 };
        let returned = (0..results)
            .map(|_| body.pick(u))
            .collect::<Result<Vec<_>>>()?;
        let params = (0..arguments)
            .map(|a| format!("%a{a}: i32"))
            .collect::<Vec<_>>()
            .join(", ");
        let result_types = vec!["i32"; results].join(", ");
        let _ = writeln!(source, "func.func @{name}({params}) -> ({result_types}) {{");
        source.push_str(&body.text);
        let _ = writeln!(
            source,
            "  tfrt.return {} : {result_types}\n}}\n",
            returned.join(", ")
        );
        if is_main {
            return Ok(GeneratedProgram { source, results });
        }
        functions.push(FunctionSig { name, arguments });
    }
    unreachable!("the loop returns at main")
}
