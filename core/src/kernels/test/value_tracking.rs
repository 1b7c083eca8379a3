//! Value-tracking kernels (`vt.constant`, `vt.add`, `vt.print`): integers
//! that print when they are constructed, moved into their async value and
//! destroyed, so tests can show when the executor creates and releases
//! values (`lifetimes.mlir`).

use std::sync::Arc;

use crate::exec::{Argument, Attribute, ExecutionContext, KernelRegistry, RemainingArguments};
use crate::runtime::{AsyncValue, Chain, HostContext};

/// A tracked integer; prints `destroyed vt.value(N)` when dropped unless
/// it was moved from (the reference marks moved-from values with -1).
pub struct VtValue {
    v: i32,
    host: Arc<HostContext>,
}

impl crate::exec::TypeName for VtValue {
    const NAME: &'static str = "!vt.value";
}

impl VtValue {
    fn new(v: i32, host: &Arc<HostContext>) -> Self {
        host.print(&format!("constructed vt.value({v})\n"));
        VtValue {
            v,
            host: host.clone(),
        }
    }

    /// Moves the value into a new async value (printing the move, as the
    /// reference's move constructor does).
    fn into_async_value(mut self) -> AsyncValue {
        let moved = VtValue {
            v: self.v,
            host: self.host.clone(),
        };
        self.host
            .print(&format!("move constructed vt.value({})\n", moved.v));
        self.v = -1;
        AsyncValue::available(moved)
    }
}

impl Drop for VtValue {
    fn drop(&mut self) {
        if self.v != -1 {
            self.host
                .print(&format!("destroyed vt.value({})\n", self.v));
        }
    }
}

crate::kernel! {
    fn vt_constant(value: Attribute<i32>, ctx: &ExecutionContext) -> AsyncValue {
        VtValue::new(*value, ctx.host_arc()).into_async_value()
    }
}

crate::kernel! {
    fn vt_add(lhs: Argument<VtValue>, rhs: Argument<VtValue>, ctx: &ExecutionContext) -> AsyncValue {
        VtValue::new(lhs.v.wrapping_add(rhs.v), ctx.host_arc()).into_async_value()
    }
}

crate::kernel! {
    /// `vt.print %v, %chain...`: prints `print vt_value(N)`; further
    /// arguments (chains) only order it.
    fn vt_print(value: Argument<VtValue>, _rest: RemainingArguments, host: &HostContext) -> Chain {
        host.print(&format!("print vt_value({})\n", value.v));
        Chain
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("vt.constant", vt_constant);
    registry.add_kernel("vt.add", vt_add);
    registry.add_kernel("vt.print", vt_print);
}
