//! The cargo-fuzz target bodies, run for a bounded number of seeded
//! iterations: golden files, their truncations and bit flips, random bytes.

use bef::fuzz_targets::{bef_decode, bef_roundtrip, mlir_parse, mlirbc_read, mlirbc_roundtrip};

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

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/fuzz")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
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
    let mut inputs = seeds("mlir_parse");
    let programs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/mlir");
    for entry in std::fs::read_dir(&programs).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mlir") {
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
