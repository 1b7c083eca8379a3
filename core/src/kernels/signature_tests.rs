//! Every registered kernel's signature, as `bef kernels` lists it.

use crate::exec::KernelRegistry;

fn standard() -> KernelRegistry {
    let mut registry = KernelRegistry::new();
    super::register_all(&mut registry);
    registry
}

fn signature(registry: &KernelRegistry, name: &str) -> String {
    registry
        .kernel(name)
        .unwrap_or_else(|| panic!("{name} is not registered"))
        .signature()
        .to_string()
}

#[test]
fn known_kernels_read_as_their_definitions_declare() {
    let registry = standard();
    for (name, expected) in [
        ("tfrt.add.i32", "(i32, i32) -> (i32)"),
        ("tfrt.div.i32", "(i32, i32) -> (i32, i32)"),
        ("tfrt.constant.f32", "() {f32} -> (f32)"),
        ("tfrt.merge.chains", "(...) -> (!tfrt.chain)"),
        ("tfrt.while", "(i1, ...) {i64, @function} -> (...)"),
        ("tfrt.alias.value", "(!tfrt.chain, any) -> (any)"),
        (
            "btf.read_dense_tensor.f32.2",
            "(!tfrt.string, i32) -> (!t.tensor)",
        ),
        (
            "tfrt_test.matmul.f32.2",
            "(f32, !t.tensor, !t.tensor, f32, !t.tensor) -> (!tfrt.chain)",
        ),
        (
            "tfrt_dht.tensor_allclose.1000ulp.f32",
            "(!t.tensor, !t.tensor, !tfrt.chain) -> (i1, !tfrt.chain)",
        ),
        (
            "tfrt_dht.set_tensor_with_constant_values.i64",
            "(!t.tensor, !tfrt.chain) {[i64]} -> (!tfrt.chain)",
        ),
        (
            "tfrt_test.max_pooling_2d.f32",
            "(!t.tensor, !t.tensor, !tfrt.chain) {string, [i32], [i32]} -> (!tfrt.chain)",
        ),
        ("tfrt_test.sync_sum_attributes", "() {...} -> (i32)"),
        (
            "tfrt_test.atomic.inc.i32",
            "(!test.atomic.i32) -> (!tfrt.chain)",
        ),
    ] {
        assert_eq!(signature(&registry, name), expected, "{name}");
    }
}

/// A kernel that reads its frame by hand declares nothing; a signature
/// that takes and produces nothing gives one away. The one kernel that
/// really does nothing visible leaks a value on purpose.
#[test]
fn every_kernel_declares_what_it_takes_or_produces() {
    let registry = standard();
    let kernels = registry.kernels();
    assert_eq!(kernels.len(), registry.kernel_names().len());
    let empty: Vec<&str> = kernels
        .iter()
        .filter(|(_, kernel)| kernel.signature().is_empty())
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(empty, ["tfrt_test.memory_leak_one_int32"]);
}

#[test]
fn listing_is_sorted_by_name() {
    let registry = standard();
    let names: Vec<&str> = registry.kernels().iter().map(|(name, _)| *name).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
}
