//! Every fuzz body over seeded inputs: the checked-in seeds, their
//! truncations and mutations, and pseudo-random bytes (the same on every
//! run).

use arbitrary::Unstructured;
use bef_test_support::corpus::{corpus_dir_files, corpus_files};
use proptest::prelude::*;

use crate::abi::{abi_call_arguments, abi_json_parse, abi_raw_parse, abi_sip_parse};
use crate::bef_file::{bef_decode, bef_roundtrip};
use crate::btf::btf_read;
use crate::bytecode::{mlirbc_read, mlirbc_roundtrip};
use crate::exec::exec_program_and_cycle;
use crate::passes::opt_passes;
use crate::text::mlir_parse;
use crate::trace::trace_read;

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// The seeds of one fuzz target, from `corpus/fuzz/<target>/`.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    corpus_dir_files(&format!("fuzz/{target}"))
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

/// Held by the tests that count live async values process-wide, so that
/// no other test of this binary creates values meanwhile.
fn counting_live_values() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[test]
fn bef_decode_survives_truncations_bit_flips_and_noise() {
    let mut rng = XorShift(0x5eed);
    let seeds = seeds("bef_decode");
    assert!(seeds.len() >= 5);
    for seed in &seeds {
        for len in 0..=seed.len() {
            bef_decode(&seed[..len]);
        }
        for _ in 0..300 {
            let mut bytes = seed.clone();
            for _ in 0..=rng.next() % 4 {
                let bit = rng.next() as usize % (bytes.len() * 8);
                bytes[bit / 8] ^= 1 << (bit % 8);
            }
            bef_decode(&bytes);
        }
    }
    for _ in 0..500 {
        let len = rng.next() as usize % 256;
        let mut bytes = rng.bytes(len);
        if len >= 3 {
            bytes[..3].copy_from_slice(&[0x0b, 0xef, 0x00]);
        }
        bef_decode(&bytes);
    }
}

#[test]
fn bef_roundtrip_over_seeded_inputs() {
    let mut rng = XorShift(0xfeed);
    for seed in seeds("bef_roundtrip") {
        bef_roundtrip(&seed);
    }
    for _ in 0..500 {
        let len = rng.next() as usize % 4096;
        bef_roundtrip(&rng.bytes(len));
    }
}

#[test]
fn mlir_parse_survives_truncations_mutations_and_the_corpus() {
    let mut rng = XorShift(0x3113);
    // The conformance programs are the seeds of every custom form.
    let mut inputs = seeds("mlir_parse");
    for dir in ["mlir", "conformance"] {
        for path in corpus_files(dir, "mlir") {
            inputs.push(std::fs::read(path).unwrap());
        }
    }
    assert!(inputs.len() >= 10);
    // Punctuation and keywords mutate text far better than random bytes.
    const PIECES: &[&str] = &[
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "<",
        ">",
        ",",
        ":",
        "=",
        "%",
        "@",
        "^",
        "#",
        "!",
        "\"",
        "->",
        "loc(",
        "dense<",
        "tensor<",
        "0x",
        "-1",
        "1.5e3",
        "i32",
        "%0",
        "tfrt.return",
        "\n",
        " ",
        "// -----",
        "\\",
    ];
    for input in &inputs {
        for cut in (0..input.len()).step_by(7) {
            mlir_parse(&input[..cut]);
        }
        for _ in 0..40 {
            let mut bytes = input.clone();
            for _ in 0..=rng.next() % 3 {
                let at = rng.next() as usize % (bytes.len() + 1);
                if rng.next().is_multiple_of(2) && at < bytes.len() {
                    bytes.remove(at);
                } else {
                    let piece = PIECES[rng.next() as usize % PIECES.len()];
                    bytes.splice(at..at, piece.bytes());
                }
            }
            mlir_parse(&bytes);
        }
    }
}

/// The byte offsets at which a token ends: wherever the character class
/// (word, space, or each punctuation character on its own) changes.
fn token_ends(text: &str) -> Vec<usize> {
    fn class(c: char) -> u32 {
        if c.is_alphanumeric() || "_.$".contains(c) {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2 + c as u32
        }
    }
    let mut ends = Vec::new();
    let mut previous = None;
    for (at, c) in text.char_indices() {
        if previous.is_some_and(|p| p != class(c) || p >= 2) {
            ends.push(at);
        }
        previous = Some(class(c));
    }
    ends.push(text.len());
    ends
}

/// Every custom form the conformance programs use (every op of the
/// supported dialects, in its own syntax), cut after each token: the
/// parser answers with an error at a real position inside the text, or
/// (rarely) parses the prefix, which then goes through the whole
/// `mlir_parse` body. Never a panic.
#[test]
fn custom_forms_truncated_at_every_token_fail_cleanly() {
    let mut prefixes = 0;
    for path in corpus_files("conformance", "mlir") {
        let source = std::fs::read_to_string(&path).unwrap();
        for chunk in bef::text::split_input(&source) {
            for end in token_ends(chunk.text) {
                let prefix = &chunk.text[..end];
                prefixes += 1;
                match bef::text::parse_module(prefix, "cut.mlir") {
                    Ok(_) => mlir_parse(prefix.as_bytes()),
                    Err(diagnostic) => {
                        let lines = prefix.lines().count() as u32 + 1;
                        match &diagnostic.location {
                            bef::ir::Location::FileLineCol { line, column, .. } => assert!(
                                (1..=lines).contains(line) && *column >= 1,
                                "{}: cut at byte {end}: error at {line}:{column} outside the text: {diagnostic}",
                                path.display()
                            ),
                            other => panic!(
                                "{}: cut at byte {end}: error without a position ({other:?}): {diagnostic}",
                                path.display()
                            ),
                        }
                        let rendered = bef::text::render_diagnostic(&diagnostic, prefix);
                        assert!(
                            rendered.starts_with("cut.mlir:"),
                            "{}: cut at byte {end}: {rendered}",
                            path.display()
                        );
                    }
                }
            }
        }
    }
    assert!(prefixes > 10_000, "only {prefixes} prefixes");
}

#[test]
fn opt_passes_survive_the_corpus_and_its_truncations() {
    let mut inputs = seeds("opt_passes");
    inputs.extend(seeds("mlir_parse"));
    for dir in ["mlir", "conformance"] {
        for path in corpus_files(dir, "mlir") {
            inputs.push(std::fs::read(path).unwrap());
        }
    }
    for input in &inputs {
        opt_passes(input);
        // Each chunk of a split file on its own, cut short at a few places.
        let text = String::from_utf8_lossy(input);
        for chunk in text.split("// -----") {
            let bytes = chunk.as_bytes();
            for cut in (0..bytes.len()).step_by(97) {
                opt_passes(&bytes[..cut]);
            }
            opt_passes(bytes);
        }
    }
}

#[test]
fn mlirbc_read_survives_truncations_bit_flips_and_noise() {
    let mut rng = XorShift(0xb17c);
    let seeds = seeds("mlirbc_read");
    assert!(seeds.len() >= 8);
    for seed in &seeds {
        for len in 0..=seed.len() {
            mlirbc_read(&seed[..len]);
        }
        for _ in 0..300 {
            let mut bytes = seed.clone();
            for _ in 0..=rng.next() % 4 {
                let bit = rng.next() as usize % (bytes.len() * 8);
                bytes[bit / 8] ^= 1 << (bit % 8);
            }
            mlirbc_read(&bytes);
        }
        // Overwritten varints reach the size and count checks that bit
        // flips rarely do.
        for _ in 0..100 {
            let mut bytes = seed.clone();
            let at = rng.next() as usize % bytes.len();
            bytes[at] = [0x00, 0x01, 0xff, 0xfe, 0x80][rng.next() as usize % 5];
            mlirbc_read(&bytes);
        }
    }
    for _ in 0..500 {
        let len = rng.next() as usize % 256;
        let mut bytes = rng.bytes(len);
        if len >= 5 {
            // Magic and a version the reader accepts.
            bytes[..5].copy_from_slice(&[0x4d, 0x4c, 0xef, 0x52, (rng.next() % 7) as u8]);
        }
        mlirbc_read(&bytes);
    }
}

#[test]
fn mlirbc_roundtrip_over_seeded_inputs() {
    let mut rng = XorShift(0xbc01);
    for _ in 0..300 {
        let len = rng.next() as usize % 4096;
        mlirbc_roundtrip(&rng.bytes(len));
    }
}

/// xorshift64*, so the inputs are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Generated host programs run on `s` and `mstd:2` with equal results,
/// within a time bound, without leaks.
#[test]
fn generated_programs_agree_across_work_queues() {
    let _serial = counting_live_values();
    let mut rng = Rng(0x5EED_0005);
    // How many programs used each feature the generator can write.
    const FEATURES: [&str; 7] = [
        "tfrt.call @rec(",
        "tfrt.call @forever(",
        "loc(#l",
        "loc(fused[#l",
        "= !t",
        "{value = #c",
        "tfrt.repeat.i32",
    ];
    let mut used = [0usize; FEATURES.len()];
    let mut cycles = 0;
    for _ in 0..400 {
        let len = 64 + (rng.next() % 1024) as usize;
        let input: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let (source, cycle_checked) = exec_program_and_cycle(&input);
        let source = source.unwrap_or_default();
        for (count, feature) in used.iter_mut().zip(FEATURES) {
            *count += usize::from(source.contains(feature));
        }
        cycles += usize::from(cycle_checked);
    }
    for (count, feature) in used.iter().zip(FEATURES) {
        assert!(*count >= 5, "only {count} programs use `{feature}`");
    }
    assert!(cycles >= 50, "only {cycles} rewired programs with a cycle");
}

/// The generator calls registered kernels from their signatures: most
/// of the menu within a few thousand inputs, never an excluded kernel;
/// any input (even none) builds a program, the same one every time.
#[test]
fn generated_programs_call_registered_kernels() {
    use bef::exec::arbitrary_program::EXCLUDED_KERNELS;
    let menu = crate::exec::kernel_menu();
    let names: Vec<&str> = menu.kernel_names().collect();
    for (prefix, _) in EXCLUDED_KERNELS {
        assert!(!names.iter().any(|n| n.starts_with(prefix)), "{prefix}");
    }
    for kernel in [
        "tfrt_dht.create_uninitialized_tensor.f32.2",
        "ts.build_shape",
        "tfrt.merge.chains",
        "tfrt_test.max_pooling_2d.f32",
    ] {
        assert!(names.contains(&kernel), "{kernel} is not on the menu");
    }
    let mut rng = Rng(0x5EED_0006);
    let mut called = std::collections::BTreeSet::new();
    for _ in 0..3000 {
        let len = (rng.next() % 2048) as usize;
        let input: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let program = crate::exec::generated_program(&input).expect("a program from any input");
        assert_eq!(crate::exec::generated_program(&input).unwrap(), program);
        for name in &names {
            if program.contains(&format!("\"{name}\"(")) {
                called.insert(*name);
            }
        }
    }
    assert!(
        called.len() * 10 >= names.len() * 9,
        "{} of {} menu kernels called",
        called.len(),
        names.len()
    );
    assert!(crate::exec::generated_program(&[]).is_ok());
}

/// The AsyncValue body on seeded programs and on the checked-in seeds
/// leaves no value alive. `BEF_FUZZ_ITERATIONS=100000` soaks longer.
#[test]
fn async_value_ops_leave_no_value_alive() {
    let _serial = counting_live_values();
    let before = bef::runtime::live_async_values();
    let iterations = std::env::var("BEF_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let ops = crate::async_value::run_seeded(0xA5A5_0001, iterations);
    // The generator must produce real programs, not empty ones.
    assert!(ops > iterations * 10, "only {ops} operations");
    for seed in seeds("async_value_ops") {
        let _ = crate::async_value::async_value_ops(&mut Unstructured::new(&seed));
    }
    assert_eq!(bef::runtime::live_async_values(), before);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The bytecode body asserts write → read equality at versions 0-6;
    /// here proptest shrinks the generator input of any failure.
    #[test]
    fn arbitrary_ir_survives_every_version(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        mlirbc_roundtrip(&bytes);
    }
}

#[test]
fn trace_read_survives_truncations_bit_flips_and_noise() {
    let mut rng = XorShift(0x7ace);
    let seeds = seeds("trace_read");
    assert!(seeds.len() >= 3);
    for seed in &seeds {
        trace_read(seed);
        for len in 0..seed.len() {
            trace_read(&seed[..len]);
        }
        for _ in 0..400 {
            let mut bytes = seed.clone();
            for _ in 0..=rng.next() % 4 {
                match rng.next() % 3 {
                    0 => {
                        let bit = rng.next() as usize % (bytes.len() * 8);
                        bytes[bit / 8] ^= 1 << (bit % 8);
                    }
                    1 => {
                        let at = rng.next() as usize % bytes.len();
                        bytes[at] = rng.next() as u8;
                    }
                    _ => {
                        let at = rng.next() as usize % bytes.len();
                        bytes.insert(at, rng.next() as u8);
                    }
                }
            }
            trace_read(&bytes);
        }
    }
    for _ in 0..300 {
        let len = rng.next() as usize % 128;
        let mut bytes = b"BEFTRACE\x01\x00".to_vec();
        bytes.extend(rng.bytes(len));
        trace_read(&bytes);
    }
}

#[test]
fn befview_keys_on_seeds_truncations_and_flips() {
    use crate::befview::{befview_keys, run};
    let mut rng = XorShift(0xbef5);
    let seeds = seeds("bef_decode");
    for seed in &seeds {
        // A dozen truncations per seed: each runs the whole analysis and
        // a frame per key (the proptest in tui/tests covers every one).
        for len in (0..=seed.len()).step_by(seed.len() / 12 + 1) {
            let keys = rng.bytes(24);
            run(&seed[..len], &keys, len % 2 == 0);
        }
        for _ in 0..6 {
            let mut bytes = seed.clone();
            for _ in 0..=rng.next() % 4 {
                let bit = rng.next() as usize % (bytes.len() * 8).max(1);
                if let Some(b) = bytes.get_mut(bit / 8) {
                    *b ^= 1 << (bit % 8);
                }
            }
            let keys = rng.bytes(40);
            run(&bytes, &keys, false);
        }
    }
    // Recordings open on the Execution tab: its keys on every seed of
    // the recording reader, truncated and flipped.
    let recordings = self::seeds("trace_read");
    assert!(!recordings.is_empty(), "trace_read has seeds");
    for seed in &recordings {
        for len in (0..=seed.len()).step_by(seed.len() / 12 + 1) {
            let keys = rng.bytes(40);
            run(&seed[..len], &keys, len % 2 == 0);
        }
        for _ in 0..6 {
            let mut bytes = seed.clone();
            let bit = 64 + rng.next() as usize % (bytes.len() * 8).saturating_sub(64).max(1);
            if let Some(b) = bytes.get_mut(bit / 8) {
                *b ^= 1 << (bit % 8);
            }
            let keys = rng.bytes(40);
            run(&bytes, &keys, true);
        }
    }
    for _ in 0..30 {
        let len = rng.next() as usize % 512;
        let data = rng.bytes(len);
        let _ = befview_keys(&mut Unstructured::new(&data));
    }
}

#[test]
fn btf_read_survives_truncations_mutations_and_noise() {
    let mut rng = XorShift(0xb7f0);
    let seeds = seeds("btf_read");
    assert!(seeds.len() >= 3);
    for seed in &seeds {
        btf_read(seed);
        for len in 0..seed.len() {
            btf_read(&seed[..len]);
        }
        for _ in 0..400 {
            let mut bytes = seed.clone();
            for _ in 0..=rng.next() % 4 {
                let at = rng.next() as usize % bytes.len();
                match rng.next() % 3 {
                    0 => bytes[at] ^= 1 << (rng.next() % 8),
                    1 => bytes[at] = rng.next() as u8,
                    // A count, rank, dim or offset made huge.
                    _ => {
                        let word = at / 8 * 8;
                        if word + 8 <= bytes.len() {
                            bytes[word..word + 8].copy_from_slice(&rng.next().to_le_bytes());
                        }
                    }
                }
            }
            btf_read(&bytes);
        }
    }
    for _ in 0..300 {
        let len = rng.next() as usize % 128;
        let mut bytes = (rng.next() % 4).to_le_bytes().to_vec();
        bytes.extend(rng.bytes(len));
        btf_read(&bytes);
    }
}

#[test]
fn btf_bodies_see_shared_records_coo_ones_included() {
    let mut rng = XorShift(0x5ade);
    let (mut shared, mut shared_coo) = (0, 0);
    for _ in 0..300 {
        let len = 16 + rng.next() as usize % 256;
        let data = rng.bytes(len);
        btf_read(&data);
        let Ok(file) = crate::btf::shared_records(&mut Unstructured::new(&data)) else {
            continue;
        };
        let mut entries = file.entries.clone();
        entries.sort_unstable();
        if entries.windows(2).any(|w| w[0] == w[1]) {
            shared += 1;
            // A COO record's layout code follows its rank.
            let table = 8 + 8 * file.entries.len();
            if file.bytes.get(table + 9) == Some(&1) {
                shared_coo += 1;
            }
        }
    }
    assert!(shared >= 100, "{shared} files with shared records");
    assert!(shared_coo >= 20, "{shared_coo} sharing a first COO record");
}

/// Bytes signatures are made of, so that mutations stay near the grammar.
const SIGNATURE_BYTES: &[u8] = b"IRBSOUDKkdt_-!0123456789{}[],\":nul";

/// Runs `body` over the seeds of `target`, every truncation, mutations
/// towards the grammar's bytes, and random bytes.
fn signature_body_over_seeded_inputs(target: &str, body: fn(&[u8]), seed: u64) {
    let mut rng = XorShift(seed);
    let seeds = seeds(target);
    assert!(seeds.len() >= 3);
    for seed in &seeds {
        body(seed);
        for len in 0..seed.len() {
            body(&seed[..len]);
        }
        for _ in 0..400 {
            let mut bytes = seed.clone();
            for _ in 0..=rng.next() % 3 {
                let at = rng.next() as usize % bytes.len();
                match rng.next() % 4 {
                    0 => bytes[at] ^= 1 << (rng.next() % 8),
                    1 => bytes[at] = SIGNATURE_BYTES[rng.next() as usize % SIGNATURE_BYTES.len()],
                    2 => {
                        bytes.remove(at);
                        if bytes.is_empty() {
                            bytes.push(b'I');
                        }
                    }
                    _ => {
                        let byte = SIGNATURE_BYTES[rng.next() as usize % SIGNATURE_BYTES.len()];
                        bytes.insert(at, byte);
                    }
                }
            }
            body(&bytes);
        }
    }
    for _ in 0..300 {
        let len = rng.next() as usize % 64;
        let bytes: Vec<u8> = (0..len)
            .map(|_| SIGNATURE_BYTES[rng.next() as usize % SIGNATURE_BYTES.len()])
            .collect();
        body(&bytes);
        body(&rng.bytes(len));
    }
}

#[test]
fn abi_raw_parse_over_seeded_inputs() {
    signature_body_over_seeded_inputs("abi_raw_parse", abi_raw_parse, 0xab1);
}

#[test]
fn abi_sip_parse_over_seeded_inputs() {
    signature_body_over_seeded_inputs("abi_sip_parse", abi_sip_parse, 0xab2);
}

#[test]
fn abi_json_parse_over_seeded_inputs() {
    signature_body_over_seeded_inputs("abi_json_parse", abi_json_parse, 0xab3);
}

#[test]
fn abi_call_arguments_over_seeded_inputs() {
    signature_body_over_seeded_inputs("abi_call_arguments", abi_call_arguments, 0xab4);
    // The seeds reach the writer, not only the reader's errors.
    let reflection = bef::abi::Reflection::from_json(
        crate::abi::DEFAULT_REFLECTION.as_bytes(),
        bef::abi::Mode::Strict,
    )
    .expect("reads");
    let keywords = seeds("abi_call_arguments")
        .into_iter()
        .filter(|seed| seed.first() == Some(&b'{') && !seed.contains(&b'\n'))
        .filter(|seed| {
            bef::abi::json_values::arguments_from_json(seed, &reflection.args, &|_, _, _, _| {
                Err(String::new())
            })
            .is_ok()
        })
        .count();
    assert!(keywords >= 1, "no seed reads as arguments");
}

#[test]
fn abi_parsers_take_deep_nesting_in_bounded_time() {
    // A SIP signature nested a thousand levels, and JSON nested past
    // serde_json's limit: errors, quickly, without deep recursion.
    let mut sig = b"_0".to_vec();
    for _ in 0..1000 {
        let mut b = bef::abi::lexical::SignatureBuilder::new();
        b.integer(b'k', 0);
        let mut inner = b.into_bytes();
        inner.extend_from_slice(&sig);
        let mut outer = bef::abi::lexical::SignatureBuilder::new();
        outer.span(b'S', &inner);
        sig = outer.into_bytes();
    }
    let mut whole = bef::abi::lexical::SignatureBuilder::new();
    whole.span(b'I', &sig).span(b'R', b"");
    let started = std::time::Instant::now();
    abi_sip_parse(whole.bytes());
    assert!(bef::abi::SipSignature::parse(whole.bytes(), bef::abi::Mode::Lenient).is_err());
    let json = format!(
        "{{\"a\":[{}\"i32\"{}],\"r\":[]}}",
        "[\"slist\",".repeat(5000),
        "]".repeat(5000)
    );
    abi_json_parse(json.as_bytes());
    assert!(bef::abi::Reflection::from_json(json.as_bytes(), bef::abi::Mode::Lenient).is_err());
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
