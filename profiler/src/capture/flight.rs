//! The flight recorder's stop conditions (`--stop-on`): what ends a
//! recording early, keeping the window of events before it. The recorder
//! ([`crate::capture::recorder`]) checks them as events arrive and cancels
//! the run through the hook it is given, as Ctrl-C does.

/// When a recording stops by itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StopOn {
    /// At the first kernel error (a result that is an error value).
    pub error: bool,
    /// At the first kernel matching one of these that runs too long.
    pub slow: Vec<SlowKernel>,
}

impl StopOn {
    /// Whether any condition is set (the recorder then follows the kernels
    /// running on each thread).
    pub fn any(&self) -> bool {
        self.error || !self.slow.is_empty()
    }

    /// The first condition of `slow` that kernel `name` (index `index` in
    /// its function) running `nanos` meets.
    pub fn slow_match(&self, name: &str, index: u32, nanos: u64) -> Option<&SlowKernel> {
        self.slow
            .iter()
            .find(|s| nanos > s.nanos && kernel_matches(name, index, &s.pattern))
    }
}

/// `slow:PATTERN>TIME`: a kernel matching `pattern` running longer than
/// `nanos`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlowKernel {
    /// A kernel pattern, as `critical-path --speedup` takes it.
    pub pattern: String,
    /// The time it may take, in nanoseconds.
    pub nanos: u64,
}

/// Whether kernel `name`, index `index` in its function, matches
/// `pattern` as every kernel pattern of `bef-trace` does: its name
/// contains the pattern, or, for `NAME#INDEX`, contains NAME and its index
/// is INDEX (`usleep#6`, `tfrt.add.i32#12`).
pub fn kernel_matches(name: &str, index: u32, pattern: &str) -> bool {
    match pattern.rsplit_once('#') {
        Some((part, at)) if at.parse::<u32>().is_ok() => {
            name.contains(part) && at.parse() == Ok(index)
        }
        _ => name.contains(pattern),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_as_speedup_patterns_do() {
        assert!(kernel_matches("tfrt_test.usleep", 3, "usleep"));
        assert!(kernel_matches("tfrt_test.usleep", 3, "usleep#3"));
        assert!(!kernel_matches("tfrt_test.usleep", 4, "usleep#3"));
        assert!(!kernel_matches("tfrt.add.i32", 3, "usleep"));
        // A `#` not followed by an index is part of the name.
        assert!(!kernel_matches("tfrt.add.i32", 3, "add#x"));
    }

    #[test]
    fn a_slow_kernel_must_take_longer_than_its_limit() {
        let stop = StopOn {
            error: false,
            slow: vec![SlowKernel {
                pattern: "usleep".into(),
                nanos: 1000,
            }],
        };
        assert!(stop.any());
        assert!(stop.slow_match("tfrt_test.usleep", 1, 1000).is_none());
        assert!(stop.slow_match("tfrt_test.usleep", 1, 1001).is_some());
        assert!(stop.slow_match("tfrt.add.i32", 1, 5000).is_none());
        assert!(!StopOn::default().any());
    }
}
