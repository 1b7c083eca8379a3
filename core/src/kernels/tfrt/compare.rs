//! Comparisons: `tfrt.equal.<int>` and `tfrt.lessequal.<int>` (i1 result).

use crate::exec::{Argument, KernelRegistry};

macro_rules! compare {
    ($($name:ident($t:ty) = $op:tt, $kernel:literal;)*) => {
        $(crate::kernel! {
            fn $name(a: Argument<$t>, b: Argument<$t>) -> bool { *a $op *b }
        })*

        pub(super) fn register(registry: &mut KernelRegistry) {
            $(registry.add_kernel($kernel, $name);)*
        }
    };
}

compare! {
    equal_i32(i32) = ==, "tfrt.equal.i32";
    equal_i64(i64) = ==, "tfrt.equal.i64";
    lessequal_i32(i32) = <=, "tfrt.lessequal.i32";
    lessequal_i64(i64) = <=, "tfrt.lessequal.i64";
}
