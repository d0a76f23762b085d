//! The stack a solver's searches run on: a thread of the solver's own,
//! with a large stack, started on its first search and kept for its life.
//!
//! A df-pn search recurses once per ply, so a long problem needs far more
//! stack than a caller's thread has; starting a thread with a large stack
//! for every solve cost about 0.1 ms (the time of a whole 3-ply solve), so
//! the thread stays and takes one job after another. A job's panic is
//! caught on the search thread and resumed on the caller's.
//!
//! Handing a job to another thread and waiting still costs a wake-up and
//! a switch each way (about 50 µs on the project's machine), so threads
//! the crate starts itself with a stack as large (the batch workers) are
//! marked, and searches run on them directly.

use std::cell::Cell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::thread::JoinHandle;

/// The stack searches run on. A df-pn frame takes a few hundred bytes and
/// the deepest line is capped (`dfpn::MAX_PLY`), so this is ample; the
/// memory is only reserved, and touched as deep as the search goes.
pub(crate) const SEARCH_STACK_BYTES: usize = 256 << 20;

thread_local! {
    static MARKED: Cell<bool> = const { Cell::new(false) };
}

/// Mark the current thread as one whose stack has at least
/// `SEARCH_STACK_BYTES`: searches started on it run on it. Only for
/// threads the crate starts with such a stack.
pub(crate) fn mark_search_stack() {
    MARKED.with(|m| m.set(true));
}

/// Whether the current thread was marked by [`mark_search_stack`].
pub(crate) fn on_search_stack() -> bool {
    MARKED.with(|m| m.get())
}

type Job = Box<dyn FnOnce() + Send>;

/// A long-lived thread with a large stack that runs jobs one at a time.
pub(crate) struct SearchStack {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl SearchStack {
    /// Start the thread. `None` when no thread can be had.
    pub(crate) fn start() -> Option<SearchStack> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("tsume-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                mark_search_stack();
                for job in inbox {
                    job();
                }
            })
            .ok()?;
        Some(SearchStack {
            jobs: Some(jobs),
            thread: Some(thread),
        })
    }

    /// Run `job` on the thread and wait for its result; a panic in it is
    /// resumed here. `None` when the thread is gone (it never ends while
    /// the stack lives, but then the caller runs the job itself).
    pub(crate) fn run<R: Send + 'static>(
        &self,
        job: impl FnOnce() -> R + Send + 'static,
    ) -> Option<R> {
        let (done, result) = mpsc::sync_channel(1);
        let job: Job = Box::new(move || {
            let _ = done.send(catch_unwind(AssertUnwindSafe(job)));
        });
        self.jobs.as_ref()?.send(job).ok()?;
        match result.recv().ok()? {
            Ok(r) => Some(r),
            Err(panic) => resume_unwind(panic),
        }
    }
}

impl Drop for SearchStack {
    fn drop(&mut self) {
        // closing the channel ends the thread's loop
        drop(self.jobs.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_run_one_after_another_on_one_marked_thread() {
        assert!(!on_search_stack());
        let stack = SearchStack::start().expect("a thread");
        let first = stack.run(|| (std::thread::current().id(), on_search_stack()));
        let second = stack.run(|| std::thread::current().id());
        let (id, marked) = first.expect("ran");
        assert!(marked);
        assert_eq!(Some(id), second);
        assert_ne!(id, std::thread::current().id());
    }

    #[test]
    fn a_panic_comes_back_to_the_caller_and_the_thread_stays() {
        let stack = SearchStack::start().expect("a thread");
        let caught = catch_unwind(AssertUnwindSafe(|| stack.run(|| panic!("deep"))));
        let msg = caught.expect_err("resumed").downcast::<&str>().ok();
        assert_eq!(msg.as_deref(), Some(&"deep"));
        assert_eq!(stack.run(|| 7), Some(7));
    }
}
