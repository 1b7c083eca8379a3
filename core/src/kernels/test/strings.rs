//! String kernels: `tfrt_test.get_string` (from the `value` attribute),
//! `print_string`, `append_string`, `string_equal`.

use crate::exec::{Argument, KernelRegistry, StringAttribute};
use crate::runtime::{Chain, Diagnostic, ErrorCode, HostContext};

/// Longest string `tfrt_test.append_string` makes, in bytes (64 MiB):
/// appending a string to itself in a loop doubles it at each step.
pub const MAX_STRING_BYTES: usize = 64 << 20;

crate::kernel! {
    fn get_string(value: StringAttribute) -> String { value.to_string() }
}

crate::kernel! {
    fn print_string(value: Argument<String>, host: &HostContext) -> Chain {
        host.print(&format!("string = {}\n", *value));
        Chain
    }
}

crate::kernel! {
    fn append_string(a: Argument<String>, b: Argument<String>) -> Result<String, Diagnostic> {
        let len = a.len().saturating_add(b.len());
        if len > MAX_STRING_BYTES {
            return Err(Diagnostic::new(format!(
                "appending makes a string of {len} bytes, more than the {MAX_STRING_BYTES} allowed"
            ))
            .with_code(ErrorCode::ResourceExhausted));
        }
        let mut out = String::with_capacity(len);
        out.push_str(&a);
        out.push_str(&b);
        Ok(out)
    }
}

crate::kernel! {
    fn string_equal(a: Argument<String>, b: Argument<String>) -> bool { *a == *b }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.get_string", get_string);
    registry.add_kernel("tfrt_test.print_string", print_string);
    registry.add_kernel("tfrt_test.append_string", append_string);
    registry.add_kernel("tfrt_test.string_equal", string_equal);
}
