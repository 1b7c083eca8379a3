//! The kernel registry: kernel implementations and native functions by
//! name. Filled once (usually by `kernels::register_all`), then shared.

use std::collections::HashMap;

use super::context::ExecutionContext;
use super::frame::KernelFrame;
use super::signature::{Kernel, Signature};
use crate::runtime::{AsyncValue, HostContext};

/// A kernel: reads arguments and attributes from the frame, sets every
/// result (available, unavailable or error) before returning.
pub type KernelFn = fn(&KernelFrame<'_>);

/// A native (host) function called by BEF functions: `results` has one
/// slot per declared result, each to be set before returning.
pub type NativeFn = fn(&ExecutionContext, &[AsyncValue], &mut [Option<AsyncValue>]);

/// A registered kernel.
#[derive(Clone, Copy, Debug)]
pub struct KernelImpl {
    /// The function that runs the kernel.
    pub func: KernelFn,
    /// Runs as soon as its first argument is available; the other arguments
    /// may still be unavailable (the kernel attaches continuations).
    pub non_strict: bool,
    signature: fn() -> Signature,
}

impl KernelImpl {
    /// What the kernel takes and produces.
    pub fn signature(&self) -> Signature {
        (self.signature)()
    }
}

/// How values of one runtime type are made from and read back as typed
/// call values ([`abi::Value`](crate::abi::Value)); registered by the
/// kernel library that owns the type.
#[derive(Clone, Copy, Debug)]
pub struct ValueConverter {
    /// The runtime value of a call value, or why it cannot be one.
    pub to_runtime: fn(&crate::abi::Value, &HostContext) -> Result<AsyncValue, String>,
    /// The call value of an available runtime value, or why it has none.
    pub from_runtime: fn(&AsyncValue) -> Result<crate::abi::Value, String>,
}

/// Kernels and native functions by name, resolved when a program loads.
#[derive(Default)]
pub struct KernelRegistry {
    kernels: HashMap<String, KernelImpl>,
    natives: HashMap<String, NativeFn>,
    converters: HashMap<String, ValueConverter>,
}

impl std::fmt::Debug for KernelRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KernelRegistry")
            .field("kernels", &self.kernels.len())
            .field("natives", &self.natives.len())
            .finish()
    }
}

impl KernelRegistry {
    /// An empty registry (`bef::kernels::register_all` adds the standard kernels).
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a strict kernel (runs when every argument is available).
    /// A later registration of the same name replaces the earlier one.
    pub fn add_kernel(&mut self, name: &str, kernel: Kernel) {
        self.insert(name, kernel, false);
    }

    /// Registers a non-strict kernel.
    pub fn add_non_strict_kernel(&mut self, name: &str, kernel: Kernel) {
        self.insert(name, kernel, true);
    }

    fn insert(&mut self, name: &str, kernel: Kernel, non_strict: bool) {
        self.kernels.insert(
            name.to_string(),
            KernelImpl {
                func: kernel.func(),
                non_strict,
                signature: kernel.signature_fn(),
            },
        );
    }

    /// Registers `func` as the native function `name` (replacing one of that name).
    pub fn add_native_function(&mut self, name: &str, func: NativeFn) {
        self.natives.insert(name.to_string(), func);
    }

    /// Registers how values of the runtime type `type_name` (`!t.tensor`)
    /// convert to and from typed call values.
    pub fn add_value_converter(&mut self, type_name: &str, converter: ValueConverter) {
        self.converters.insert(type_name.to_string(), converter);
    }

    /// The converter of runtime type `type_name`.
    pub fn value_converter(&self, type_name: &str) -> Option<ValueConverter> {
        self.converters.get(type_name).copied()
    }

    /// The kernel registered as `name`.
    pub fn kernel(&self, name: &str) -> Option<KernelImpl> {
        self.kernels.get(name).copied()
    }

    /// The native function registered as `name`.
    pub fn native_function(&self, name: &str) -> Option<NativeFn> {
        self.natives.get(name).copied()
    }

    /// Registered kernels by name, sorted by name.
    pub fn kernels(&self) -> Vec<(&str, KernelImpl)> {
        let mut kernels: Vec<(&str, KernelImpl)> = self
            .kernels
            .iter()
            .map(|(name, kernel)| (name.as_str(), *kernel))
            .collect();
        kernels.sort_unstable_by_key(|(name, _)| *name);
        kernels
    }

    /// Registered kernel names, sorted.
    pub fn kernel_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.kernels.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }
}
