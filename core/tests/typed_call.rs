//! `Runner::call_typed`: structured values checked against a function's
//! signature, flattened, run, and the results rebuilt. A property test
//! calls generated identity functions with generated arguments and gets
//! them back unchanged.

use std::collections::BTreeMap;

use bef::abi::reflection::{Reflection, TypeRecord};
use bef::abi::{Buffer, ElementType, Value};
use bef::exec::{Input, KernelRegistry, Runner, TypedCallError};
use proptest::prelude::*;

fn runner() -> Runner {
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    Runner::builder(registry).build().unwrap()
}

/// Calls `function` of the program `text`.
fn call(text: &str, function: &str, args: &[Value]) -> Result<Vec<Value>, TypedCallError> {
    let runner = runner();
    let program = runner
        .load(Input::from_bytes(text.as_bytes(), "t.mlir").unwrap())
        .unwrap();
    let function = runner.function(&program, function).unwrap();
    runner.call_typed(&function, args)
}

/// The MLIR string literal of `text`.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

fn f32_buffer(shape: &[u64], values: &[f32]) -> Value {
    let data = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    Value::Buffer(Buffer::new(ElementType::F32, shape.to_vec(), data).unwrap())
}

const DICT_AND_LIST: &str = r#"{"a":[["sdict",["bias",["ndarray","f32",1,2]],["weights",["ndarray","f32",2,2,2]]],["slist","i32","i64"]],"r":[["stuple",["ndarray","f32",1,2],"i64",["ndarray","f32",2,2,2]]],"v":1}"#;

fn dict_and_list_program() -> String {
    format!(
        "func.func @mix(%b: !t.tensor, %w: !t.tensor, %n: i32, %m: i64) -> (!t.tensor, i64, !t.tensor) attributes {{iree.abi = {}}} {{\n  tfrt.return %b, %m, %w : !t.tensor, i64, !t.tensor\n}}\n",
        quoted(DICT_AND_LIST)
    )
}

fn dict_and_list_args() -> Vec<Value> {
    let dict = BTreeMap::from([
        (
            "weights".to_string(),
            f32_buffer(&[2, 2], &[1.0, 2.0, 3.0, 4.0]),
        ),
        ("bias".to_string(), f32_buffer(&[2], &[0.5, -0.5])),
    ]);
    vec![
        Value::Struct(dict),
        Value::List(vec![Value::I32(7), Value::I64(-9)]),
    ]
}

#[test]
fn a_dict_of_tensors_and_a_list_of_scalars_give_a_tuple() {
    let results = call(&dict_and_list_program(), "mix", &dict_and_list_args()).unwrap();
    assert_eq!(
        results,
        vec![Value::Tuple(vec![
            f32_buffer(&[2], &[0.5, -0.5]),
            Value::I64(-9),
            f32_buffer(&[2, 2], &[1.0, 2.0, 3.0, 4.0]),
        ])]
    );
}

#[test]
fn errors_name_the_argument_and_the_types() {
    let program = dict_and_list_program();
    let args = dict_and_list_args();
    let with_bias = |bias: Value| {
        let mut args = dict_and_list_args();
        if let Value::Struct(dict) = &mut args[0] {
            dict.insert("bias".into(), bias);
        }
        args
    };
    let arity = call(&program, "mix", &args[..1]).unwrap_err().to_string();
    assert_eq!(
        arity,
        "function 'mix': mismatched call arity: the function takes 2 arguments, 1 given"
    );
    let ints = Value::Buffer(Buffer::new(ElementType::I32, vec![2], vec![0; 8]).unwrap());
    let dtype = call(&program, "mix", &with_bias(ints))
        .unwrap_err()
        .to_string();
    assert_eq!(
        dtype,
        "function 'mix': argument 0['bias']: expected f32[2], given Buffer<i32[2]>"
    );
    let long = f32_buffer(&[3], &[1.0, 2.0, 3.0]);
    let shape = call(&program, "mix", &with_bias(long))
        .unwrap_err()
        .to_string();
    assert_eq!(
        shape,
        "function 'mix': argument 0['bias']: expected f32[2], given Buffer<f32[3]> (dim 0 is 3, expected 2)"
    );
    let mut args = dict_and_list_args();
    args[1] = Value::List(vec![Value::I32(1), Value::I32(2)]);
    let scalar = call(&program, "mix", &args).unwrap_err().to_string();
    assert_eq!(
        scalar,
        "function 'mix': argument 1[1]: expected i64, given i32"
    );
}

#[test]
fn functions_without_metadata_take_their_flat_arguments() {
    let text = "func.func @add(%a: i32, %b: i32) -> i32 {\n  %c = tfrt.add.i32 %a, %b\n  tfrt.return %c : i32\n}\n\
                func.func @chained(%c: !tfrt.chain, %x: f64) -> (!tfrt.chain, f64) {\n  tfrt.return %c, %x : !tfrt.chain, f64\n}\n";
    assert_eq!(
        call(text, "add", &[Value::I32(2), Value::I32(40)]).unwrap(),
        vec![Value::I32(42)]
    );
    let wrong = call(text, "add", &[Value::I32(2), Value::F32(1.0)]).unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "function 'add': raw argument 1: expected sint32, given f32"
    );
    assert_eq!(
        call(text, "chained", &[Value::Null, Value::F64(0.25)]).unwrap(),
        vec![Value::Ref("!tfrt.chain".into()), Value::F64(0.25)]
    );
}

#[test]
fn error_results_are_errors_of_the_call() {
    let text = "func.func @fails() -> i32 {\n  %x = \"tfrt_test.fail\"() : () -> i32\n  tfrt.return %x : i32\n}\n";
    let error = call(text, "fails", &[]).unwrap_err().to_string();
    assert!(error.starts_with("function 'fails': result 0: "), "{error}");
}

/// Leaf types of generated signatures, with the runtime type they have.
fn leaf() -> impl Strategy<Value = TypeRecord> {
    prop_oneof![
        proptest::sample::select(vec![
            ElementType::I1,
            ElementType::I32,
            ElementType::I64,
            ElementType::F32,
            ElementType::F64,
        ])
        .prop_map(TypeRecord::Scalar),
        (
            proptest::sample::select(vec![ElementType::F32, ElementType::I32, ElementType::I64]),
            prop::collection::vec(0..4u64, 0..3),
        )
            .prop_map(|(element, dims)| TypeRecord::NdArray {
                element,
                dims: Some(dims.into_iter().map(Some).collect()),
            }),
    ]
}

fn record() -> impl Strategy<Value = TypeRecord> {
    leaf().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..3).prop_map(TypeRecord::SList),
            prop::collection::vec(inner.clone(), 1..3).prop_map(TypeRecord::STuple),
            prop::collection::btree_map("[a-zé]{1,3}", inner, 1..3)
                .prop_map(|m| TypeRecord::SDict(m.into_iter().collect())),
        ]
    })
}

/// A value of `record`, from `seed`.
fn value_of(record: &TypeRecord, seed: &mut u64) -> Value {
    let mut next = || {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as i32 % 1000
    };
    match record {
        TypeRecord::Scalar(ElementType::I1) => Value::I1(next() % 2 == 0),
        TypeRecord::Scalar(ElementType::I32) => Value::I32(next()),
        TypeRecord::Scalar(ElementType::I64) => Value::I64(i64::from(next()) << 20),
        TypeRecord::Scalar(ElementType::F32) => Value::F32(next() as f32 / 4.0),
        TypeRecord::Scalar(_) => Value::F64(f64::from(next()) / 8.0),
        TypeRecord::NdArray {
            element,
            dims: Some(dims),
        } => {
            let shape: Vec<u64> = dims.iter().map(|d| d.unwrap_or(1)).collect();
            let count = shape.iter().product::<u64>() as usize;
            let data = (0..count)
                .flat_map(|_| match element {
                    ElementType::F32 => (next() as f32).to_ne_bytes().to_vec(),
                    ElementType::I32 => next().to_ne_bytes().to_vec(),
                    _ => i64::from(next()).to_ne_bytes().to_vec(),
                })
                .collect();
            Value::Buffer(Buffer::new(*element, shape, data).unwrap())
        }
        TypeRecord::SList(slots) => Value::List(slots.iter().map(|s| value_of(s, seed)).collect()),
        TypeRecord::STuple(slots) => {
            Value::Tuple(slots.iter().map(|s| value_of(s, seed)).collect())
        }
        TypeRecord::SDict(slots) => Value::Struct(
            slots
                .iter()
                .map(|(k, s)| (k.clone(), value_of(s, seed)))
                .collect(),
        ),
        other => panic!("no values of {other}"),
    }
}

fn runtime_type(leaf: &TypeRecord) -> String {
    match leaf {
        TypeRecord::Scalar(e) => e.mlir_name().to_string(),
        _ => "!t.tensor".to_string(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn identity_functions_return_their_arguments(records in prop::collection::vec(record(), 0..4), seed in any::<u64>()) {
        let reflection = Reflection { args: records.clone(), results: records.clone() };
        let raw = reflection.raw_signature();
        let leaves: Vec<&TypeRecord> = records.iter().flat_map(TypeRecord::leaves).collect();
        prop_assert_eq!(leaves.len(), raw.inputs.len());
        let types: Vec<String> = leaves.iter().map(|l| runtime_type(l)).collect();
        let params: Vec<String> = types.iter().enumerate().map(|(i, t)| format!("%a{i}: {t}")).collect();
        let names: Vec<String> = (0..types.len()).map(|i| format!("%a{i}")).collect();
        let ret = if types.is_empty() {
            "tfrt.return".to_string()
        } else {
            format!("tfrt.return {} : {}", names.join(", "), types.join(", "))
        };
        let text = format!(
            "func.func @id({}) -> ({}) attributes {{iree.abi = {}}} {{\n  {ret}\n}}\n",
            params.join(", "),
            types.join(", "),
            quoted(&reflection.to_json()),
        );
        let mut seed = seed;
        let args: Vec<Value> = records.iter().map(|r| value_of(r, &mut seed)).collect();
        let results = call(&text, "id", &args).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(results, args);
    }
}
