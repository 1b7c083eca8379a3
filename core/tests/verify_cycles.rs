//! Files whose kernels can never all become ready: `bef verify` rejects
//! them naming the kernels, and loading for execution refuses them rather
//! than waiting forever.

mod common;

use bef::format::{
    BefBuffer, Body, Function, FunctionKind, Kernel, KernelLocation, Module, encode, verify,
};

/// A kernel reading `args` and defining `results`, used-by lists computed.
fn kernel(args: &[u32], results: &[u32]) -> Kernel {
    Kernel {
        code: 0,
        location: KernelLocation::Virtual,
        args: args.to_vec(),
        attributes: Vec::new(),
        attribute_names: Vec::new(),
        functions: Vec::new(),
        results: results.to_vec(),
        used_by: vec![Vec::new(); results.len()],
        stream_id: 0,
    }
}

/// `@main` returning register 0, with `kernels` after the pseudo kernel.
fn program(num_registers: u32, kernels: Vec<Kernel>) -> Vec<u8> {
    let mut all = vec![Kernel::pseudo(0, num_registers, vec![Vec::new()], 0)];
    all.extend(kernels);
    let mut body = Body {
        location: None,
        num_registers,
        register_types: vec![0; num_registers as usize],
        kernels: all,
        results: vec![0],
    };
    body.compute_used_by();
    encode(&Module {
        kernel_names: vec!["tfrt_test.identity".into()],
        types: vec!["i32".into()],
        attributes: Vec::new(),
        functions: vec![Function {
            kind: FunctionKind::Bef,
            name: "main".into(),
            arg_types: Vec::new(),
            result_types: vec![0],
            body: Some(body),
        }],
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    })
    .expect("the model encodes")
}

fn problems(bytes: &[u8]) -> Vec<String> {
    let buffer = BefBuffer::copy_from(bytes);
    let file = buffer.open().expect("the file opens");
    match verify(&file) {
        Ok(()) => Vec::new(),
        Err(problems) => problems.iter().map(|p| p.to_string()).collect(),
    }
}

#[test]
fn two_kernels_reading_each_other_are_a_cycle() {
    let bytes = program(2, vec![kernel(&[1], &[0]), kernel(&[0], &[1])]);
    let found = problems(&bytes);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains(
            "kernels 1 (tfrt_test.identity), 2 (tfrt_test.identity) of 'main' can never run"
        ) && found[0].contains("dataflow cycle")
            && found[0].contains(" at offset 0x"),
        "{}",
        found[0]
    );
}

#[test]
fn a_kernel_reading_its_own_result_is_a_cycle() {
    let bytes = program(1, vec![kernel(&[0], &[0])]);
    let found = problems(&bytes);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("kernels 1 (tfrt_test.identity) of 'main' can never run"),
        "{}",
        found[0]
    );
}

#[test]
fn kernels_downstream_of_a_cycle_are_named_too_and_a_chain_is_fine() {
    // 1 ⇄ 2, and 3 reads 2's result: all three are stuck.
    let bytes = program(
        3,
        vec![kernel(&[1], &[0]), kernel(&[0], &[1]), kernel(&[1], &[2])],
    );
    let found = problems(&bytes);
    assert!(found.iter().any(|p| p.contains("kernels 1 (tfrt_test.identity), 2 (tfrt_test.identity), 3 (tfrt_test.identity) of 'main'")), "{found:?}");
    // A serial chain 1 → 2 → 3 (1 has no operands) verifies.
    let bytes = program(
        3,
        vec![kernel(&[], &[2]), kernel(&[2], &[1]), kernel(&[1], &[0])],
    );
    assert_eq!(problems(&bytes), Vec::<String>::new());
}

#[test]
fn bef_verify_reports_the_cycle_with_status_1() {
    let bytes = program(2, vec![kernel(&[1], &[0]), kernel(&[0], &[1])]);
    let out = common::bef(&["verify", "-"], Some(&bytes));
    assert_eq!(out.status.code(), Some(1), "{}", common::text(&out.stderr));
    assert!(common::text(&out.stderr).contains("dataflow cycle"));
}

#[test]
fn bef_run_refuses_what_verify_rejects_instead_of_waiting_forever() {
    for bytes in [
        program(2, vec![kernel(&[1], &[0]), kernel(&[0], &[1])]),
        program(1, vec![kernel(&[0], &[0])]),
    ] {
        let started = std::time::Instant::now();
        let out = common::bef(&["run", "-"], Some(&bytes));
        let stderr = common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("dataflow cycle"), "{stderr}");
        assert!(started.elapsed().as_secs() < 10);
    }
}

#[test]
fn loading_for_execution_applies_the_verifier() {
    let bytes = program(2, vec![kernel(&[1], &[0]), kernel(&[0], &[1])]);
    let mut registry = bef::exec::KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    let error = bef::exec::Program::load(BefBuffer::copy_from(&bytes), "cycle.bef", &registry)
        .expect_err("refused");
    assert!(error.message.contains("can never run"), "{error}");
    assert!(error.offset.is_some());
}
