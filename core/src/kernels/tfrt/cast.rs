//! Numeric casts `tfrt.cast.<from>_to_<to>`. Float → integer saturates
//! (NaN → 0), where the reference's out-of-range cast is undefined.

use crate::exec::{Argument, KernelRegistry};

macro_rules! casts {
    ($($name:ident: $from:ty => $to:ty, $kernel:literal;)*) => {
        $(crate::kernel! {
            fn $name(value: Argument<$from>) -> $to { *value as $to }
        })*

        pub(super) fn register(registry: &mut KernelRegistry) {
            $(registry.add_kernel($kernel, $name);)*
        }
    };
}

casts! {
    i64_to_f32: i64 => f32, "tfrt.cast.i64_to_f32";
    f32_to_i64: f32 => i64, "tfrt.cast.f32_to_i64";
    i64_to_f64: i64 => f64, "tfrt.cast.i64_to_f64";
    f64_to_i64: f64 => i64, "tfrt.cast.f64_to_i64";
}
