//! Chains: `tfrt.new.chain`, `tfrt.merge.chains` (ready once all its
//! inputs are, which strictness already guarantees) and `tfrt.alias.value`
//! (returns its value argument once the chain argument is ready).

use crate::exec::{AnyArgument, Argument, KernelRegistry, Out, RemainingArguments};
use crate::runtime::Chain;

crate::kernel! {
    fn new_chain() -> Chain { Chain }
}

crate::kernel! {
    fn merge_chains(_chains: RemainingArguments) -> Chain { Chain }
}

crate::kernel! {
    fn alias_value(_chain: Argument<Chain>, value: AnyArgument, out: Out<crate::runtime::AsyncValue>) {
        out.set((*value).clone());
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt.new.chain", new_chain);
    registry.add_kernel("tfrt.merge.chains", merge_chains);
    registry.add_kernel("tfrt.alias.value", alias_value);
}
