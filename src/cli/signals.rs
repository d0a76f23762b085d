//! Ctrl-C and `kill`: SIGINT and SIGTERM set a flag that the batch passes
//! to its searches as their cancellation, so a run stops cleanly, writes
//! what finished and prints its summary. A second signal while stopping
//! ends the program at once (with the same exit code).

use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The stop flag and the last signal that set it.
pub(crate) struct Interrupt {
    flag: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Catch SIGINT and SIGTERM from now on. (Where a handler cannot be
    /// installed the signals keep their default action.)
    pub(crate) fn install() -> Interrupt {
        let flag = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        for sig in [SIGINT, SIGTERM] {
            // First: when the flag is already set, a new signal exits at
            // once; then the signal sets the flag.
            let _ =
                signal_hook::flag::register_conditional_shutdown(sig, exit_code(sig), flag.clone());
            let _ = signal_hook::flag::register_usize(sig, signal.clone(), sig as usize);
            let _ = signal_hook::flag::register(sig, flag.clone());
        }
        Interrupt { flag, signal }
    }

    /// The flag a signal sets (the batch also sets it to stop itself).
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    /// The signal that stopped the run, if one did: its name and the exit
    /// code for it (128 + its number, as a shell reports a process killed
    /// by it).
    pub(crate) fn caught(&self) -> Option<(&'static str, i32)> {
        match self.signal.load(Ordering::SeqCst) as i32 {
            0 => None,
            SIGTERM => Some(("SIGTERM", exit_code(SIGTERM))),
            _ => Some(("SIGINT", exit_code(SIGINT))),
        }
    }
}

fn exit_code(sig: i32) -> i32 {
    128 + sig
}
