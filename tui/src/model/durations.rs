//! How the Execution tab writes times and durations. Both are exact: a
//! recording counts nanoseconds, and a rounded time read back is another
//! time. Times since the recording began are nanoseconds with their
//! thousands grouped (`1,200,328,768`); durations take the largest unit
//! that leaves a whole part, with as many decimals as they need
//! (`1.200328768 s`, `12.5 µs`, `830 ns`).

/// `ns` nanoseconds since the recording began, thousands grouped.
pub fn time(ns: u64) -> String {
    let digits = ns.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration of `ns` nanoseconds in the largest unit with a whole part,
/// exactly.
pub fn duration(ns: u64) -> String {
    const UNITS: [(u64, &str, usize); 3] = [
        (1_000_000_000, "s", 9),
        (1_000_000, "ms", 6),
        (1_000, "µs", 3),
    ];
    for (scale, unit, places) in UNITS {
        if ns >= scale {
            let whole = ns / scale;
            let fraction = ns % scale;
            if fraction == 0 {
                return format!("{whole} {unit}");
            }
            let decimals = format!("{fraction:0places$}");
            return format!("{whole}.{} {unit}", decimals.trim_end_matches('0'));
        }
    }
    format!("{ns} ns")
}

/// The time from `from` to `to`, when both are known and in order.
pub fn between(from: Option<u64>, to: Option<u64>) -> Option<u64> {
    to?.checked_sub(from?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_group_thousands_and_keep_every_digit() {
        assert_eq!(time(0), "0");
        assert_eq!(time(999), "999");
        assert_eq!(time(1000), "1,000");
        assert_eq!(time(1_200_328_768), "1,200,328,768");
        assert_eq!(time(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn durations_pick_a_unit_and_stay_exact() {
        assert_eq!(duration(0), "0 ns");
        assert_eq!(duration(830), "830 ns");
        assert_eq!(duration(12_500), "12.5 µs");
        assert_eq!(duration(3_000_000), "3 ms");
        assert_eq!(duration(1_200_328_768), "1.200328768 s");
        assert_eq!(duration(1_000_000_001), "1.000000001 s");
        assert_eq!(between(Some(5), Some(12)), Some(7));
        assert_eq!(between(Some(12), Some(5)), None);
        assert_eq!(between(None, Some(5)), None);
    }
}
