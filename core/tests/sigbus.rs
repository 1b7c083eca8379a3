//! A mapped input truncated by another process: the tool stops with a
//! message naming the file and status 1 (`tool_io::sigbus`), instead of
//! dying silently of SIGBUS.

#![cfg(unix)]

use std::process::Command;

use bef::format::BefBuffer;
use bef::tool_io::sigbus;

/// Set in the child process, which maps, truncates and reads.
const CHILD: &str = "BEF_SIGBUS_TEST_CHILD";

#[test]
fn a_truncated_mapping_is_reported_and_ends_the_process() {
    if let Ok(path) = std::env::var(CHILD) {
        let path = std::path::PathBuf::from(path);
        let buffer = BefBuffer::map(&path).expect("maps");
        sigbus::report_changed_file(&format!("{} \u{1b}]0;x\u{7}", path.display()));
        sigbus::restore_terminal_with(Some(sigbus::TerminalRestore {
            bytes: b"[restored]",
            attributes: None,
        }));
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_len(0))
            .expect("truncates");
        // Past the new end: SIGBUS, handled by exiting with status 1.
        let byte = std::hint::black_box(buffer.bytes()[200_000]);
        panic!("read {byte} from a truncated mapping without a signal");
    }
    let dir = std::env::temp_dir().join(format!("bef-sigbus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.bef");
    std::fs::write(&path, vec![0u8; 256 * 1024]).unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "a_truncated_mapping_is_reported_and_ends_the_process",
            "--nocapture",
        ])
        .env(CHILD, &path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let expected = format!(
        "[restored]error: {} \\u{{1b}}]0;x\\u{{7}} changed while it was being read",
        path.display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
