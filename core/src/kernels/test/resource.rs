//! Resources and shared contexts: `tfrt_test.allocate_resource` /
//! `deallocate_resource` (explicit lifetime, printed), `tfrt_test.flat`
//! (nested array attribute), `tfrt_test.use_sample_shared_context`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::exec::{AggregateAttribute, Argument, KernelRegistry, Out};
use crate::format::Attribute as Attr;
use crate::runtime::{Chain, HostContext, SharedContext};

/// Prints when created and destroyed, so tests see its lifetime.
struct TestResource {
    host: Arc<HostContext>,
}

impl TestResource {
    fn new(host: Arc<HostContext>) -> Self {
        host.print("Allocated TestResource\n");
        TestResource { host }
    }
}

impl Drop for TestResource {
    fn drop(&mut self) {
        self.host.print("Destroyed TestResource\n");
    }
}

/// The value `allocate_resource` returns; `deallocate_resource` empties it.
struct ResourceSlot(Mutex<Option<TestResource>>);

impl crate::exec::TypeName for ResourceSlot {
    const NAME: &'static str = "!tfrt.test.resource";
}

crate::kernel! {
    fn allocate_resource(chain: Argument<Chain>, resource: Out<ResourceSlot>, chain_out: Out<Chain>, ctx: &crate::exec::ExecutionContext) {
        let slot = ResourceSlot(Mutex::new(Some(TestResource::new(ctx.host_arc().clone()))));
        resource.emplace(slot);
        chain_out.set(chain.value().clone());
    }
}

crate::kernel! {
    fn deallocate_resource(resource: Argument<ResourceSlot>, chain: Argument<Chain>, chain_out: Out<Chain>, host: &HostContext) {
        let taken = resource.0.lock().unwrap_or_else(|e| e.into_inner()).take();
        drop(taken);
        chain_out.set(chain.value().clone());
        host.print("tfrt_test.deallocate_resource done\n");
    }
}

const FLAT_SHAPE: &str = "expects [[string, [i32, i32]], [f32]]";

crate::kernel! {
    /// `value = [["s", [a : i32, b : i32]], [x : f32]]` → (s, a, b, x).
    fn flat(value: AggregateAttribute) -> Result<(String, i32, i32, f32), String> {
        let bad = || format!("tfrt_test.flat {FLAT_SHAPE}");
        let [first, second] = value.0.as_slice() else { return Err(bad()) };
        let inner = match first {
            Attr::Aggregate(inner) => inner.as_slice(),
            _ => return Err(bad()),
        };
        let [Attr::String(s), ints] = inner else { return Err(bad()) };
        let ints = elements(ints).ok_or_else(bad)?;
        let floats = elements(second).ok_or_else(bad)?;
        match (ints, floats) {
            ([Attr::I32(a), Attr::I32(b)], [Attr::F32(x), ..]) => Ok((
                String::from_utf8_lossy(s).into_owned(),
                *a,
                *b,
                f32::from_bits(*x),
            )),
            _ => Err(bad()),
        }
    }
}

fn elements(attr: &Attr) -> Option<&[Attr]> {
    match attr {
        Attr::Array { values, .. } | Attr::Aggregate(values) => Some(values),
        _ => None,
    }
}

static SAMPLE_CONTEXTS: AtomicUsize = AtomicUsize::new(0);

/// Created once per host context; its name counts the instances made in
/// this process before it.
struct SampleSharedContext {
    name: String,
}

impl SharedContext for SampleSharedContext {
    fn create(_: &HostContext) -> Self {
        let n = SAMPLE_CONTEXTS.fetch_add(1, Ordering::Relaxed);
        SampleSharedContext {
            name: format!("sample_shared_context{n}"),
        }
    }
}

crate::kernel! {
    fn use_sample_shared_context(chain: Argument<Chain>, name: Out<String>, chain_out: Out<Chain>, host: &HostContext) {
        name.emplace(host.shared_context::<SampleSharedContext>().name.clone());
        chain_out.set(chain.value().clone());
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.allocate_resource", allocate_resource);
    registry.add_kernel("tfrt_test.deallocate_resource", deallocate_resource);
    registry.add_kernel("tfrt_test.flat", flat);
    registry.add_kernel(
        "tfrt_test.use_sample_shared_context",
        use_sample_shared_context,
    );
}
