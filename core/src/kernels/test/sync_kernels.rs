//! Kernels of the sync-function suites (`sync_basics.mlir`): failures,
//! sums over remaining arguments and over every attribute. They run in
//! asynchronous functions too.

use crate::exec::{Argument, KernelErrorHandler, KernelFrame, KernelRegistry, RemainingArguments};
use crate::runtime::{AsyncValue, Diagnostic, ErrorCode};

const SOMETHING_BAD: &str = "something bad happened";

crate::kernel! {
    /// `tfrt_test.fail_s`: the kernel fails.
    fn fail_s() -> Result<i32, String> {
        Err(SOMETHING_BAD.into())
    }
}

crate::kernel! {
    /// `tfrt_test.error_s`: the kernel succeeds with an error value as its
    /// result.
    fn error_s(handler: KernelErrorHandler) -> AsyncValue {
        handler.emit_error(SOMETHING_BAD)
    }
}

/// `first + rest...` (wrapping), naming the first argument that is not an
/// i32.
fn sum_rest(first: i32, rest: &[AsyncValue]) -> Result<i32, String> {
    rest.iter().enumerate().try_fold(first, |acc, (i, v)| {
        v.get::<i32>()
            .map(|x| acc.wrapping_add(*x))
            .map_err(|e| format!("argument #{}: {e}", i + 1))
    })
}

crate::kernel! {
    /// `tfrt_test.sync_sum %a, rest...`: one i32 and any remaining
    /// arguments.
    fn sync_sum(first: Argument<i32>, rest: RemainingArguments) -> Result<i32, String> {
        sum_rest(*first, &rest)
    }
}

crate::kernel! {
    /// `tfrt_test.sync_sum2 %a, rest...`: as `sync_sum`, the rest read as
    /// repeated i32 arguments.
    fn sync_sum2(first: Argument<i32>, rest: RemainingArguments) -> Result<i32, String> {
        sum_rest(*first, &rest)
    }
}

crate::kernel! {
    /// `tfrt_test.sync_sum_attributes {v0 = .., v1 = .., ...}`: the sum of
    /// every (i32) attribute.
    fn sync_sum_attributes(attributes: crate::exec::RemainingAttributes, frame: &KernelFrame)
        -> Result<i32, Diagnostic>
    {
        let reader = crate::exec::attribute::AttributeReader {
            section: frame.attribute_section(),
        };
        let sum = attributes
            .iter()
            .enumerate()
            .try_fold(0i32, |acc, (i, &offset)| {
                reader
                    .scalar::<i32>(offset)
                    .map(|v| acc.wrapping_add(v))
                    .map_err(|e| format!("'{}' attribute #{i}: {e}", frame.kernel_name()))
            })
            .map_err(|message| Diagnostic::new(message).with_code(ErrorCode::InvalidArgument))?;
        if frame.num_results() != 1 {
            return Err(Diagnostic::new(format!(
                "'{}' returns 1 result but the program declares {}",
                frame.kernel_name(),
                frame.num_results()
            ))
            .with_code(ErrorCode::InvalidArgument));
        }
        Ok(sum)
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.fail_s", fail_s);
    registry.add_kernel("tfrt_test.error_s", error_s);
    registry.add_kernel("tfrt_test.sync_sum", sync_sum);
    registry.add_kernel("tfrt_test.sync_sum2", sync_sum2);
    registry.add_kernel("tfrt_test.sync_sum_attributes", sync_sum_attributes);
}
