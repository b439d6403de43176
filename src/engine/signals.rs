//! Signals: every external engine tessera started ends with it (the process's signal
//! handling, for a program that runs engines: the `tessera` command line installs it).
//!
//! [`install`] (once, before any work starts) takes `SIGINT`, `SIGTERM` and `SIGHUP` on a
//! thread of their own. `SIGTERM` and `SIGHUP` kill the process group of every external
//! engine running (the program and whatever it started) and then end tessera as the signal
//! would have. `SIGINT` does the same, except while a command has asked for a graceful
//! interrupt ([`graceful_interrupt`], tournaments): the first then only raises the flag (the
//! games in progress finish and are saved) and the second ends everything at once.
//!
//! `SIGKILL` cannot be caught: after `kill -9` the engines' process groups keep running
//! (each engine leads its own group, so `kill -9 -- -PGID` ends one; running tessera under
//! `setsid` and killing its session ends them all).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Held for good by the signal thread once it ends tessera; [`settle`] waits on it, so a
/// command that fails because its engines were just killed does not exit (and report that)
/// before the signal ends the process.
static STOPPING: Mutex<()> = Mutex::new(());

/// Returns at once, unless a signal is ending tessera: then never (the process ends on the
/// signal). Called before a command's result is reported.
pub fn settle() {
    drop(
        STOPPING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
}

/// The flag of the command that asked for a graceful first `SIGINT`, if one did.
static GRACEFUL: Mutex<Option<Arc<AtomicBool>>> = Mutex::new(None);

/// Starts the signal thread (see the module documentation).
pub fn install() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            Ok(s) => s,
            Err(e) => {
                eprintln!(
                    "warning: cannot catch signals ({e}); external engines may outlive an interrupt"
                );
                return;
            }
        };
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for sig in signals.forever() {
                    if sig == SIGINT && first_interrupt() {
                        continue;
                    }
                    std::mem::forget(
                        STOPPING
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner),
                    );
                    super::external::end_all_and_hold();
                    // Ends the process as the signal's default action would (so the
                    // parent sees "killed by SIGTERM"); exit codes 128 + N otherwise.
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    std::process::exit(128 + sig);
                }
            });
        if let Err(e) = spawned {
            eprintln!("warning: cannot start the signal thread ({e})");
        }
    }
}

/// Raises the graceful flag if a command registered one and it is not raised yet.
fn first_interrupt() -> bool {
    let flag = GRACEFUL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    match flag {
        Some(f) if !f.swap(true, Ordering::SeqCst) => {
            eprintln!("\ninterrupted: finishing the games in progress (Ctrl-C again to quit now)");
            true
        }
        _ => false,
    }
}

/// A flag raised by the first `SIGINT` (Ctrl-C): the caller then starts no new game and
/// lets the games in progress finish. A second `SIGINT`, or `SIGTERM` / `SIGHUP` at any
/// time, kills every external engine and ends tessera at once (finished games are already
/// on disk).
pub fn graceful_interrupt() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    *GRACEFUL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::clone(&flag));
    flag
}
