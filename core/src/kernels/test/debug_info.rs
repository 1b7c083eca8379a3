//! Kernels that look at their own location: `tfrt_test.print_debug_info`
//! (the names the location carries) and `tfrt_test.unique_loc` (that no
//! two kernels share a location, also when both are unknown).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::exec::{KernelFrame, KernelRegistry, RemainingArguments, StringAttribute};
use crate::runtime::{Chain, HostContext, SharedContext};

crate::kernel! {
    /// `tfrt_test.print_debug_info %chain...`: prints the kernel's debug
    /// info (its location's names, as in `myScope/myKernel`), or that it
    /// has none.
    fn print_debug_info(_chains: RemainingArguments, frame: &KernelFrame, host: &HostContext) -> Chain {
        match frame.debug_info() {
            Some(info) => host.print(&format!("{info}\n")),
            None => host.print("Kernel has no debug info\n"),
        }
        Chain
    }
}

/// The location of each `tfrt_test.unique_loc` kernel run on a host, by the
/// kernel's `name`.
#[derive(Default)]
struct SeenLocations {
    names: Mutex<HashMap<(usize, u32), String>>,
}

impl SharedContext for SeenLocations {
    fn create(_: &HostContext) -> Self {
        SeenLocations::default()
    }
}

crate::kernel! {
    /// `tfrt_test.unique_loc {name = "a"}`: a chain, or an error when a
    /// kernel of another name had the same location: the translator gives
    /// every kernel a location of its own, so that a location identifies
    /// its kernel, even for `loc(unknown)`.
    fn unique_loc(name: StringAttribute, frame: &KernelFrame, host: &HostContext) -> Result<Chain, String> {
        let seen = host.shared_context::<SeenLocations>();
        let mut names = seen.names.lock().unwrap_or_else(|e| e.into_inner());
        let previous = names.entry(frame.location_key()).or_insert_with(|| name.to_string());
        if *previous == *name {
            Ok(Chain)
        } else {
            Err(format!(
                "kernel '{}' has the location of kernel '{previous}'",
                &*name
            ))
        }
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.print_debug_info", print_debug_info);
    registry.add_kernel("tfrt_test.unique_loc", unique_loc);
}
