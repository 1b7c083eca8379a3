//! Calls to registered kernels for the program generator, driven by the
//! registry's signatures: a [`KernelMenu`] lists every kernel whose
//! operands some chain of menu kernels can produce, whose attributes are
//! of kinds the generator writes and whose results are known in number; a
//! call takes earlier values of the right types, or generates a producer
//! for an operand no earlier value has. Tensor shapes and lists stay
//! small. A result of any type passes the type of an operand of any type
//! through, or is opaque (only ever an operand of any type).

use std::collections::BTreeMap;
use std::fmt::Write;

use arbitrary::{Result, Unstructured};

use super::registry::KernelRegistry;
use super::signature::VARIADIC;

/// Kernels that must not run under fuzzing, by name prefix, with why.
pub const EXCLUDED_KERNELS: &[(&str, &str)] = &[
    ("btf.read_dense_tensor.", "reads a file named by an operand"),
    ("tfrt_test.usleep", "sleeps as long as an operand says"),
    (
        "tfrt_test.blocking.usleep",
        "sleeps as long as an operand says",
    ),
    ("tfrt_test.async_copy.with_delay.", "sleeps on every call"),
    ("tfrt_test.copy.with_delay.", "sleeps on every call"),
    (
        "tfrt_test.get_thread_id",
        "its result depends on scheduling",
    ),
    (
        "tfrt_test.get_uniqueness",
        "its result depends on scheduling",
    ),
    (
        "tfrt_test.cancel",
        "what else runs after it depends on scheduling",
    ),
    (
        "tfrt_test.quiesce",
        "waits for the work queue from inside a kernel",
    ),
    ("tfrt_test.memory_leak_one_int32", "leaks a value by design"),
];

/// How a result of any type is spelled when no operand says its type.
const OPAQUE_TYPE: &str = "!fuzz.opaque";

/// Longest list attribute and largest tensor dimension written: tensors
/// stay within a few thousand elements.
const MAX_LIST: usize = 8;
const MAX_DIMENSION: i64 = 4;

/// One kernel the generator may call.
#[derive(Clone, Debug)]
struct MenuKernel {
    name: String,
    arguments: Vec<String>,
    /// Takes any number of further operands of any type.
    variadic: bool,
    attributes: Vec<String>,
    results: Vec<String>,
    /// Producer levels needed to make its operands from nothing, plus one.
    cost: u32,
}

/// The registered kernels the generator can call, sorted by name.
#[derive(Clone, Debug, Default)]
pub struct KernelMenu {
    kernels: Vec<MenuKernel>,
    /// Per producible type, the fewest producer levels that make it.
    type_cost: BTreeMap<String, u32>,
}

impl KernelMenu {
    /// A menu without kernels: programs use the built-in i32 ops only.
    pub fn empty() -> KernelMenu {
        KernelMenu::default()
    }

    /// The kernels of `registry` the generator can call: not excluded
    /// ([`EXCLUDED_KERNELS`]), no function attribute (control flow is
    /// written by the generator itself), attributes of writable kinds,
    /// a known number of results, and operands of types some menu kernel
    /// produces (found as a fixed point).
    pub fn from_registry(registry: &KernelRegistry) -> KernelMenu {
        let mut candidates: Vec<MenuKernel> = Vec::new();
        for (name, kernel) in registry.kernels() {
            if EXCLUDED_KERNELS
                .iter()
                .any(|(prefix, _)| name.starts_with(prefix))
            {
                continue;
            }
            let signature = kernel.signature();
            if signature.is_empty() {
                // Takes and makes nothing: no call to write.
                continue;
            }
            let writable = signature.attributes.iter().all(|a| attribute_writable(a));
            let known_results = signature.results.iter().all(|r| r != VARIADIC);
            let mut arguments = signature.arguments.clone();
            let variadic = arguments.last().is_some_and(|a| a == VARIADIC);
            if variadic {
                arguments.pop();
            }
            if !writable || !known_results || arguments.iter().any(|a| a == VARIADIC) {
                continue;
            }
            candidates.push(MenuKernel {
                name: name.to_string(),
                arguments,
                variadic,
                attributes: signature.attributes,
                results: signature.results,
                cost: 0,
            });
        }
        // Fixed point: a kernel becomes usable once every operand type has
        // a producer; its cost is one more than its costliest operand.
        let mut type_cost: BTreeMap<String, u32> = BTreeMap::new();
        let mut usable = vec![false; candidates.len()];
        loop {
            let mut changed = false;
            for (k, kernel) in candidates.iter_mut().enumerate() {
                if usable[k] {
                    continue;
                }
                let operand_costs: Option<Vec<u32>> = kernel
                    .arguments
                    .iter()
                    .map(|a| {
                        if a == "any" {
                            type_cost.get("i32").copied()
                        } else {
                            type_cost.get(a).copied()
                        }
                    })
                    .collect();
                let Some(mut costs) = operand_costs else {
                    continue;
                };
                // Variadic operands are `any` operands: an i32 will do.
                if kernel.variadic {
                    let Some(&i32_cost) = type_cost.get("i32") else {
                        continue;
                    };
                    costs.push(i32_cost);
                }
                // Every operand costs less than the kernel: making operands
                // for a producer always ends.
                kernel.cost = 1 + costs.into_iter().max().unwrap_or(0);
                usable[k] = true;
                changed = true;
                for result in kernel.results.iter().filter(|r| *r != "any") {
                    let cost = type_cost.entry(result.clone()).or_insert(u32::MAX);
                    *cost = (*cost).min(kernel.cost);
                }
            }
            if !changed {
                break;
            }
        }
        let kernels = candidates
            .into_iter()
            .zip(usable)
            .filter_map(|(k, usable)| usable.then_some(k))
            .collect();
        KernelMenu { kernels, type_cost }
    }

    /// Whether the menu has no kernel.
    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty()
    }

    /// Names of the kernels the generator may call, sorted.
    pub fn kernel_names(&self) -> impl Iterator<Item = &str> {
        self.kernels.iter().map(|k| k.name.as_str())
    }

    fn cost_of(&self, ty: &str) -> Option<u32> {
        let ty = if ty == "any" { "i32" } else { ty };
        self.type_cost.get(ty).copied()
    }
}

/// Where generated calls go: typed values in scope, fresh names, lines.
pub(super) trait Scope {
    /// A new value name.
    fn fresh(&mut self) -> String;
    /// The values of type `ty` in scope.
    fn values_of(&self, ty: &str) -> Vec<String>;
    /// Every value in scope, of any type.
    fn all_values(&self) -> Vec<String>;
    /// The type `value` was defined with, when it is in scope.
    fn type_of(&self, value: &str) -> Option<String>;
    /// Records `name`, of type `ty`, as in scope.
    fn define(&mut self, name: String, ty: &str);
    /// Appends one line of the body.
    fn line(&mut self, line: &str);
}

/// Appends a call to one kernel of `menu` (and any producers its operands
/// need) to `scope`. Does nothing when the menu is empty.
pub(super) fn call(menu: &KernelMenu, scope: &mut dyn Scope, u: &mut Unstructured) -> Result<()> {
    if menu.kernels.is_empty() {
        return Ok(());
    }
    let k = u.choose_index(menu.kernels.len())?;
    // One level more than the kernel needs, for variety in producers.
    emit(menu, scope, u, k, menu.kernels[k].cost)?;
    Ok(())
}

/// A value of type `ty`: an earlier one, or the result of a new producer
/// of cost at most `allowance` (never less than the type's cost).
fn value_of(
    menu: &KernelMenu,
    scope: &mut dyn Scope,
    u: &mut Unstructured,
    ty: &str,
    allowance: u32,
) -> Result<String> {
    if ty == "any" {
        let all = scope.all_values();
        if !all.is_empty() && u.ratio(3, 4)? {
            return Ok(u.choose(&all)?.clone());
        }
        return value_of(menu, scope, u, "i32", allowance);
    }
    let existing = scope.values_of(ty);
    if !existing.is_empty() && u.ratio(3, 4)? {
        return Ok(u.choose(&existing)?.clone());
    }
    let allowance = allowance.max(menu.cost_of(ty).unwrap_or(0));
    let producers: Vec<usize> = (0..menu.kernels.len())
        .filter(|&k| {
            let kernel = &menu.kernels[k];
            kernel.cost <= allowance && kernel.results.iter().any(|r| r == ty)
        })
        .collect();
    if producers.is_empty() {
        // Only for types the menu cannot make, which no menu kernel takes.
        return Ok(u.choose(&scope.all_values())?.clone());
    }
    let k = *u.choose(&producers)?;
    let results = emit(menu, scope, u, k, menu.kernels[k].cost - 1)?;
    let kernel = &menu.kernels[k];
    let of_type: Vec<&String> = results
        .iter()
        .zip(&kernel.results)
        .filter(|(_, r)| *r == ty)
        .map(|(name, _)| name)
        .collect();
    Ok(u.choose(&of_type)?.to_string())
}

/// Writes the call of kernel `k`, its operands made at `allowance`;
/// returns its result names.
fn emit(
    menu: &KernelMenu,
    scope: &mut dyn Scope,
    u: &mut Unstructured,
    k: usize,
    allowance: u32,
) -> Result<Vec<String>> {
    let kernel = &menu.kernels[k];
    let mut operands = Vec::new();
    let mut operand_types = Vec::new();
    for ty in &kernel.arguments {
        let value = value_of(menu, scope, u, ty, allowance)?;
        operand_types.push(if ty == "any" {
            type_in_scope(scope, &value)
        } else {
            ty.clone()
        });
        operands.push(value);
    }
    if kernel.variadic {
        for _ in 0..u.int_in_range(0..=2u8)? {
            let value = value_of(menu, scope, u, "any", allowance)?;
            operand_types.push(type_in_scope(scope, &value));
            operands.push(value);
        }
    }
    let rank = kernel
        .name
        .rsplit('.')
        .next()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&r| r <= 4);
    let mut attributes = Vec::new();
    for (i, ty) in kernel.attributes.iter().enumerate() {
        // Attributes are positional: names in declaration order.
        attributes.push(format!("a{i} = {}", attribute_value(u, ty, rank)?));
    }
    // A result of any type takes the type of the kernel's first operand
    // of any type (the kernels that have one pass it through); without
    // one it is an opaque value, only for operands of any type.
    let passed_through = kernel
        .arguments
        .iter()
        .position(|a| a == "any")
        .map(|i| operand_types[i].clone());
    let result_types: Vec<String> = kernel
        .results
        .iter()
        .map(|r| match (r.as_str(), &passed_through) {
            ("any", Some(ty)) => ty.clone(),
            ("any", None) => OPAQUE_TYPE.to_string(),
            _ => r.clone(),
        })
        .collect();
    let results: Vec<String> = result_types.iter().map(|_| scope.fresh()).collect();
    let mut line = String::new();
    if !results.is_empty() {
        let _ = write!(line, "{} = ", results.join(", "));
    }
    let _ = write!(line, "\"{}\"({})", kernel.name, operands.join(", "));
    if !attributes.is_empty() {
        let _ = write!(line, " {{{}}}", attributes.join(", "));
    }
    let _ = write!(
        line,
        " : ({}) -> ({})",
        operand_types.join(", "),
        result_types.join(", ")
    );
    scope.line(&line);
    for (name, ty) in results.iter().zip(&result_types) {
        scope.define(name.clone(), ty);
    }
    Ok(results)
}

/// The type a value in scope was defined with (`i32` for the values of
/// the built-in ops).
fn type_in_scope(scope: &dyn Scope, value: &str) -> String {
    scope.type_of(value).unwrap_or_else(|| "i32".to_string())
}

/// Whether the generator writes attributes of kind `ty`.
fn attribute_writable(ty: &str) -> bool {
    match ty.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        Some(element) => scalar_attribute(element),
        None => scalar_attribute(ty) || ty == "string",
    }
}

fn scalar_attribute(ty: &str) -> bool {
    matches!(
        ty,
        "i8" | "i16" | "i32" | "i64" | "ui8" | "ui16" | "ui32" | "ui64" | "f32" | "f64"
    )
}

/// An attribute value of kind `ty` (one [`attribute_writable`] accepts).
/// A `[i64]` list is a shape: `rank` long most of the time when the
/// kernel's name ends in its rank, small dimensions.
fn attribute_value(u: &mut Unstructured, ty: &str, rank: Option<usize>) -> Result<String> {
    if let Some(element) = ty.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let len = match rank {
            Some(r) if element == "i64" && u.ratio(7, 8)? => r,
            _ => u.int_in_range(0..=MAX_LIST)?,
        };
        let items = (0..len)
            .map(|_| {
                if element == "i64" {
                    Ok(format!("{} : i64", u.int_in_range(0..=MAX_DIMENSION)?))
                } else {
                    scalar_value(u, element)
                }
            })
            .collect::<Result<Vec<_>>>()?;
        return Ok(format!("[{}]", items.join(", ")));
    }
    if ty == "string" {
        let text = *u.choose(&["", "SAME", "VALID", "x", "a b"])?;
        return Ok(format!("\"{text}\""));
    }
    scalar_value(u, ty)
}

fn scalar_value(u: &mut Unstructured, ty: &str) -> Result<String> {
    Ok(match ty {
        "f32" | "f64" => {
            let whole = u.int_in_range(-8..=8i32)?;
            let half = if u.ratio(1, 2)? { ".5" } else { ".0" };
            format!("{whole}{half} : {ty}")
        }
        "ui8" => format!("{} : ui8", u.int_in_range(0..=1u8)?),
        "ui16" | "ui32" | "ui64" => format!("{} : {ty}", u.int_in_range(0..=64u16)?),
        _ => format!("{} : {ty}", u.int_in_range(-8..=8i8)?),
    })
}
