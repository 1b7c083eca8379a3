//! The `exec_programs` fuzz body over seeded random inputs: generated host
//! programs run on `s` and `mstd:2` with equal results, within a time
//! bound, without leaks. Alone in its test binary because the leak check
//! counts async values process-wide.

use bef::fuzz_targets::exec_programs;

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

#[test]
fn generated_programs_agree_across_work_queues() {
    let mut rng = Rng(0x5EED_0005);
    for _ in 0..400 {
        let len = 64 + (rng.next() % 1024) as usize;
        let input: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        exec_programs(&input);
    }
}
