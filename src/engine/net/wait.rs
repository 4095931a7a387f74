//! Waiting in the kernel against absolute deadlines. A signal (EINTR) only
//! resumes the wait with the time that is left, never a fresh one; when the
//! host (PHP) says its own time limit fired, waiting stops so that it regains
//! control.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The wait was cut short because the host asked for control back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

static CHECK: OnceLock<fn() -> bool> = OnceLock::new();

/// Tells the engine how to ask the host whether it wants control back
/// (set once, by the PHP face: "did max_execution_time fire?").
pub fn set_interrupt_check(check: fn() -> bool) {
    let _ = CHECK.set(check);
}

static QUIET: AtomicBool = AtomicBool::new(false);

/// The host's time limit concerns its own thread only: a background thread
/// (the watchdog) is never cut short by it.
pub fn interrupted() -> bool {
    !QUIET.load(Ordering::Relaxed) && !super::process::is_background() && CHECK.get().is_some_and(|check| check())
}

/// Whether waits may be cut short by the host: not at request end, where
/// the time limit fired already or no longer applies.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// While it lives, waits are not cut short: for the bounded clean-up after
/// an interruption (leaving a queue), which must still reach the server.
pub struct Quiet(bool);

impl Quiet {
    pub fn begin() -> Self {
        Self(QUIET.swap(true, Ordering::Relaxed))
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        QUIET.store(self.0, Ordering::Relaxed);
    }
}

/// poll(2) on `fds` until one is ready, `until` passes (`None`: return at
/// once) or the host wants control. Returns how many fds are ready.
pub fn poll(fds: &mut [libc::pollfd], until: Option<Instant>) -> Result<usize, Interrupted> {
    loop {
        if interrupted() {
            return Err(Interrupted);
        }
        let left = until.map_or(Duration::ZERO, |t| t.saturating_duration_since(Instant::now()));
        let ts = libc::timespec {
            tv_sec: left.as_secs().min(i32::MAX as u64) as libc::time_t,
            tv_nsec: left.subsec_nanos() as libc::c_long,
        };
        // SAFETY: `fds` is a valid array of `fds.len()` pollfd structures and
        // `ts` a valid timespec; no signal mask is changed.
        let n = unsafe { libc::ppoll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, &ts, std::ptr::null()) };
        if n >= 0 {
            return Ok(n as usize);
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            // EINVAL/ENOMEM: nothing can be waited for; report nothing ready.
            return Ok(0);
        }
    }
}

/// Sleeps until `deadline` (signals do not extend it).
pub fn sleep_until(deadline: Instant) -> Result<(), Interrupted> {
    while Instant::now() < deadline {
        poll(&mut [], Some(deadline))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleeps_until_the_deadline_and_no_longer() {
        let start = Instant::now();
        sleep_until(start + Duration::from_millis(20)).unwrap();
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(20) && took < Duration::from_millis(200), "{took:?}");
    }
}
