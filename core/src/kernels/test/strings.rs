//! String kernels: `tfrt_test.get_string` (from the `value` attribute),
//! `print_string`, `append_string`, `string_equal`.

use crate::exec::{Argument, KernelRegistry, StringAttribute};
use crate::runtime::{Chain, HostContext};

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
    fn append_string(a: Argument<String>, b: Argument<String>) -> String {
        format!("{}{}", *a, *b)
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
