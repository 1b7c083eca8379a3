//! Nested function calls on one thread.
//!
//! Every kernel that runs a function (`tfrt.call`, `tfrt.if`, loops,
//! `parallel_for`, ...) calls it on its own thread's stack, so a deep but
//! correct recursion would overflow the stack, and the process with it.
//! Each call therefore checks how much stack is left and, when little is,
//! continues on a fresh heap-allocated stack segment; and the number of
//! calls nested on the thread is bounded by
//! [`HostContext::max_call_depth`](crate::runtime::HostContext::max_call_depth),
//! which turns runaway recursion into an error value naming the innermost
//! frames.

use std::cell::RefCell;

use crate::runtime::{Diagnostic, ErrorCode};

/// How many innermost frames the depth error names.
const FRAMES_SHOWN: usize = 5;

thread_local! {
    /// Names of the functions nested on this thread, outermost first. Each
    /// points into a program that the running call keeps alive, and is
    /// popped before that call returns (no allocation per call).
    static FRAMES: RefCell<Vec<*const str>> = const { RefCell::new(Vec::new()) };
}

/// Runs `body` as a call of `function` nested in whatever this thread is
/// running: on a new stack segment if this one runs low, or not at all if
/// it would nest deeper than `max_depth`, in which case the error to report
/// is returned instead.
pub(crate) fn nested_call(
    function: &str,
    max_depth: usize,
    body: impl FnOnce(),
) -> Result<(), Diagnostic> {
    let depth = FRAMES.with(|frames| frames.borrow().len());
    if depth >= max_depth {
        return Err(depth_error(function, max_depth));
    }
    FRAMES.with(|frames| frames.borrow_mut().push(function as *const str));
    // Pops the frame however `body` ends (a kernel panic unwinds through).
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            FRAMES.with(|frames| frames.borrow_mut().pop());
        }
    }
    let _pop = Pop;
    crate::runtime::stack_room::with_stack_room(body);
    Ok(())
}

/// How many calls are nested on this thread (for tests and tools).
pub fn current_depth() -> usize {
    FRAMES.with(|frames| frames.borrow().len())
}

// Out of line: every nested call's stack frame stays small (deep
// recursion costs that frame per level).
#[cold]
#[inline(never)]
fn depth_error(function: &str, max_depth: usize) -> Diagnostic {
    let frames = FRAMES.with(|frames| {
        let frames = frames.borrow();
        let shown: Vec<&str> = frames
            .iter()
            .rev()
            .take(FRAMES_SHOWN)
            // SAFETY: every frame on the list belongs to a call that is
            // still running on this thread (frames are popped when their
            // call ends), whose `Function` keeps the program owning the
            // name alive.
            .map(|&f| unsafe { &*f })
            .collect();
        let more = frames.len() - shown.len();
        let mut text = display_name(function);
        for name in shown {
            text.push_str(" <- ");
            text.push_str(&display_name(name));
        }
        if more > 0 {
            text.push_str(&format!(" <- ... ({more} more)"));
        }
        text
    });
    Diagnostic::new(format!(
        "calling {} would nest more than {max_depth} function calls \
         (runaway recursion?); innermost calls: {frames}",
        display_name(function)
    ))
    .with_code(ErrorCode::ResourceExhausted)
}

/// A function's name quoted, or what an anonymous region body is.
fn display_name(name: &str) -> String {
    if name.is_empty() {
        "a region".to_string()
    } else {
        format!("'{name}'")
    }
}
