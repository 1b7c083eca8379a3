//! The check that a tool echoes nothing of a file it refused: a text file
//! of made-up secrets ([`secret_text`]) is given to a reader as if it were
//! its format, and [`assert_no_echo`] checks that the output holds none of
//! it, as text or as a number read from it.

/// Lines shaped like a secrets file: keys, passwords and tokens of varied
/// bytes, with no word a tool's message would use (so that a match is an
/// echo, not a coincidence).
pub fn secret_text() -> Vec<u8> {
    concat!(
        "API_KEY=sk-live-9f8e7d6c5b4a3f2e1d0cQWzXvB\n",
        "DB_PASSWORD=Zq!7#pX@w2$Lr9~Kd^Vm\n",
        "AWS_ACCESS=AKIA4QJX7ZP2LMN8RTYU\n",
        "AWS_PRIVATE=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzKEYQ\n",
        "PGP_PASSPHRASE=jovial-quokka-umbrella-8841\n",
        "GH_TOKEN=ghp_R2d2C3p0BB8XwingYwing77Qq\n",
        "SLACK_HOOK=hooks.example/T00/B00/XXzzYYww\n",
        "PIN=58371946\n",
    )
    .as_bytes()
    .to_vec()
}

/// Files a BTF reader may be given that hold the secrets (each with its
/// name's stem): the secrets as they are; behind a count of 4, so that the
/// offset table is secret text; one record whose header names f32 dense
/// with a rank of secret text; one COO record of f32 [3, 3] whose
/// coordinates are secret text. The first fails at the count, the others
/// get as far as a table entry, the dims and the coordinates.
pub fn secret_btf_files() -> Vec<(&'static str, Vec<u8>)> {
    let words =
        |values: &[u64]| -> Vec<u8> { values.iter().flat_map(|v| v.to_le_bytes()).collect() };
    let secret = secret_text();
    let counted = [words(&[4]), secret.clone()].concat();
    let mut ranked = words(&[1, 16]);
    ranked.extend_from_slice(&secret[..8]);
    ranked.extend_from_slice(&[4, 0]);
    ranked.extend_from_slice(&secret[8..]);
    let mut coo = words(&[1, 16, 2]);
    coo.extend_from_slice(&[4, 1, 0, 0, 0, 0, 0, 0]);
    coo.extend(words(&[3, 3, 2, 2]));
    coo.extend_from_slice(&secret[..32]);
    coo.extend(words(&[2]));
    coo.extend_from_slice(&secret[32..]);
    vec![
        ("secrets", secret),
        ("counted", counted),
        ("ranked", ranked),
        ("coordinates", coo),
    ]
}

/// A host program (MLIR text) with one function, `read`, that reads
/// tensors -1 to 8 of the BTF file `path` with `btf.read_dense_tensor`, as
/// a rank-2 f32 tensor and as a rank-1 i32 tensor.
pub fn btf_reading_program(path: &std::path::Path) -> String {
    let mut body = String::new();
    for (k, index) in (-1..=8).enumerate() {
        body.push_str(&format!(
            "  %i{k} = tfrt.constant.i32 {index}\n  \
             %a{k} = \"btf.read_dense_tensor.f32.2\"(%path, %i{k}) : (!tfrt.string, i32) -> !t.tensor\n  \
             %b{k} = \"btf.read_dense_tensor.i32.1\"(%path, %i{k}) : (!tfrt.string, i32) -> !t.tensor\n"
        ));
    }
    format!(
        "func.func @read() {{\n  %path = \"tfrt_test.get_string\"() {{ value = \"{}\" }} : () -> !tfrt.string\n{body}  tfrt.return\n}}\n",
        path.display()
    )
}

/// Numbers below this are not looked for: a small number (a byte count, a
/// tensor index, a line number) appears in any message by itself, and the
/// windows of a text file are at least 4 printable bytes, so their values
/// start in the millions.
pub const SMALLEST_CHECKED: u64 = 1000;

/// The shortest run of the secret's bytes looked for as text: shorter runs
/// (`=`, `\nAWS`) may occur in any message.
pub const SHORTEST_TEXT: usize = 6;

/// Every way `secret`'s 4- and 8-byte windows (at every offset, aligned or
/// not) read as little-endian u32, u64 or i64 could be printed: decimal,
/// and hex in lower and upper case, with and without `0x`. Values below
/// [`SMALLEST_CHECKED`] are left out.
pub fn numeric_renderings(secret: &[u8]) -> Vec<String> {
    let mut values: Vec<(u64, Option<i64>)> = Vec::new();
    for window in secret.windows(4) {
        let value = u32::from_le_bytes(window.try_into().expect("4 bytes"));
        values.push((u64::from(value), None));
    }
    for window in secret.windows(8) {
        let value = u64::from_le_bytes(window.try_into().expect("8 bytes"));
        values.push((value, Some(value as i64)));
    }
    let mut renderings = Vec::new();
    for (value, signed) in values {
        if value < SMALLEST_CHECKED {
            continue;
        }
        renderings.push(value.to_string());
        if let Some(signed) = signed.filter(|s| *s < 0) {
            renderings.push(signed.to_string());
        }
        for hex in [format!("{value:x}"), format!("{value:X}")] {
            renderings.push(format!("0x{hex}"));
            renderings.push(hex);
        }
    }
    renderings.sort();
    renderings.dedup();
    renderings
}

/// Panics, naming what was found, if `output` (everything a tool printed
/// when given `secret`) holds a run of [`SHORTEST_TEXT`] bytes of the
/// secret or one of its [`numeric_renderings`]. `what` names the run.
pub fn assert_no_echo(secret: &[u8], output: &[u8], what: &str) {
    for run in secret.windows(SHORTEST_TEXT) {
        assert!(
            !output.windows(run.len()).any(|w| w == run),
            "{what}: the output holds the secret's bytes {:?}:\n{}",
            String::from_utf8_lossy(run),
            String::from_utf8_lossy(output)
        );
    }
    let text = String::from_utf8_lossy(output);
    for number in numeric_renderings(secret) {
        assert!(
            !text.contains(&number),
            "{what}: the output holds {number}, a number read from the secret:\n{text}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_window_is_looked_for() {
        let secret = secret_text();
        let renderings = numeric_renderings(&secret);
        let first = u64::from_le_bytes(secret[..8].try_into().unwrap());
        for shown in [
            first.to_string(),
            format!("{first:x}"),
            format!("0x{first:X}"),
        ] {
            assert!(renderings.contains(&shown), "{shown}");
        }
        let unaligned = u32::from_le_bytes(secret[3..7].try_into().unwrap());
        assert!(renderings.contains(&unaligned.to_string()));
    }

    #[test]
    #[should_panic(expected = "a number read from the secret")]
    fn an_echoed_number_is_found() {
        let secret = secret_text();
        let count = u64::from_le_bytes(secret[..8].try_into().unwrap());
        assert_no_echo(&secret, format!("contains {count} tensors").as_bytes(), "t");
    }

    #[test]
    #[should_panic(expected = "the secret's bytes")]
    fn echoed_text_is_found() {
        assert_no_echo(&secret_text(), b"error near 'sk-live-9f'", "t");
    }
}
