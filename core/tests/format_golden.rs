//! Golden BEF files: models written here, bytes checked by hand against the
//! fact sheet once and kept in `corpus/bef/`. `BLESS=1 cargo test --test
//! format_golden` rewrites the files after a deliberate format change.

mod common;

use bef::format::dtype::ArrayElement;
use bef::format::{
    Attribute, BefBuffer, Body, CompilationUnit, DType, DenseAttr, Function, FunctionKind, Kernel,
    KernelLocation, Location, Module, encode, verify,
};

fn corpus(name: &str) -> std::path::PathBuf {
    common::corpus_path(&format!("bef/{name}"))
}

fn file_loc(line: u64, column: u64) -> Location {
    Location::FileLineCol {
        file: "golden.mlir".into(),
        line,
        column,
    }
}

/// A kernel with used-by lists left for `Body::compute_used_by`.
fn kernel(
    code: u32,
    args: &[u32],
    attributes: &[(u32, &str)],
    functions: &[u32],
    results: &[u32],
    location: KernelLocation,
) -> Kernel {
    Kernel {
        code,
        location,
        args: args.to_vec(),
        attributes: attributes.iter().map(|a| a.0).collect(),
        attribute_names: attributes.iter().map(|a| a.1.to_owned()).collect(),
        functions: functions.to_vec(),
        results: results.to_vec(),
        used_by: vec![Vec::new(); results.len()],
        stream_id: 0,
    }
}

fn body(
    num_args: u32,
    num_registers: u32,
    register_types: Vec<u32>,
    kernels: Vec<Kernel>,
    results: Vec<u32>,
    location: Option<Location>,
) -> Body {
    let mut all = vec![Kernel::pseudo(
        num_args,
        num_registers,
        vec![Vec::new(); num_args as usize + 1],
        0,
    )];
    all.extend(kernels);
    let mut body = Body {
        location,
        num_registers,
        register_types,
        kernels: all,
        results,
    };
    body.compute_used_by();
    body
}

fn function(
    name: &str,
    kind: FunctionKind,
    args: &[u32],
    results: &[u32],
    body: Option<Body>,
) -> Function {
    Function {
        kind,
        name: name.into(),
        arg_types: args.to_vec(),
        result_types: results.to_vec(),
        body,
    }
}

/// `func @add(%a: i32, %b: i32) -> i32 { %c = tfrt.add.i32 %a, %b; tfrt.return %c }`
fn add_i32() -> Module {
    let add = kernel(
        0,
        &[0, 1],
        &[],
        &[],
        &[2],
        KernelLocation::At(file_loc(2, 8)),
    );
    Module {
        kernel_names: vec!["tfrt.add.i32".into()],
        types: vec!["i32".into()],
        attributes: vec![],
        functions: vec![function(
            "add",
            FunctionKind::Bef,
            &[0, 0],
            &[0],
            Some(body(
                2,
                3,
                vec![0, 0, 0],
                vec![add],
                vec![2],
                Some(file_loc(1, 1)),
            )),
        )],
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    }
}

fn scalar_attributes() -> Module {
    let attributes = vec![
        Attribute::I1(true),
        Attribute::I8(-2),
        Attribute::I16(-300),
        Attribute::I32(42),
        Attribute::I64(-5_000_000_000),
        Attribute::UI8(200),
        Attribute::UI16(60_000),
        Attribute::UI32(4_000_000_000),
        Attribute::UI64(u64::MAX),
        Attribute::F16(0x3C00),
        Attribute::BF16(0x3F80),
        Attribute::f32(1.5),
        Attribute::f64(-0.25),
        Attribute::string("hello"),
        Attribute::string(""),
        Attribute::Type(DType::F32),
    ];
    let names = [
        "a_i1", "b_i8", "c_i16", "d_i32", "e_i64", "f_ui8", "g_ui16", "h_ui32", "i_ui64", "j_f16",
        "k_bf16", "l_f32", "m_f64", "n_str", "o_empty", "p_type",
    ];
    let attrs: Vec<(u32, &str)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (i as u32, *n))
        .collect();
    let constant = kernel(
        0,
        &[],
        &attrs,
        &[],
        &[0],
        KernelLocation::At(file_loc(3, 5)),
    );
    Module {
        kernel_names: vec!["tfrt_test.attributes".into()],
        types: vec!["!tfrt.chain".into()],
        attributes,
        functions: vec![function(
            "scalars",
            FunctionKind::Bef,
            &[],
            &[0],
            Some(body(0, 1, vec![0], vec![constant], vec![0], None)),
        )],
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    }
}

fn i32s(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn arrays_dense_shapes() -> Module {
    let array = |element, values| Attribute::Array { element, values };
    let attributes = vec![
        array(
            ArrayElement::Scalar(DType::I32),
            vec![Attribute::I32(1), Attribute::I32(2), Attribute::I32(3)],
        ),
        array(ArrayElement::Scalar(DType::I64), vec![Attribute::I64(7)]),
        array(
            ArrayElement::Scalar(DType::F32),
            vec![Attribute::f32(0.5), Attribute::f32(2.0)],
        ),
        array(
            ArrayElement::Scalar(DType::I1),
            vec![Attribute::I1(true), Attribute::I1(false)],
        ),
        array(
            ArrayElement::Type,
            vec![Attribute::Type(DType::F64), Attribute::Type(DType::I32)],
        ),
        array(ArrayElement::Scalar(DType::I32), vec![]),
        Attribute::Dense(DenseAttr {
            dtype: DType::I32,
            shape: vec![2, 2],
            data: i32s(&[1, 2, 3, 4]),
        }),
        Attribute::Dense(DenseAttr {
            dtype: DType::I1,
            shape: vec![3],
            data: vec![1, 0, 1],
        }),
        Attribute::Dense(DenseAttr {
            dtype: DType::Complex64,
            shape: vec![1],
            data: [1.0f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect(),
        }),
        Attribute::Dense(DenseAttr {
            dtype: DType::F64,
            shape: vec![],
            data: 3.0f64.to_le_bytes().to_vec(),
        }),
        Attribute::Shape(Some(vec![1, -1, 3])),
        Attribute::Shape(Some(vec![])),
        Attribute::Shape(None),
    ];
    let attrs: Vec<(u32, String)> = (0..attributes.len())
        .map(|i| (i as u32, format!("attr{i:02}")))
        .collect();
    let attrs: Vec<(u32, &str)> = attrs.iter().map(|(i, n)| (*i, n.as_str())).collect();
    let k = kernel(0, &[], &attrs, &[], &[], KernelLocation::Virtual);
    Module {
        kernel_names: vec!["tfrt_test.arrays".into()],
        types: vec![],
        attributes,
        functions: vec![function(
            "arrays",
            FunctionKind::Bef,
            &[],
            &[],
            Some(body(0, 0, vec![], vec![k], vec![], None)),
        )],
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    }
}

/// Function references, a region function, native and sync functions,
/// aggregates, a function-name attribute and a compilation unit.
fn functions_and_aggregates() -> Module {
    let attributes = vec![
        Attribute::Aggregate(vec![
            Attribute::string("s"),
            Attribute::Array {
                element: ArrayElement::Scalar(DType::I32),
                values: vec![Attribute::I32(1)],
            },
        ]),
        Attribute::Aggregate(vec![
            Attribute::Aggregate(vec![Attribute::f32(1.0), Attribute::Shape(Some(vec![2]))]),
            Attribute::I64(9),
        ]),
        Attribute::Func(b"callee".to_vec()),
        Attribute::CompilationUnit(CompilationUnit {
            id: 3,
            root: b"kernels".to_vec(),
            nested: vec![b"fn".to_vec()],
            serialized: vec![0xde, 0xad],
        }),
    ];
    // types: 0 = i32, 1 = !tfrt.chain
    let region = body(
        1,
        2,
        vec![0, 0],
        vec![kernel(
            1,
            &[0],
            &[],
            &[],
            &[1],
            KernelLocation::At(file_loc(4, 7)),
        )],
        vec![1],
        Some(file_loc(4, 3)),
    );
    let sync = body(
        1,
        2,
        vec![0, 0],
        vec![kernel(
            1,
            &[0],
            &[],
            &[],
            &[1],
            KernelLocation::At(file_loc(9, 7)),
        )],
        vec![1],
        Some(file_loc(8, 1)),
    );
    let main = body(
        1,
        4,
        vec![0, 0, 0, 1],
        vec![
            kernel(
                0,
                &[0],
                &[(0, "agg"), (1, "nested")],
                &[1, 2],
                &[1],
                KernelLocation::At(file_loc(3, 10)),
            ),
            kernel(
                2,
                &[1],
                &[(2, "fn_name"), (3, "unit")],
                &[3],
                &[2],
                KernelLocation::At(file_loc(5, 10)),
            ),
            kernel(3, &[], &[], &[], &[3], KernelLocation::At(file_loc(6, 10))),
        ],
        vec![2, 3],
        Some(file_loc(2, 1)),
    );
    Module {
        kernel_names: vec![
            "tfrt.call".into(),
            "tfrt.add.i32".into(),
            "tfrt_test.native".into(),
            "tfrt.new.chain".into(),
        ],
        types: vec!["i32".into(), "!tfrt.chain".into()],
        attributes,
        functions: vec![
            function("", FunctionKind::Bef, &[0], &[0], Some(region)),
            function("main", FunctionKind::Bef, &[0], &[0, 1], Some(main)),
            function("sync_inc", FunctionKind::Sync, &[0], &[0], Some(sync)),
            function("native_fn", FunctionKind::Native, &[0], &[0], None),
        ],
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    }
}

fn locations() -> Module {
    let unknown = Location::Unknown;
    let name = Location::Name {
        name: "op_name".into(),
        child: Box::new(file_loc(1, 2)),
    };
    let call = Location::CallSite {
        callee: Box::new(Location::Name {
            name: "f".into(),
            child: Box::new(Location::Unknown),
        }),
        caller: Box::new(file_loc(7, 3)),
    };
    let fused = Location::Fused(vec![
        Location::FileLineCol {
            file: "a.py".into(),
            line: 42,
            column: 314,
        },
        Location::Name {
            name: "b".into(),
            child: Box::new(Location::Unknown),
        },
    ]);
    let kernels = [unknown, name, call, fused]
        .into_iter()
        .map(KernelLocation::At)
        .chain([KernelLocation::Virtual])
        .map(|location| kernel(0, &[], &[], &[], &[], location))
        .collect();
    Module {
        kernel_names: vec!["tfrt_test.print_hello".into()],
        types: vec![],
        attributes: vec![],
        functions: vec![function(
            "locations",
            FunctionKind::Bef,
            &[],
            &[],
            Some(body(
                0,
                0,
                vec![],
                kernels,
                vec![],
                Some(file_loc(100_000, 1)),
            )),
        )],
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    }
}

fn without_optional_sections() -> Module {
    let mut module = add_i32();
    module.optional_sections = false;
    for body in module.functions.iter_mut().filter_map(|f| f.body.as_mut()) {
        body.register_types.clear();
    }
    module
}

fn goldens() -> Vec<(&'static str, Module)> {
    vec![
        (
            "empty.bef",
            Module {
                optional_sections: true,
                ..Module::default()
            },
        ),
        ("add_i32.bef", add_i32()),
        ("scalar_attributes.bef", scalar_attributes()),
        ("arrays_dense_shapes.bef", arrays_dense_shapes()),
        ("functions_and_aggregates.bef", functions_and_aggregates()),
        ("locations.bef", locations()),
        ("no_optional_sections.bef", without_optional_sections()),
    ]
}

#[test]
fn golden_files_match_byte_for_byte() {
    let bless = std::env::var_os("BLESS").is_some();
    for (name, module) in goldens() {
        let bytes = encode(&module).unwrap_or_else(|e| panic!("{name}: {e}"));
        let path = corpus(name);
        if bless {
            std::fs::write(&path, &bytes).unwrap();
        }
        let expected = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1)", path.display()));
        assert_eq!(bytes, expected, "{name} differs from the golden file");
        let buffer = BefBuffer::copy_from(&bytes);
        let file = buffer.open().unwrap();
        verify(&file).unwrap_or_else(|problems| panic!("{name}: {problems:?}"));
        assert_eq!(
            file.to_module().unwrap(),
            module,
            "{name} decodes to its model"
        );
    }
}

#[test]
fn empty_module_matches_the_fact_sheet() {
    let expected =
        "0b ef 00 00 00 01 00 02 02 00 03 02 00 04 02 00 05 00 08 02 00 09 02 00 0a 02 00";
    let bytes = encode(&Module {
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
        ..Module::default()
    })
    .unwrap();
    assert_eq!(common::hex(&bytes), expected);
    assert_eq!(bytes.len(), 27);
}

/// The add module, byte by byte, derived from the fact sheet.
#[test]
fn add_i32_bytes_derived_by_hand() {
    #[rustfmt::skip]
    let expected: &[u8] = &[
        0x0b, 0xef, 0x00,
        // Strings: "add\0i32\0tfrt.add.i32\0" (sorted), 21 bytes -> length 42
        0x00, 0x2a, b'a', b'd', b'd', 0, b'i', b'3', b'2', 0,
        b't', b'f', b'r', b't', b'.', b'a', b'd', b'd', b'.', b'i', b'3', b'2', 0,
        // Attributes: empty
        0x01, 0x00,
        // Kernels: count 1, "tfrt.add.i32" at offset 8
        0x02, 0x04, 0x01, 0x08,
        // Types: count 1, "i32" at offset 4
        0x03, 0x04, 0x01, 0x04,
        // FunctionIndex: 1 function: kind 0, body at 0, name "add" at 0, (i32, i32) -> (i32)
        0x04, 0x12, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x01, 0x00,
        // Functions: 112 bytes, 4-aligned. The id is at offset 47 and the
        // plain length would put the data at 50, so the alignment form is
        // used: VBR(112 << 1 | 1) = 81 61, alignment 4, one pad byte -> 52.
        0x05, 0x81, 0x61, 0x04, 0xcc,
        //   location 0; 3 registers used 1, 1, 1; 2 kernels at 0 and 56;
        //   kernel 1 waits for 2 operands; result register 2; pad to 4
        0x00, 0x03, 0x01, 0x01, 0x01, 0x02, 0x00, 0x00, 0x00, 0x38, 0x02, 0x00, 0x02, 0xcc, 0xcc, 0xcc,
        //   pseudo kernel: code, location, 0 args/attrs/funcs, 3 results
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0,
        //   used-by counts 0, 1, 1; results: pseudo register 3, args 0 and 1; users: 1, 1
        0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
        //   tfrt.add.i32: code 0, location at 4, 2 args, 0 attrs, 0 funcs, 1 result, 0 users; args 0, 1; result 2
        0, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
        // LocationStrings: "golden.mlir\0"
        0x06, 0x18, b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        // Locations: function at 1:1 (offset 0), kernel at 2:8 (offset 4)
        0x07, 0x10, 0x01, 0x00, 0x01, 0x01, 0x01, 0x00, 0x02, 0x08,
        // AttributeTypes: none
        0x08, 0x02, 0x00,
        // AttributeNames: 1 function, 2 kernels, no names
        0x09, 0x04, 0x01, 0x02,
        // RegisterTypes: 1 function, 3 registers of type 0
        0x0a, 0x0a, 0x01, 0x03, 0x00, 0x00, 0x00,
    ];
    assert_eq!(encode(&add_i32()).unwrap(), expected);
}

/// The kernel record layout (`format::KernelHeader`) read from the hand-
/// derived add module, and `bef dump` showing the same record.
#[test]
fn kernel_records_read_through_the_one_layout() {
    let buffer = BefBuffer::copy_from(&std::fs::read(corpus("add_i32.bef")).unwrap());
    let file = buffer.open().expect("the golden file opens");
    let body = file.body(0).expect("@add has a body");
    let records: Vec<_> = body.kernel_records().collect();
    let add = &records[1];
    let header = add.header();
    assert_eq!(header.to_words(), [0, 4, 2, 0, 0, 1]);
    assert_eq!(header.args(), 7..9);
    assert_eq!(header.results(), 9..10);
    assert_eq!(header.used_by_lists_start(), 10);
    assert_eq!(add.args().to_vec(), [0, 1]);
    assert_eq!(add.results().to_vec(), [2]);
    assert_eq!(add.num_used_by().to_vec(), [0]);
    let pseudo = records[0].header();
    assert_eq!((pseudo.num_args, pseudo.num_results), (0, 3));
    assert_eq!(records[0].results().to_vec(), [3, 0, 1]);
    assert_eq!(records[0].used_by(1).to_vec(), [1]);

    let out = common::bef(&["dump", "corpus/bef/add_i32.bef"], None);
    let dump = common::text(&out.stdout);
    assert!(out.status.success(), "{dump}");
    let shown = format!("[1] tfrt.add.i32 at {:#x}", add.offset);
    let at = dump
        .find(&shown)
        .unwrap_or_else(|| panic!("{shown:?} not in:\n{dump}"));
    let listing = &dump[at..];
    assert!(listing.contains("args %0, %1"), "{listing}");
    assert!(listing.contains("result %2 -> used by []"), "{listing}");
}
