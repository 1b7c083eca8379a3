//! Hostile inputs: truncations, huge counts, offsets past the end, deep
//! nesting. Each must give a clear error (never a panic), and peak memory
//! must stay within a small multiple of the input size, measured by a
//! counting global allocator.

mod common;

use bef::format::dtype::AttrType;
use bef::format::{Attribute, BefBuffer, DecodeError, Module, encode, verify};
use bef::inspect::Listing;
use common::counting::{Counting, alone, peak_during};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs every decoder entry point on `bytes`; returns the errors found and
/// the peak bytes allocated while doing so (the input copy excluded).
fn exercise(bytes: &[u8]) -> (Vec<DecodeError>, usize) {
    let buffer = BefBuffer::copy_from(bytes);
    peak_during(|| {
        let mut errors = Vec::new();
        match buffer.open() {
            Err(e) => errors.push(e),
            Ok(file) => {
                if let Err(problems) = verify(&file) {
                    errors.extend(problems);
                }
                errors.extend(file.to_module().err());
            }
        }
        // The listing (what `bef dump` shows) takes damaged files too, and
        // reports what it could not list.
        match Listing::new(buffer.bytes()) {
            Err(e) => errors.push(e),
            Ok(listing) => errors.extend_from_slice(listing.errors()),
        }
        errors
    })
}

/// The peak bytes allocated listing `bytes` (opening, decoding every
/// table and function, looking up a sample of bytes and collecting the
/// errors), the input copy excluded.
fn listing_peak(bytes: &[u8]) -> usize {
    let buffer = BefBuffer::copy_from(bytes);
    let ((), peak) = peak_during(|| {
        if let Ok(listing) = Listing::new(buffer.bytes()) {
            let _ = listing.errors();
            for offset in (0..bytes.len()).step_by(1 + bytes.len() / 64) {
                let _ = listing.item_at(offset);
            }
            // A screenful of a hex view.
            let _ = listing.fields_in(0..4096);
        }
    });
    peak
}

/// Memory allowed for an input of `len` bytes: tighter than the shared
/// `counting::budget`, as these decoders allocate little beyond their
/// input.
fn budget(len: usize) -> usize {
    64 * len + 256 * 1024
}

fn expect_error(bytes: &[u8], needle: &str) {
    let (errors, peak) = exercise(bytes);
    let error = errors
        .iter()
        .find(|e| e.message.contains(needle))
        .unwrap_or_else(|| panic!("no error mentions {needle:?}: {errors:?}"));
    assert!(error.to_string().contains(" at offset 0x"), "{error}");
    assert!(
        peak <= budget(bytes.len()),
        "{peak} bytes for a {}-byte input",
        bytes.len()
    );
}

fn goldens() -> Vec<(String, Vec<u8>)> {
    let dir = common::corpus_path("bef");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

fn vbr(value: u64) -> Vec<u8> {
    let mut e = bef::format::emitter::Emitter::new();
    e.vbr(value);
    e.into_bytes()
}

fn section(id: u8, data: &[u8]) -> Vec<u8> {
    let mut out = vec![id];
    out.extend(vbr((data.len() as u64) << 1));
    out.extend(data);
    out
}

fn file(sections: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![0x0b, 0xef, 0x00];
    for s in sections {
        out.extend(s);
    }
    out
}

const HUGE: u64 = 1 << 60;

#[test]
fn every_truncation_of_every_golden_file_fails_cleanly() {
    let _turn = alone();
    for (name, bytes) in goldens() {
        let (errors, _) = exercise(&bytes);
        assert!(errors.is_empty(), "{name}: {errors:?}");
        // Cutting the file at a section boundary leaves a shorter valid
        // file (e.g. without the optional sections); anywhere else it errs.
        let buffer = BefBuffer::copy_from(&bytes);
        let boundaries: Vec<usize> = buffer
            .open()
            .unwrap()
            .sections()
            .iter()
            .map(|s| s.header_offset as usize)
            .collect();
        for len in 0..bytes.len() {
            let (errors, peak) = exercise(&bytes[..len]);
            assert!(peak <= budget(len), "{name}[..{len}]: {peak} bytes");
            if errors.is_empty() {
                assert!(
                    boundaries.contains(&len),
                    "{name} truncated to {len} bytes was accepted"
                );
            }
            for error in errors {
                assert!(error.to_string().contains(" at offset 0x"), "{error}");
            }
        }
    }
}

#[test]
fn huge_counts_are_refused_before_allocation() {
    let _turn = alone();
    expect_error(
        &file(&[section(4, &vbr(HUGE))]),
        "function count 1152921504606846976 exceeds",
    );
    expect_error(
        &file(&[section(2, &vbr(HUGE))]),
        "kernel count 1152921504606846976 exceeds",
    );
    expect_error(&file(&[section(3, &vbr(HUGE))]), "type count");
    // A function whose register table claims 2^60 registers.
    let index = [&[1u8, 0, 0, 0, 0, 0][..]].concat();
    let body = [vbr(0), vbr(HUGE)].concat();
    expect_error(
        &file(&[section(0, b"f\0"), section(4, &index), section(5, &body)]),
        "register count 1152921504606846976 exceeds",
    );
    // A section claiming 2^60 bytes.
    let mut bytes = vec![0x0b, 0xef, 0x00, 0x07];
    bytes.extend(vbr(HUGE << 1));
    expect_error(&bytes, "Locations section needs 1152921504606846976 bytes");
    // An aggregate claiming 2^30 elements.
    let mut agg = vec![8u8, 0, 20, 0, 32, 0, 0, 0];
    agg.extend(&(1u32 << 30).to_le_bytes());
    agg.extend([0; 20]);
    let types = [vbr(1), vbr(0), vbr(u64::from(AttrType::AGGREGATE.0))].concat();
    expect_error(
        &file(&[section(1, &agg), section(8, &types)]),
        "aggregate of 1073741824 elements",
    );
}

#[test]
fn offsets_past_the_end_are_reported() {
    let _turn = alone();
    // Function body offset past the Functions section.
    let index = [&[1u8, 0][..], &vbr(1000), &[0, 0, 0]].concat();
    expect_error(
        &file(&[section(0, b"f\0"), section(4, &index), section(5, &[])]),
        "outside the 0-byte Functions section",
    );
    // A name offset past the string table.
    let index = [&[1u8, 0, 0][..], &vbr(77), &[0, 0]].concat();
    expect_error(
        &file(&[section(0, b"f\0"), section(4, &index)]),
        "offset 77 is outside the 2-byte string table",
    );
    // A kernel whose location points past the Locations section.
    let (_, mut add) = goldens()
        .into_iter()
        .find(|(n, _)| n.ends_with("add_i32.bef"))
        .unwrap();
    // The add kernel's header: code 0, location 4, 2 arguments.
    let header = [0u8, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0];
    let location_field = add.windows(12).position(|w| w == header).unwrap() + 4;
    add[location_field..location_field + 4].copy_from_slice(&0x0000_7000u32.to_le_bytes());
    expect_error(&add, "past the end of the 8-byte Locations section");
}

#[test]
fn deep_nesting_is_bounded() {
    let _turn = alone();
    // 100,000 nested call sites.
    let mut locations = vec![3u8; 100_000];
    locations.push(0);
    expect_error(
        &file(&[section(7, &locations)]),
        "locations nested deeper than 64 levels",
    );
    // Aggregates nested 200 deep: the encoder refuses to write what the
    // decoder would refuse to read; 64 deep is written and read back.
    let nested = |depth: usize| {
        let mut attr = Attribute::I32(1);
        for _ in 0..depth {
            attr = Attribute::Aggregate(vec![attr]);
        }
        Module {
            attributes: vec![attr],
            optional_sections: true,
            extra_strings: Vec::new(),
            signatures: Vec::new(),
            ..Module::default()
        }
    };
    for depth in [65, 200] {
        assert_eq!(
            encode(&nested(depth)).unwrap_err().to_string(),
            "attribute 0: attributes nested deeper than 64 levels"
        );
    }
    let at_limit = nested(64);
    let bytes = encode(&at_limit).unwrap();
    let (errors, peak) = exercise(&bytes);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(peak <= budget(bytes.len()));
    let buffer = BefBuffer::copy_from(&bytes);
    assert_eq!(buffer.open().unwrap().to_module().unwrap(), at_limit);
}

/// A location `depth` levels deep: names around a file:line:col.
fn deep_location(depth: usize) -> bef::format::Location {
    let mut loc = bef::format::Location::FileLineCol {
        file: "deep.mlir".into(),
        line: 1,
        column: 2,
    };
    for i in 0..depth {
        loc = bef::format::Location::Name {
            name: format!("n{i}"),
            child: Box::new(loc),
        };
    }
    loc
}

#[test]
fn the_encoder_writes_only_locations_the_decoder_reads() {
    let _turn = alone();
    let (_, bytes) = goldens()
        .into_iter()
        .find(|(n, _)| n.ends_with("add_i32.bef"))
        .unwrap();
    let module = BefBuffer::copy_from(&bytes)
        .open()
        .unwrap()
        .to_module()
        .unwrap();
    let with_location = |depth: usize| {
        let mut m = module.clone();
        let body = m.functions[0].body.as_mut().unwrap();
        body.kernels[1].location = bef::format::KernelLocation::At(deep_location(depth));
        m
    };
    let deepest = with_location(64);
    let bytes = encode(&deepest).unwrap();
    let (errors, peak) = exercise(&bytes);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(peak <= budget(bytes.len()));
    assert_eq!(
        BefBuffer::copy_from(&bytes)
            .open()
            .unwrap()
            .to_module()
            .unwrap(),
        deepest
    );
    let name = &module.functions[0].name;
    assert_eq!(
        encode(&with_location(65)).unwrap_err().to_string(),
        format!("function '{name}', kernel 1: locations nested deeper than 64 levels (65 levels)")
    );
}

/// Parses `src`; returns the outcome and the peak bytes allocated.
fn parse_measured(src: &str) -> (Result<bef::ir::Module, bef::ir::Diagnostic>, usize) {
    peak_during(|| bef::text::parse_module(src, "h.mlir"))
}

/// `src` fails to parse with exactly `error`, quickly and within the
/// memory budget of its size.
fn expect_parse_error(src: &str, error: &str) {
    let started = std::time::Instant::now();
    let (parsed, peak) = parse_measured(src);
    let elapsed = started.elapsed();
    match parsed {
        Ok(_) => panic!("parsed: {}", &src[..src.len().min(200)]),
        Err(e) => assert_eq!(e.to_string(), error),
    }
    assert!(
        peak <= budget(src.len()),
        "{peak} bytes to parse {} bytes",
        src.len()
    );
    assert!(elapsed < std::time::Duration::from_secs(10), "{elapsed:?}");
}

#[test]
fn location_alias_cycles_are_errors_at_their_definition() {
    let _turn = alone();
    // Unused, used, and through other aliases.
    expect_parse_error(
        "#a = loc(#a)\n",
        "h.mlir:1:1: error: location alias #a refers to itself",
    );
    expect_parse_error(
        "func.func @f() {\n  tfrt.return\n} loc(#a)\n#b = loc(\"x\":1:1)\n#a = loc(fused[#b, #a])\n",
        "h.mlir:5:1: error: location alias #a refers to itself",
    );
    expect_parse_error(
        "#a = loc(#b)\n#b = loc(callsite(#c at #b))\n#c = loc(\"n\"(#a))\n",
        // #c copied #a (and its reference to #b) when it was defined.
        "h.mlir:2:1: error: location alias #b refers to itself through #c",
    );
    // A long chain of forward references resolves (without recursion).
    let n = 20_000;
    let mut src = String::from("\"a\"() : () -> () loc(#l0)\n");
    for i in 0..n {
        src.push_str(&format!("#l{i} = loc(#l{})\n", i + 1));
    }
    src.push_str(&format!("#l{n} = loc(\"end.mlir\":7:8)\n"));
    let (parsed, peak) = parse_measured(&src);
    let module = parsed.unwrap();
    assert_eq!(
        module.body().ops[0].location,
        bef::ir::Location::file_line_col("end.mlir", 7, 8)
    );
    assert!(peak <= budget(src.len()), "{peak} bytes");
    // A location written like the parser's placeholders is kept as written.
    let forged = "\"a\"() : () -> () loc(\"\\00#loc-alias\":5:4294967295)\n\"b\"() : () -> () loc(#x)\n#x = loc(\"a\":1:1)\n";
    let module = bef::text::parse_module(forged, "h.mlir").unwrap();
    assert_eq!(
        module.body().ops[0].location,
        bef::ir::Location::file_line_col("\u{0}#loc-alias", 5, u32::MAX)
    );
    // Used as an attribute before what it refers to is defined.
    expect_parse_error(
        "#a = loc(#b)\n\"f\"() {x = #a} : () -> ()\n#b = loc(\"x\":1:1)\n",
        "h.mlir:2:12: error: location alias #a is used as an attribute before #b, which it refers to, is defined",
    );
}

#[test]
fn alias_copies_are_bounded_by_the_input() {
    let _turn = alone();
    // Each alias used twice by the next: 2^40 copies of the first.
    let doubling = |first: &str, step: &dyn Fn(usize) -> String, using: &str| {
        let mut src = format!("{first}\n");
        for i in 1..40 {
            src.push_str(&step(i));
            src.push('\n');
        }
        src.push_str(using);
        src
    };
    let limit = |src: &str| src.len() + 1024;
    let loc = doubling(
        "#a0 = loc(\"x.mlir\":1:1)",
        &|i| format!("#a{i} = loc(fused[#a{}, #a{}])", i - 1, i - 1),
        "\"f\"() : () -> () loc(#a39)\n",
    );
    expect_parse_error(
        &loc,
        &format!(
            "h.mlir:11:18: error: aliases expand to more than {} attributes, types and locations (1 per byte of input, plus 1024)",
            limit(&loc)
        ),
    );
    let attr = doubling(
        "#a0 = 1 : i32",
        &|i| format!("#a{i} = [#a{}, #a{}]", i - 1, i - 1),
        "\"f\"() {x = #a39} : () -> ()\n",
    );
    expect_parse_error(
        &attr,
        &format!(
            "h.mlir:10:8: error: aliases expand to more than {} attributes, types and locations (1 per byte of input, plus 1024)",
            limit(&attr)
        ),
    );
    let ty = doubling(
        "!t0 = i32",
        &|i| format!("!t{i} = tuple<!t{}, !t{}>", i - 1, i - 1),
        "\"f\"() : () -> !t39\n",
    );
    expect_parse_error(
        &ty,
        &format!(
            "h.mlir:10:18: error: aliases expand to more than {} attributes, types and locations (1 per byte of input, plus 1024)",
            limit(&ty)
        ),
    );
    // In a large input the copies grow to about 80 bytes per byte of
    // input, and no further.
    let padding = format!("// {}\n", "x".repeat(76)).repeat(2000);
    let large = format!("{padding}{loc}");
    let started = std::time::Instant::now();
    let (parsed, peak) = parse_measured(&large);
    let error = parsed.unwrap_err().to_string();
    assert!(error.contains("aliases expand to more than"), "{error}");
    assert!(peak <= 128 * large.len() + (256 << 10), "{peak} bytes");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn aliases_nest_within_the_shared_limit() {
    let _turn = alone();
    // 100,000 aliases, each one level deeper than the one before: refused
    // where the nesting passes 64 levels (copying every level would take
    // quadratic time, and the nesting the stack of every later walk).
    let chain = |first: &str, step: &dyn Fn(usize) -> String| {
        let mut src = format!("{first}\n");
        for i in 1..100_000 {
            src.push_str(&step(i));
            src.push('\n');
        }
        src
    };
    expect_parse_error(
        &chain("#a0 = 1 : i32", &|i| format!("#a{i} = [#a{}]", i - 1)),
        "h.mlir:66:9: error: attributes nested deeper than 64 levels (through #a64)",
    );
    expect_parse_error(
        &chain("#a0 = loc(\"x\":1:1)", &|i| {
            format!("#a{i} = loc(\"n\"(#a{}))", i - 1)
        }),
        "h.mlir:66:16: error: locations nested deeper than 64 levels (through #a64)",
    );
    // The same through forward references.
    let mut forward = String::from("\"f\"() : () -> () loc(#a0)\n");
    for i in 0..1000 {
        forward.push_str(&format!("#a{i} = loc(\"n\"(#a{}))\n", i + 1));
    }
    forward.push_str("#a1000 = loc(\"x\":1:1)\n");
    expect_parse_error(
        &forward,
        "h.mlir:937:17: error: locations nested deeper than 64 levels (through #a936)",
    );
    // Types: refused by the parser's overall nesting bound.
    expect_parse_error(
        &chain("!t0 = i32", &|i| format!("!t{i} = tuple<!t{}>", i - 1)),
        "h.mlir:256:15: error: nesting too deep (through !t254)",
    );
}

#[test]
fn random_bit_flips_never_panic_and_stay_in_budget() {
    let _turn = alone();
    let mut state = 0x1234_5678_9abc_def0u64;
    for (name, bytes) in goldens() {
        for _ in 0..500 {
            let mut flipped = bytes.clone();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bit = state as usize % (flipped.len() * 8);
            flipped[bit / 8] ^= 1 << (bit % 8);
            let (_, peak) = exercise(&flipped);
            assert!(
                peak <= budget(flipped.len()),
                "{name} with bit {bit} flipped: {peak} bytes"
            );
        }
    }
}

/// Tables of one-byte entries: the listing of each stays within budget.
#[test]
fn listing_many_tiny_items_stays_in_budget() {
    let _turn = alone();
    const N: u64 = 20_000;
    let check = |what: &str, bytes: &[u8]| {
        let peak = listing_peak(bytes);
        assert!(
            peak <= budget(bytes.len()),
            "{what}: {peak} bytes for {} bytes",
            bytes.len()
        );
    };
    check("empty strings", &file(&[section(0, &vec![0; N as usize])]));
    // Kernel and type names that are all the empty string.
    let names = [vbr(N), vec![0; N as usize]].concat();
    check(
        "names",
        &file(&[section(0, b"\0"), section(2, &names), section(3, &names)]),
    );
    check(
        "unknown locations",
        &file(&[section(7, &vec![0; N as usize])]),
    );
    // Native functions, five bytes each.
    let index = [vbr(N), [1u8, 0, 0, 0, 0].repeat(N as usize)].concat();
    check(
        "native functions",
        &file(&[section(0, b"\0"), section(4, &index)]),
    );
    // One function with one-byte registers, each with a type, and
    // kernel-table rows that all share one record.
    let mut body = [vbr(0), vbr(N)].concat();
    body.extend(vec![0; N as usize]);
    body.extend(vbr(N / 4));
    body.extend([0, 0, 0].repeat(N as usize / 4));
    body.resize(body.len().next_multiple_of(4), 0xcc);
    body.extend([0u8; 24]);
    let types = [vbr(1), vbr(N), vec![0; N as usize]].concat();
    let bytes = file(&[
        section(0, b"\0"),
        section(3, &[1, 0]),
        section(4, &[1, 0, 0, 0, 0, 0]),
        section(5, &body),
        section(10, &types),
    ]);
    let buffer = BefBuffer::copy_from(&bytes);
    let listing = Listing::new(buffer.bytes()).unwrap();
    let function = listing.function(0).unwrap();
    assert_eq!(function.register_count(), N as usize);
    assert_eq!(function.kernel_table_len(), N as usize / 4);
    assert_eq!(function.kernels().len(), 1, "shared records end the list");
    drop(listing);
    check("registers and shared kernel records", &bytes);
}

/// `"n0"("n1"(... "x.mlir":3:4 ...))`: `depth` names around a position,
/// a location `depth` levels deep.
fn nested_names(depth: usize) -> String {
    let mut text = String::from("\"x.mlir\":3:4");
    for i in (0..depth).rev() {
        text = format!("\"n{i}\"({text})");
    }
    text
}

#[test]
fn locations_at_the_depth_limit_round_trip_and_deeper_are_refused() {
    let _turn = alone();
    use bef::translate::{TranslateOptions, bef_to_mlir, mlir_to_bef};
    let program = |depth: usize| {
        format!(
            "func.func @f() -> i32 {{\n  %x = tfrt.constant.i32 1 loc({})\n  tfrt.return %x : i32\n}}\n",
            nested_names(depth)
        )
    };
    let src = program(64);
    let module = bef::text::parse_module(&src, "h.mlir").unwrap();
    let location =
        |m: &bef::ir::Module| m.body().ops[0].regions[0].blocks[0].ops[0].location.clone();
    let bytes = mlir_to_bef(&module, TranslateOptions::default()).unwrap();
    let (errors, peak) = exercise(&bytes);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(peak <= budget(bytes.len()));
    let buffer = BefBuffer::copy_from(&bytes);
    let file = buffer.open().unwrap();
    let back = bef_to_mlir(&file).unwrap();
    assert_eq!(location(&back), location(&module));
    let printed = bef::text::print_module(
        &back,
        bef::text::PrintOptions {
            debug_info: true,
            ..Default::default()
        },
    );
    let reparsed = bef::text::parse_module(&printed, "printed.mlir").unwrap();
    assert_eq!(location(&reparsed), location(&module));

    // One level deeper: refused where the position would lie 65 deep.
    let src = program(65);
    let column = src.lines().nth(1).unwrap().find("\"x.mlir\"").unwrap() + 1;
    expect_parse_error(
        &src,
        &format!("h.mlir:2:{column}: error: locations nested deeper than 64 levels"),
    );
}

#[test]
fn the_translator_names_what_it_cannot_write() {
    let _turn = alone();
    use bef::ir::{Attribute, Location};
    use bef::translate::{TranslateOptions, mlir_to_bef};
    let src = "func.func @f() -> i32 {\n  %x = tfrt.constant.i32 1\n  tfrt.return %x : i32\n}\n";
    fn kernel(m: &mut bef::ir::Module) -> &mut bef::ir::Op {
        &mut m.body_mut().ops[0].regions[0].blocks[0].ops[0]
    }
    // Built in memory (as from MLIR bytecode): a location 65 deep.
    let mut module = bef::text::parse_module(src, "h.mlir").unwrap();
    let mut deep = Location::file_line_col("deep.mlir", 7, 9);
    for i in 0..65 {
        deep = Location::Name {
            name: format!("n{i}"),
            child: Box::new(deep),
        };
    }
    kernel(&mut module).location = deep.clone();
    let errors = mlir_to_bef(&module, TranslateOptions::default()).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].location, deep);
    assert_eq!(
        errors[0].to_string(),
        "deep.mlir:7:9: error: BEF files cannot encode this op's location: locations nested \
         deeper than 64 levels (65 levels), which BEF readers refuse"
    );
    // Arrays of strings nested 65 deep (aggregates in BEF).
    let nested = |depth: usize| {
        let mut attr = Attribute::String {
            value: b"s".to_vec(),
            ty: None,
        };
        for _ in 0..depth {
            attr = Attribute::Array(vec![attr]);
        }
        attr
    };
    let mut module = bef::text::parse_module(src, "h.mlir").unwrap();
    kernel(&mut module).set_attribute("deep", nested(65));
    let errors = mlir_to_bef(&module, TranslateOptions::default()).unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "h.mlir:2:8: error: BEF files cannot encode the 'deep' attribute: attributes nested \
         deeper than 64 levels (65 levels), which BEF readers refuse"
    );
    let mut module = bef::text::parse_module(src, "h.mlir").unwrap();
    kernel(&mut module).set_attribute("deep", nested(64));
    let bytes = mlir_to_bef(&module, TranslateOptions::default()).unwrap();
    let (errors, _) = exercise(&bytes);
    assert!(errors.is_empty(), "{errors:?}");
}

/// Runs function `name` of the MLIR program `src` on the single-threaded
/// queue; returns its results' error messages (or "ok") and the peak bytes
/// allocated while it ran.
fn run_measured(src: &str, name: &str) -> (Vec<String>, usize) {
    use bef::exec::{ExecutionContext, Function, KernelRegistry, Program};
    use bef::runtime::HostContext;
    use std::sync::Arc;
    let module = bef::text::parse_module(src, "k.mlir").unwrap();
    let bytes = bef::translate::mlir_to_bef(&module, Default::default()).unwrap();
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    let program = Program::load(BefBuffer::copy_from(&bytes), "k.bef", &registry).unwrap();
    let function = Function::new(program.clone(), program.function_named(name).unwrap());
    let host = Arc::new(
        HostContext::with_work_queue_name("s")
            .unwrap()
            .with_diagnostic_sink(|_| {}),
    );
    let (results, peak) = peak_during(|| {
        let ctx = ExecutionContext::new(host.clone());
        let results = function.execute(&ctx, &[]);
        host.await_values(&results);
        host.quiesce();
        results
    });
    let outcome = results
        .iter()
        .map(|r| match r.error_diagnostic() {
            Some(d) => d.message.clone(),
            None => "ok".to_string(),
        })
        .collect();
    (outcome, peak)
}

#[test]
fn parallel_loops_do_not_allocate_per_block() {
    let _turn = alone();
    let program = |start: i64, end: i64| {
        format!(
            "func.func @f() -> !tfrt.chain {{
  %start = tfrt.constant.i32 {start}
  %end = tfrt.constant.i32 {end}
  %block = tfrt.constant.i32 1
  %done = tfrt.parallel_for.i32 %start to %end fixed %block {{
    tfrt.return
  }}
  tfrt.return %done : !tfrt.chain
}}
"
        )
    };
    // The whole i32 range in blocks of 1: 2^32 - 1 blocks, refused before
    // anything is allocated for them (a list of them alone took 32 GiB).
    let started = std::time::Instant::now();
    let (outcome, peak) = run_measured(&program(-(1 << 31), (1 << 31) - 1), "f");
    assert_eq!(
        outcome,
        [
            "[-2147483648, 2147483647) in blocks of 1 makes 4294967295 blocks, \
          more than the 1048576 one parallel loop may have"
        ]
    );
    assert!(peak < 64 << 10, "{peak} bytes");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // 100,000 blocks run with no more memory than a few (each queued block
    // used to take some 40 bytes, 4 MB in all).
    let (outcome, peak) = run_measured(&program(0, 100_000), "f");
    assert_eq!(outcome, ["ok"]);
    assert!(peak < 256 << 10, "{peak} bytes");
}
