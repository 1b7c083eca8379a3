//! Parsing work queue names: `s`, `mstd`, `mstd:N`, `mstd:N,M`. The name is
//! untrusted input (a command-line flag): every malformed name is a clear
//! error, never a panic.

use std::fmt;

/// Upper bound on compute threads accepted from a name.
pub const MAX_THREADS: usize = 1024;
/// Upper bound on blocking threads accepted from a name.
pub const MAX_BLOCKING_THREADS: usize = 16384;
/// Blocking threads of `mstd` and `mstd:N` when M is not given.
pub const DEFAULT_BLOCKING_THREADS: usize = 256;

/// A parsed work queue configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkQueueSpec {
    /// `s`: tasks run on the caller's thread inside await and quiesce.
    SingleThreaded,
    /// `mstd:N,M`: N compute threads, up to M blocking threads.
    MultiThreaded {
        /// Compute threads, at least 1.
        threads: usize,
        /// Most blocking threads alive at once.
        blocking_threads: usize,
    },
}

/// A malformed work queue name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkQueueError {
    /// The type is not `s` or `mstd`; holds the type given.
    #[error("unknown work queue type '{0}' (expected 's', 'mstd', 'mstd:N' or 'mstd:N,M')")]
    UnknownType(String),
    /// `s` was given arguments; holds the whole name.
    #[error("work queue type 's' takes no arguments, got '{0}'")]
    UnexpectedArguments(String),
    #[error(
        "invalid {what} '{value}' in work queue '{name}': expected an integer from {min} to {max}"
    )]
    /// A thread count that is not an integer in its range.
    InvalidCount {
        /// Which count, in words (`number of threads`).
        what: &'static str,
        /// The text given.
        value: String,
        /// The whole work queue name.
        name: String,
        /// Smallest value allowed.
        min: usize,
        /// Largest value allowed.
        max: usize,
    },
    /// More than two counts after `mstd:`; holds the whole name.
    #[error("too many arguments in work queue '{0}' (expected 'mstd:N' or 'mstd:N,M')")]
    TooManyArguments(String),
}

fn count(
    what: &'static str,
    value: &str,
    name: &str,
    min: usize,
    max: usize,
) -> Result<usize, WorkQueueError> {
    let err = || WorkQueueError::InvalidCount {
        what,
        value: value.to_string(),
        name: name.to_string(),
        min,
        max,
    };
    // Digits only: `usize::from_str` would also accept a leading '+'.
    if value.is_empty() || value.len() > 8 || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    let n: usize = value.parse().map_err(|_| err())?;
    if n < min || n > max {
        return Err(err());
    }
    Ok(n)
}

impl WorkQueueSpec {
    /// Parses a work queue name. `mstd` without N uses the machine's
    /// available parallelism.
    pub fn parse(name: &str) -> Result<WorkQueueSpec, WorkQueueError> {
        let (kind, args) = match name.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (name, None),
        };
        match kind {
            "s" => match args {
                None => Ok(WorkQueueSpec::SingleThreaded),
                Some(_) => Err(WorkQueueError::UnexpectedArguments(name.to_string())),
            },
            "mstd" => {
                let default_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                let Some(args) = args else {
                    return Ok(WorkQueueSpec::MultiThreaded {
                        threads: default_threads.min(MAX_THREADS),
                        blocking_threads: DEFAULT_BLOCKING_THREADS,
                    });
                };
                let mut parts = args.split(',');
                let n = parts.next().unwrap_or("");
                let threads = count("number of threads", n, name, 1, MAX_THREADS)?;
                let blocking_threads = match parts.next() {
                    None => DEFAULT_BLOCKING_THREADS,
                    Some(m) => count(
                        "number of blocking threads",
                        m,
                        name,
                        1,
                        MAX_BLOCKING_THREADS,
                    )?,
                };
                if parts.next().is_some() {
                    return Err(WorkQueueError::TooManyArguments(name.to_string()));
                }
                Ok(WorkQueueSpec::MultiThreaded {
                    threads,
                    blocking_threads,
                })
            }
            _ => Err(WorkQueueError::UnknownType(kind.to_string())),
        }
    }
}

impl fmt::Display for WorkQueueSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkQueueSpec::SingleThreaded => f.write_str("s"),
            WorkQueueSpec::MultiThreaded {
                threads,
                blocking_threads,
            } => {
                write!(f, "mstd:{threads},{blocking_threads}")
            }
        }
    }
}

impl std::str::FromStr for WorkQueueSpec {
    type Err = WorkQueueError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        WorkQueueSpec::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_names() {
        assert_eq!(WorkQueueSpec::parse("s"), Ok(WorkQueueSpec::SingleThreaded));
        assert_eq!(
            WorkQueueSpec::parse("mstd:2"),
            Ok(WorkQueueSpec::MultiThreaded {
                threads: 2,
                blocking_threads: DEFAULT_BLOCKING_THREADS
            })
        );
        assert_eq!(
            WorkQueueSpec::parse("mstd:4,8"),
            Ok(WorkQueueSpec::MultiThreaded {
                threads: 4,
                blocking_threads: 8
            })
        );
        match WorkQueueSpec::parse("mstd").unwrap() {
            WorkQueueSpec::MultiThreaded { threads, .. } => assert!(threads >= 1),
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(
            WorkQueueSpec::parse("mstd:3,5").unwrap().to_string(),
            "mstd:3,5"
        );
    }

    #[test]
    fn errors_are_clear() {
        let msg = |s: &str| WorkQueueSpec::parse(s).unwrap_err().to_string();
        assert!(msg("foo").starts_with("unknown work queue type 'foo'"));
        assert!(msg("").starts_with("unknown work queue type ''"));
        assert!(msg("S").starts_with("unknown work queue type 'S'"));
        assert_eq!(
            msg("s:1"),
            "work queue type 's' takes no arguments, got 's:1'"
        );
        assert_eq!(
            msg("mstd:0"),
            "invalid number of threads '0' in work queue 'mstd:0': expected an integer from 1 to 1024"
        );
        assert!(msg("mstd:").starts_with("invalid number of threads ''"));
        assert!(msg("mstd:+2").starts_with("invalid number of threads '+2'"));
        assert!(msg("mstd:-1").starts_with("invalid number of threads '-1'"));
        assert!(msg("mstd:99999999999999999999").starts_with("invalid number of threads"));
        assert!(msg("mstd:2,").starts_with("invalid number of blocking threads ''"));
        assert!(msg("mstd:2,x").starts_with("invalid number of blocking threads 'x'"));
        assert!(msg("mstd:2,0").starts_with("invalid number of blocking threads '0'"));
        assert!(msg("mstd:2, 3").starts_with("invalid number of blocking threads ' 3'"));
        assert!(msg("mstd:2,3,4").starts_with("too many arguments in work queue 'mstd:2,3,4'"));
        assert!(msg("mstd:2:3").starts_with("invalid number of threads '2:3'"));
    }

    #[test]
    fn arbitrary_strings_never_panic() {
        use proptest::prelude::*;
        proptest!(|(s in "\\PC{0,16}", t in "(s|mstd)[:,0-9a-z+-]{0,10}")| {
            let _ = WorkQueueSpec::parse(&s);
            let _ = WorkQueueSpec::parse(&t);
        });
    }
}
