//! The counting allocator, installed as a test binary would.

use bef_test_support::counting::{Counting, peak_during, thread_peak_during, thread_peak_within};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn peaks_count_what_a_call_allocates_on_its_threads() {
    let (_, peak) = peak_during(|| {
        let block = vec![1u8; 1 << 20];
        std::hint::black_box(&block);
    });
    assert!(peak >= 1 << 20, "{peak}");

    // A thread's allocation counts for the process, not for this thread.
    let ((), process) = peak_during(|| {
        let ((), mine) = thread_peak_during(|| {
            std::thread::spawn(|| std::hint::black_box(vec![0u8; 4 << 20]))
                .join()
                .unwrap();
        });
        assert!(mine < 1 << 20, "{mine}");
    });
    assert!(process >= 4 << 20, "{process}");

    let (_, peak) = thread_peak_within(8 << 20, || std::hint::black_box(vec![0u64; 1 << 17]));
    assert!((1 << 20..8 << 20).contains(&peak), "{peak}");
}
