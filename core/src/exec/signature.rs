//! What a kernel takes and produces, derived from the types its definition
//! uses: every extractor ([`FromFrame`](super::FromFrame)) and every
//! returned value ([`IntoResults`](super::IntoResults)) says what it
//! stands for, and [`kernel!`](crate::kernel) collects them into the
//! [`Kernel`] it defines, so a listing cannot drift from the code.

use std::fmt;

use super::registry::KernelFn;
use crate::runtime::{AsyncValue, Chain};

/// A value type's name as MLIR programs spell it (`i32`, `!tfrt.chain`).
pub trait TypeName {
    /// The type's MLIR spelling.
    const NAME: &'static str;
}

macro_rules! type_names {
    ($($t:ty => $name:literal),* $(,)?) => {$(
        impl TypeName for $t {
            const NAME: &'static str = $name;
        }
    )*};
}

type_names!(
    bool => "i1", i8 => "i8", i16 => "i16", i32 => "i32", i64 => "i64",
    u8 => "ui8", u16 => "ui16", u32 => "ui32", u64 => "ui64",
    f32 => "f32", f64 => "f64",
    Chain => "!tfrt.chain", String => "!tfrt.string",
    AsyncValue => "any",
    std::sync::atomic::AtomicI32 => "!test.atomic.i32",
);

/// A kernel's operands, attributes and results, in order. A variadic
/// tail (`RemainingArguments`, ...) is spelled `...`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    /// Argument types.
    pub arguments: Vec<String>,
    /// Attribute types; a function attribute is `@function`.
    pub attributes: Vec<String>,
    /// Result types, those of `Out` parameters first.
    pub results: Vec<String>,
}

/// The spelling of any number of further operands of any type.
pub const VARIADIC: &str = "...";

impl Signature {
    /// Whether the kernel declares no argument, attribute or result.
    pub fn is_empty(&self) -> bool {
        self.arguments.is_empty() && self.attributes.is_empty() && self.results.is_empty()
    }
}

impl fmt::Display for Signature {
    /// `(i32, !tfrt.chain) {f32} -> (i32)`; the braces only when the
    /// kernel takes attributes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})", self.arguments.join(", "))?;
        if !self.attributes.is_empty() {
            write!(f, " {{{}}}", self.attributes.join(", "))?;
        }
        write!(f, " -> ({})", self.results.join(", "))
    }
}

/// A kernel as [`kernel!`](crate::kernel) defines it: the function the
/// executor calls and its signature.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    func: KernelFn,
    signature: fn() -> Signature,
}

impl Kernel {
    /// Pairs a kernel function with the function that describes it.
    pub const fn new(func: KernelFn, signature: fn() -> Signature) -> Self {
        Kernel { func, signature }
    }

    /// The function the executor calls.
    pub fn func(&self) -> KernelFn {
        self.func
    }

    /// What the kernel takes and produces.
    pub fn signature(&self) -> Signature {
        (self.signature)()
    }

    pub(super) fn signature_fn(&self) -> fn() -> Signature {
        self.signature
    }
}
