//! Random valid host programs for fuzzing the executor: several functions
//! over `i32` values using synchronous and asynchronous arithmetic, errors
//! (a failing kernel, division by zero), calls, conditionals and loops,
//! recursion (bounded, thousands of calls deep, or runaway, which must end
//! at the host's call-depth limit), and type, attribute and location
//! aliases that refer to each other and are shared by many ops; and calls
//! to any kernel of a [`KernelMenu`] (built from the registry's kernel
//! signatures, operands made by producer kernels when no earlier value
//! has their type). Every program terminates and its results do not
//! depend on scheduling, so running it on different work queues must give
//! the same results. The generator never gives up: every choice has
//! something to choose from, so any input builds a program.

use std::collections::BTreeMap;
use std::fmt::Write;

use arbitrary::{Result, Unstructured};

pub use super::arbitrary_kernel_calls::{EXCLUDED_KERNELS, KernelMenu};
use super::arbitrary_kernel_calls::{Scope, call};

/// Limits of a generated program.
#[derive(Clone, Copy, Debug)]
pub struct ProgramLimits {
    /// Most functions besides `@main`.
    pub max_functions: usize,
    /// Most ops in one function body.
    pub max_ops: usize,
    /// Largest iteration count of a generated `tfrt.repeat.i32`.
    pub max_repeat: i32,
    /// Deepest bounded recursion (`@rec` calls nested this many times).
    /// Keep it below the call-depth limit of the host that runs the
    /// program; runaway recursion (`@forever`) reaches that limit.
    pub max_recursion: i32,
}

impl Default for ProgramLimits {
    fn default() -> Self {
        ProgramLimits {
            max_functions: 4,
            max_ops: 24,
            max_repeat: 4,
            max_recursion: 1_500,
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

/// The aliases defined at the top of a program, for ops to share: a chain
/// of type aliases (`!t1 = !t0`), attribute aliases of i32 constants
/// (some referring to others) and location aliases nested in each other
/// (fused, named and call-site locations, a few levels deep).
struct Aliases {
    types: usize,
    constants: usize,
    locations: usize,
}

impl Aliases {
    fn generate(u: &mut Unstructured, source: &mut String) -> Result<Aliases> {
        let types = u.int_in_range(0..=3)?;
        for k in 0..types {
            let value = if k == 0 {
                "i32".to_string()
            } else {
                format!("!t{}", k - 1)
            };
            let _ = writeln!(source, "!t{k} = {value}");
        }
        let constants = u.int_in_range(0..=4)?;
        for k in 0..constants {
            let value = if k > 0 && u.ratio(1, 3)? {
                format!("#c{}", u.int_in_range(0..=k - 1)?)
            } else {
                format!("{} : i32", u.int_in_range(-8..=8)?)
            };
            let _ = writeln!(source, "#c{k} = {value}");
        }
        // Each location refers to at most two earlier ones; six levels keep
        // the expansion of the deepest within a few dozen leaves.
        let locations = u.int_in_range(0..=6)?;
        for k in 0..locations {
            let value = if k == 0 {
                format!("loc(\"generated.mlir\":{}:1)", u.int_in_range(1..=99)?)
            } else {
                let a = u.int_in_range(0..=k - 1)?;
                let b = u.int_in_range(0..=k - 1)?;
                match u.int_in_range(0..=3u8)? {
                    0 => format!("loc(fused[#l{a}, #l{b}])"),
                    1 => format!("loc(\"name{k}\"(#l{a}))"),
                    2 => format!("loc(callsite(#l{a} at #l{b}))"),
                    _ => format!("loc(\"generated.mlir\":{k}:{})", u.int_in_range(1..=80)?),
                }
            };
            let _ = writeln!(source, "#l{k} = {value}");
        }
        Ok(Aliases {
            types,
            constants,
            locations,
        })
    }

    /// `i32`, or one of the type aliases that stand for it.
    fn i32_type(&self, u: &mut Unstructured) -> Result<String> {
        if self.types > 0 && u.ratio(1, 2)? {
            Ok(format!("!t{}", u.int_in_range(0..=self.types - 1)?))
        } else {
            Ok("i32".to_string())
        }
    }
}

/// Which recursive functions the program defines.
#[derive(Clone, Copy)]
struct Recursion {
    /// `@rec(%n, %x)`: `%x + n + (n - 1) + … + 1`, one call per level.
    bounded: bool,
    /// `@forever(%x)`: calls itself until the host's depth limit.
    runaway: bool,
}

/// `@rec`: recursion through `tfrt.if` and `tfrt.call`, `%n` levels deep.
const RECURSIVE_FUNCTION: &str = "func.func @rec(%n: i32, %x: i32) -> i32 {
  %zero = tfrt.constant.i32 0
  %done = tfrt.lessequal.i32 %n, %zero
  %r = tfrt.if %done, %n, %x : (i32, i32) -> (i32) {
    tfrt.return %x : i32
  } else {
    %one = tfrt.constant.i32 1
    %m = \"tfrt.minus.i32\"(%n, %one) : (i32, i32) -> i32
    %y = \"tfrt.add.i32\"(%x, %n) : (i32, i32) -> i32
    %z = tfrt.call @rec(%m, %y) : (i32, i32) -> i32
    tfrt.return %z : i32
  }
  tfrt.return %r : i32
}

";

/// `@forever`: recursion without a base case.
const RUNAWAY_FUNCTION: &str = "func.func @forever(%x: i32) -> i32 {
  %y = tfrt.call @forever(%x) : (i32) -> i32
  tfrt.return %y : i32
}

";

/// Builds one function body, tracking the values in scope: i32 values
/// (what the built-in ops use and functions return) and the values of
/// other types that kernel calls made.
struct Body<'a> {
    text: String,
    values: Vec<String>,
    typed: BTreeMap<String, Vec<String>>,
    next: usize,
    callees: &'a [FunctionSig],
    menu: &'a KernelMenu,
    aliases: &'a Aliases,
    recursion: Recursion,
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

    /// Appends one op: a call to a menu kernel, or one defining a new
    /// i32 value.
    fn op(&mut self, u: &mut Unstructured, depth: usize) -> Result<()> {
        if !self.menu.is_empty() && u.ratio(2, 5)? {
            call(self.menu, self, u)?;
            self.location(u)?;
            return Ok(());
        }
        let out = self.fresh();
        let choice = u.int_in_range(0..=10u8)?;
        match choice {
            0 | 1 if self.aliases.constants > 0 && u.ratio(1, 2)? => {
                let k = u.int_in_range(0..=self.aliases.constants - 1)?;
                self.line(&format!(
                    "{out} = \"tfrt.constant.i32\"() {{value = #c{k}}} : () -> i32"
                ));
            }
            0 | 1 => {
                let n: i32 = u.int_in_range(-8..=8)?;
                self.line(&format!("{out} = tfrt.constant.i32 {n}"));
            }
            2..=4 => {
                // The reference's i32 arithmetic (no multiply or minimum).
                let op = *u.choose(&["add", "minus"])?;
                let (a, b) = (self.pick(u)?, self.pick(u)?);
                let t = [
                    self.aliases.i32_type(u)?,
                    self.aliases.i32_type(u)?,
                    self.aliases.i32_type(u)?,
                ];
                self.line(&format!(
                    "{out} = \"tfrt.{op}.i32\"({a}, {b}) : ({}, {}) -> {}",
                    t[0], t[1], t[2]
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
            8 if self.recursion.bounded && u.ratio(1, 2)? => {
                let n = self.fresh();
                let levels = u.int_in_range(0..=self.limits.max_recursion)?;
                self.line(&format!("{n} = tfrt.constant.i32 {levels}"));
                let x = self.pick(u)?;
                self.line(&format!(
                    "{out} = tfrt.call @rec({n}, {x}) : (i32, i32) -> i32"
                ));
            }
            8 if self.recursion.runaway && u.ratio(1, 4)? => {
                let x = self.pick(u)?;
                self.line(&format!("{out} = tfrt.call @forever({x}) : (i32) -> i32"));
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
        self.location(u)?;
        self.values.push(out);
        Ok(())
    }

    /// Any op may carry a location alias, after its last line.
    fn location(&mut self, u: &mut Unstructured) -> Result<()> {
        if self.aliases.locations > 0 && u.ratio(1, 3)? {
            let k = u.int_in_range(0..=self.aliases.locations - 1)?;
            self.text.pop();
            let _ = writeln!(self.text, " loc(#l{k})");
        }
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
            typed: BTreeMap::new(),
            next: self.next,
            callees: self.callees,
            menu: self.menu,
            aliases: self.aliases,
            recursion: self.recursion,
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

impl Scope for Body<'_> {
    fn fresh(&mut self) -> String {
        Body::fresh(self)
    }

    fn values_of(&self, ty: &str) -> Vec<String> {
        if ty == "i32" {
            self.values.clone()
        } else {
            self.typed.get(ty).cloned().unwrap_or_default()
        }
    }

    fn all_values(&self) -> Vec<String> {
        let mut all = self.values.clone();
        all.extend(self.typed.values().flatten().cloned());
        all
    }

    fn type_of(&self, value: &str) -> Option<String> {
        if self.values.iter().any(|v| v == value) {
            return Some("i32".to_string());
        }
        self.typed
            .iter()
            .find(|(_, values)| values.iter().any(|v| v == value))
            .map(|(ty, _)| ty.clone())
    }

    fn define(&mut self, name: String, ty: &str) {
        if ty == "i32" {
            self.values.push(name);
        } else {
            self.typed.entry(ty.to_string()).or_default().push(name);
        }
    }

    fn line(&mut self, line: &str) {
        Body::line(self, line);
    }
}

/// Generates a program from `u`, calling kernels of `menu` besides the
/// built-in i32 ops.
pub fn arbitrary_program(
    u: &mut Unstructured,
    limits: ProgramLimits,
    menu: &KernelMenu,
) -> Result<GeneratedProgram> {
    let count = u.int_in_range(0..=limits.max_functions.saturating_sub(1))?;
    let mut functions: Vec<FunctionSig> = Vec::new();
    let mut source = String::new();
    let aliases = Aliases::generate(u, &mut source)?;
    let recursion = Recursion {
        bounded: u.ratio(1, 3)?,
        runaway: u.ratio(1, 8)?,
    };
    if recursion.bounded {
        source.push_str(RECURSIVE_FUNCTION);
    }
    if recursion.runaway {
        source.push_str(RUNAWAY_FUNCTION);
    }
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
            typed: BTreeMap::new(),
            next: 0,
            callees: &functions,
            menu,
            aliases: &aliases,
            recursion,
            limits,
            indent: "  ",
        };
        if body.values.is_empty() {
            // `@main` starts from a constant: every op then has an i32
            // value to take.
            let out = body.fresh();
            let n: i32 = u.int_in_range(-8..=8)?;
            body.line(&format!("{out} = tfrt.constant.i32 {n}"));
            body.values.push(out);
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
