//! What a fuzz body made of one input: it passed, or it panicked (with
//! the panic's message and place), caught so that a tool can go on to
//! the next input.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

/// The last panic caught on any thread while [`run_caught`] ran: message
/// and `file:line`.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Runs `body` on `data`; `Err` with the panic's message and place when
/// it panicked. The default panic output is silenced meanwhile (a tool
/// reports the message itself); the previous hook comes back afterwards.
pub fn run_caught(body: impl FnOnce(&[u8]), data: &[u8]) -> Result<(), String> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let message = panic_message(info.payload());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let mut last = LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner());
        // The first panic is the cause; one re-raised on the joining
        // thread would only repeat it.
        if last.is_none() {
            *last = Some(format!("{message}{place}"));
        }
    }));
    *LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()) = None;
    let outcome = catch_unwind(AssertUnwindSafe(|| body(data)));
    std::panic::set_hook(previous);
    let recorded = LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()).take();
    outcome.map_err(|payload| recorded.unwrap_or_else(|| panic_message(&*payload)))
}

/// The text of a panic payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}
