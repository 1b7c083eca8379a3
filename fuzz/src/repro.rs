//! What one fuzz input exercises, in a form the tools open (`repro`):
//! the program a generator target builds from the input, printed as MLIR
//! text or encoded as BEF, or the input's own bytes for a decoder target
//! (they already are a BEF, MLIR, bytecode, BTF or recording file); and
//! the target's verdict on it.

use arbitrary::Unstructured;

use crate::verdict::run_caught;

/// The targets `repro` decodes, with the kind of file it writes for each.
pub const REPRO_TARGETS: &[(&str, &str)] = &[
    ("exec_programs", "MLIR text of the generated program"),
    ("opt_passes", "MLIR text (the input)"),
    ("mlir_parse", "MLIR text (the input)"),
    ("bef_decode", "BEF (the input)"),
    ("bef_roundtrip", "BEF of the generated module"),
    ("mlirbc_read", "MLIR bytecode (the input)"),
    ("mlirbc_roundtrip", "MLIR text of the generated IR"),
    ("btf_read", "BTF (the input)"),
    ("trace_read", "bef-trace recording (the input)"),
    (
        "befview_keys",
        "the file befview opens (the keys are listed)",
    ),
    ("abi_raw_parse", "raw signature (the input)"),
    ("abi_sip_parse", "SIP signature (the input)"),
    ("abi_json_parse", "JSON reflection (the input)"),
    ("abi_call_arguments", "JSON arguments (the input)"),
];

/// What the target made of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The body accepted the input and every check held.
    Ok,
    /// The input was refused cleanly, with this message (what the fuzz
    /// target counts as a pass).
    Error(String),
    /// The body panicked: a finding. The panic's message and place.
    Panic(String),
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Ok => write!(f, "ok"),
            Verdict::Error(message) => write!(f, "error (handled): {message}"),
            Verdict::Panic(message) => write!(f, "panic caught: {message}"),
        }
    }
}

/// A decoded input: the file it stands for, and the verdict.
#[derive(Debug, Clone)]
pub struct Repro {
    /// The file's bytes (`None` when the generator builds nothing from
    /// the input).
    pub file: Option<Vec<u8>>,
    /// Something the file alone does not show (`befview_keys`' keys).
    pub note: Option<String>,
    /// What the target made of the input.
    pub verdict: Verdict,
}

/// Decodes `data` the way `target` does and runs its body on it; an
/// error naming the supported targets when `target` is not one.
pub fn repro(target: &str, data: &[u8]) -> Result<Repro, String> {
    let body: fn(&[u8]) = match target {
        "exec_programs" => crate::exec::exec_programs,
        "opt_passes" => crate::passes::opt_passes,
        "mlir_parse" => crate::text::mlir_parse,
        "bef_decode" => crate::bef_file::bef_decode,
        "bef_roundtrip" => crate::bef_file::bef_roundtrip,
        "mlirbc_read" => crate::bytecode::mlirbc_read,
        "mlirbc_roundtrip" => crate::bytecode::mlirbc_roundtrip,
        "btf_read" => crate::btf::btf_read,
        "trace_read" => crate::trace::trace_read,
        "befview_keys" => |data| {
            let _ = crate::befview::befview_keys(&mut Unstructured::new(data));
        },
        "abi_raw_parse" => crate::abi::abi_raw_parse,
        "abi_sip_parse" => crate::abi::abi_sip_parse,
        "abi_json_parse" => crate::abi::abi_json_parse,
        "abi_call_arguments" => crate::abi::abi_call_arguments,
        _ => {
            let names: Vec<&str> = REPRO_TARGETS.iter().map(|(name, _)| *name).collect();
            return Err(format!(
                "unknown target '{target}' (repro supports: {})",
                names.join(", ")
            ));
        }
    };
    let (file, note) = file_form(target, data);
    let verdict = match run_caught(body, data) {
        Err(message) => Verdict::Panic(message),
        Ok(()) => match refusal(target, data) {
            Some(message) => Verdict::Error(message),
            None => Verdict::Ok,
        },
    };
    Ok(Repro {
        file,
        note,
        verdict,
    })
}

/// The file `data` stands for under `target`, and a note on what the
/// file does not carry.
fn file_form(target: &str, data: &[u8]) -> (Option<Vec<u8>>, Option<String>) {
    match target {
        "exec_programs" => (
            crate::exec::generated_program(data)
                .ok()
                .map(String::into_bytes),
            None,
        ),
        "bef_roundtrip" => (generated_bef(data), None),
        "mlirbc_roundtrip" => {
            let text = bef::text::arbitrary_ir::arbitrary_module(&mut Unstructured::new(data))
                .ok()
                .map(|m| bef::text::print_module(&m, bef::text::PrintOptions::default()));
            (text.map(String::into_bytes), None)
        }
        "befview_keys" => {
            let mut u = Unstructured::new(data);
            let Ok(file) = u.arbitrary::<Vec<u8>>() else {
                return (None, None);
            };
            let wide: bool = u.arbitrary().unwrap_or_default();
            let keys: Vec<u8> = u.arbitrary().unwrap_or_default();
            let note = format!(
                "{} keys (bytes {keys:02x?}) on a {} terminal",
                keys.len(),
                if wide { "wide" } else { "narrow" }
            );
            (Some(file), Some(note))
        }
        _ => (Some(data.to_vec()), None),
    }
}

/// The BEF file an input of `bef_roundtrip` generates, encoded.
pub fn generated_bef(data: &[u8]) -> Option<Vec<u8>> {
    let module =
        bef::format::arbitrary_model::arbitrary_module(&mut Unstructured::new(data)).ok()?;
    bef::format::encode(&module).ok()
}

/// Why the target refused `data`, when it did (the first error its
/// decoder gives); `None` when the input went all the way through.
fn refusal(target: &str, data: &[u8]) -> Option<String> {
    let text = || std::str::from_utf8(data).map_err(|e| format!("not UTF-8: {e}"));
    let parsed = || {
        let source = text()?;
        bef::text::parse_module(source, "input.mlir")
            .map_err(|d| bef::text::render_diagnostic(&d, source))
    };
    let outcome: Result<(), String> = match target {
        "exec_programs" => crate::exec::generated_program(data)
            .map(drop)
            .map_err(|e| format!("the generator built no program: {e}")),
        "bef_roundtrip" => generated_bef(data)
            .map(drop)
            .ok_or_else(|| "the generator built no module from the input".to_string()),
        "mlirbc_roundtrip" => {
            bef::text::arbitrary_ir::arbitrary_module(&mut Unstructured::new(data))
                .map(drop)
                .map_err(|e| format!("the generator built no module: {e}"))
        }
        "mlir_parse" => parsed().and_then(|module| {
            bef::translate::mlir_to_bef(&module, bef::translate::TranslateOptions::default())
                .map(drop)
                .map_err(|errors| errors.first().map_or_else(String::new, |d| d.to_string()))
        }),
        "opt_passes" => parsed()
            .and_then(|module| bef::passes::verify::verify(&module).map_err(|d| d.to_string())),
        "bef_decode" => {
            let buffer = bef::format::BefBuffer::copy_from(data);
            match buffer.open() {
                Err(e) => Err(e.to_string()),
                Ok(file) => bef::format::verify(&file).map_err(|problems| {
                    problems
                        .first()
                        .map_or_else(String::new, ToString::to_string)
                }),
            }
        }
        "mlirbc_read" => bef::bytecode::read_aligned(data)
            .map(drop)
            .map_err(|e| e.to_string()),
        "btf_read" => bef::btf::BtfFile::parse(data)
            .map(drop)
            .map_err(|e| e.to_string()),
        "trace_read" => bef_trace::read(data).map(drop).map_err(|e| e.to_string()),
        _ => Ok(()),
    };
    outcome.err()
}
