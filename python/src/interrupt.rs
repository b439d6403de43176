//! Searches that Ctrl-C interrupts: the search runs on a worker thread with a stop flag
//! the engines poll (`Limits::stop`), while the calling thread waits without the GIL in
//! short slices and, between them, lets Python run its signal handlers. A signal's
//! exception (`KeyboardInterrupt` for SIGINT) raises the stop flag, waits for the search to
//! wind down (it checks the flag every few thousand nodes) and is returned.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::prelude::*;

/// How long the caller waits without the GIL between two signal checks.
const SLICE: Duration = Duration::from_millis(20);

/// Stack of the search thread: as a main thread's, deep searches recurse.
const STACK_BYTES: usize = 16 << 20;

/// Runs `work` (given the stop flag) on a worker thread, the GIL released, returning its
/// result; a Python signal handler's exception (`KeyboardInterrupt`) stops it early and is
/// returned instead. A panic in `work` is resumed here (PyO3 raises `PanicException`).
///
/// # Errors
/// The signal handler's exception; `RuntimeError` if no thread could be started.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        // A receiver is not `Sync`: the lock lets the GIL-free waits borrow it.
        let rx = Mutex::new(rx);
        let flag = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("tessera-search".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, move || {
                // The receiver may be gone only after an interrupt: the result is dropped.
                let _ = tx.send(work(flag));
            })
            .map_err(|e| {
                pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "cannot start a search thread: {e}"
                ))
            })?;
        loop {
            match py.detach(|| {
                rx.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .recv_timeout(SLICE)
            }) {
                Ok(result) => {
                    py.detach(|| handle.join()).ok();
                    return Ok(result);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // The worker panicked: resume its panic on this thread.
                    match py.detach(|| handle.join()) {
                        Err(payload) => std::panic::resume_unwind(payload),
                        Ok(()) => unreachable!("a worker that returned sent its result"),
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        py.detach(|| handle.join()).ok();
                        return Err(e);
                    }
                }
            }
        }
    })
}
