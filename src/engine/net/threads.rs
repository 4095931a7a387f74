//! The extension's own threads (renewals, name resolution) take no signals.
//! A signal sent to the process goes to any thread that does not block it:
//! were it one of ours, PHP's `pcntl_sigprocmask()` (which masks only PHP's
//! thread) would not hold it back, and a default action such as SIGHUP's
//! would end the whole process from a thread PHP knows nothing of.

use std::io;
use std::thread::{Builder, JoinHandle};

/// `Builder::spawn` with every signal blocked in the new thread from its
/// first instruction: the caller's mask is set to all while it spawns (the
/// new thread inherits it) and put back right after.
pub fn spawn<F, T>(name: &str, f: F) -> io::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    // SAFETY: sigfillset and pthread_sigmask only write the sigset_t values
    // they are given, all of which live on this stack.
    let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
    let mut before: libc::sigset_t = unsafe { std::mem::zeroed() };
    let masked = unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut before) == 0
    };
    let spawned = Builder::new().name(name.into()).spawn(f);
    if masked {
        // SAFETY: as above; `before` is the mask pthread_sigmask returned.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut()) };
    }
    spawned
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signal mask of the calling thread.
    fn mask() -> libc::sigset_t {
        // SAFETY: reads the mask into a local.
        unsafe {
            let mut now: libc::sigset_t = std::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_SETMASK, std::ptr::null(), &mut now);
            now
        }
    }

    fn blocked(set: &libc::sigset_t, sig: i32) -> bool {
        // SAFETY: reads a local set.
        unsafe { libc::sigismember(set, sig) == 1 }
    }

    #[test]
    fn the_new_thread_blocks_every_signal_and_the_caller_keeps_its_mask() {
        let caller_before = mask();
        let theirs = spawn("rl-test", mask).expect("spawn").join().expect("join");
        for sig in [libc::SIGHUP, libc::SIGINT, libc::SIGTERM, libc::SIGUSR1, libc::SIGALRM, libc::SIGPROF, libc::SIGCHLD] {
            assert!(blocked(&theirs, sig), "signal {sig} not blocked in the new thread");
            assert_eq!(blocked(&mask(), sig), blocked(&caller_before, sig), "the caller's mask changed for {sig}");
        }
    }
}
