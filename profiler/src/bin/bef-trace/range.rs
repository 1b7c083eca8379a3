//! The flags that choose the part of a recording an export shows
//! (`--from`, `--to`, `--function`, `--thread`), turned into the
//! library's [`Selection`].

use bef_trace::Selection;
use clap::Args;

/// The part of the recording to export; see [`bef_trace::analysis::selection`].
#[derive(Args, Clone, Default)]
pub struct RangeArgs {
    /// Keep only what happened from TIME after the recording's first event
    /// (0, 250us, 1.5ms, 2s, 1m). A kernel or execution running across
    /// --from or --to is clipped to the range: kept, starting at --from,
    /// ending at --to; values published, completions and work are kept
    /// when they fall in it.
    #[arg(long, value_name = "TIME", value_parser = parse_time)]
    from: Option<u64>,
    /// Keep only what happened until TIME after the recording's first
    /// event (as --from; a TIME past the end keeps the end).
    #[arg(long, value_name = "TIME", value_parser = parse_time)]
    to: Option<u64>,
    /// Keep only the executions of the function NAME (`@` optional) and
    /// everything they call, directly or not.
    #[arg(long, value_name = "NAME")]
    function: Option<String>,
    /// Keep only the thread NAME, as the exports label it (`pool (2)`), or
    /// every thread with that recorded name.
    #[arg(long, value_name = "NAME")]
    thread: Option<String>,
}

impl RangeArgs {
    /// The selection the flags ask for.
    pub fn selection(&self) -> Selection {
        Selection {
            from: self.from,
            to: self.to,
            function: self.function.clone(),
            thread: self.thread.clone(),
        }
    }
}

/// A time after the recording's start, in nanoseconds: `0`, or a number
/// with a unit, `ns`, `us`, `ms`, `s` (the default), `m` or `h`, as
/// `--duration` reads it.
pub fn parse_time(text: &str) -> Result<u64, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let ns_per_unit = match unit {
        "ns" => 1.0,
        "us" => 1e3,
        "ms" => 1e6,
        "" | "s" => 1e9,
        "m" => 60e9,
        "h" => 3600e9,
        _ => {
            return Err(format!(
                "unknown unit {unit:?}: use ns, us, ms, s, m or h (e.g. 1.5ms)"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a time (e.g. 0, 250us, 1.5ms, 2s)"))?;
    let ns = (value * ns_per_unit).round();
    if !(0.0..=u64::MAX as f64).contains(&ns) {
        return Err(format!("{text:?} is not a time that fits"));
    }
    Ok(ns as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_with_units() {
        assert_eq!(parse_time("0"), Ok(0));
        assert_eq!(parse_time("250us"), Ok(250_000));
        assert_eq!(parse_time("1.5ms"), Ok(1_500_000));
        assert_eq!(parse_time("2"), Ok(2_000_000_000));
        assert_eq!(parse_time("7ns"), Ok(7));
        assert!(parse_time("3d").unwrap_err().contains("unknown unit"));
        assert!(parse_time("-1s").is_err());
        assert!(parse_time("1..5s").unwrap_err().contains("not a time"));
        assert!(parse_time("1e400s").is_err());
    }
}
