//! `tfrt_tutorial.*`: the two kernels of TFRT's tutorial, which define a
//! user type (`!my.coordinate`) and print it.

use crate::exec::{Argument, KernelRegistry, RemainingArguments};
use crate::runtime::{AsyncValue, Chain, HostContext};

/// A point on the integer grid, the tutorial's user-defined value type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coordinate {
    /// Horizontal position.
    pub x: i32,
    /// Vertical position.
    pub y: i32,
}

impl crate::exec::TypeName for Coordinate {
    const NAME: &'static str = "!my.coordinate";
}

crate::kernel! {
    /// `tfrt_tutorial.create_coordinate %x, %y`: the coordinate `(x, y)`.
    fn create_coordinate(x: Argument<i32>, y: Argument<i32>) -> AsyncValue {
        AsyncValue::available(Coordinate { x: *x, y: *y })
    }
}

crate::kernel! {
    /// `tfrt_tutorial.print_coordinate %c, %chain...`: prints `(x, y)` and
    /// a line break; the chains after the coordinate only order the print.
    fn print_coordinate(
        coordinate: Argument<Coordinate>,
        _chains: RemainingArguments,
        host: &HostContext,
    ) -> Chain {
        host.print(&format!("({}, {})\n", coordinate.x, coordinate.y));
        Chain
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_tutorial.create_coordinate", create_coordinate);
    registry.add_kernel("tfrt_tutorial.print_coordinate", print_coordinate);
}
