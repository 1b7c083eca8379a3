//! The reference tools (`tfrt_translate`, `bef_executor`) take LLVM-style
//! options, which existing test scripts often spell with a single dash
//! (`-mlir-to-bef`, `-work_queue_type=mstd`). clap wants two; this rewrites
//! the known long options before clap sees them. Also the checks of option
//! values that clap runs while parsing, so that a bad value is a usage
//! error (exit status 2) before any input is read.

/// Rewrites `-name` and `-name=value` into `--name...` when `name` is one
/// of `long_options`; everything else passes through unchanged.
pub fn normalize_single_dash<I>(args: I, long_options: &[&str]) -> Vec<std::ffi::OsString>
where
    I: IntoIterator<Item = std::ffi::OsString>,
{
    args.into_iter()
        .map(|arg| {
            let Some(text) = arg.to_str() else {
                return arg;
            };
            let Some(rest) = text.strip_prefix('-') else {
                return arg;
            };
            if rest.starts_with('-') || rest.len() < 2 {
                return arg;
            }
            let name = rest.split_once('=').map_or(rest, |(name, _)| name);
            if long_options.contains(&name) {
                format!("-{text}").into()
            } else {
                arg
            }
        })
        .collect()
}

/// `--work-queue`: checked when the command line is parsed (a bad name is
/// a usage error), kept as given for the runner.
pub fn parse_work_queue(name: &str) -> Result<String, String> {
    bef::runtime::WorkQueueSpec::parse(name)
        .map(|_| name.to_string())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_only_known_long_options() {
        let args = [
            "bef",
            "translate",
            "-mlir-to-bef",
            "-o",
            "-",
            "x.mlir",
            "-work_queue_type=mstd",
            "--print-generic",
        ];
        let out = normalize_single_dash(
            args.iter().map(|s| s.into()),
            &["mlir-to-bef", "work_queue_type"],
        );
        let out: Vec<&str> = out.iter().map(|s| s.to_str().unwrap()).collect();
        assert_eq!(
            out,
            [
                "bef",
                "translate",
                "--mlir-to-bef",
                "-o",
                "-",
                "x.mlir",
                "--work_queue_type=mstd",
                "--print-generic"
            ]
        );
    }
}
