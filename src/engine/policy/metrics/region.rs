//! Where the counters live: one fixed table of `AtomicU64` per process, and
//! the same table in a shared anonymous mapping made at module startup. The
//! mapping is inherited by every process PHP-FPM forks from its master after
//! that, so each worker adds to the same cells: the pool's sums with atomic
//! adds only, no lock between processes, no APCu, no Redis.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use super::glob::MAX_PATTERNS;

/// The histograms' upper bounds in ms (an overflow bucket follows: +Inf).
pub const BUCKETS_MS: [u64; 12] = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

/// The kinds of lock, as the `kind` label names them.
pub const KINDS: [&str; 4] = ["mutex", "redlock", "read-write", "semaphore"];

/// Why a call failed, as the `error` label names it (one per engine `Cause`).
pub const ERROR_KINDS: [&str; 13] = [
    "connect", "auth", "timeout", "io", "reply", "protocol", "same_server", "interrupted", "unresolved", "redirected",
    "slot_unstable", "replicas", "outlived_by_wait",
];

/// Counters of one series (kind × pattern), by offset.
pub const ACQUIRED: usize = 0;
pub const CONTENDED: usize = 1;
pub const TIMEOUTS: usize = 2;
pub const BUSY: usize = 3;
pub const HANDOFFS: usize = 4;
pub const RENEWALS: usize = 5;
pub const LOST: usize = 6;
pub const ERRORS: usize = 7;
/// A histogram: one count per bucket (not cumulative; the last is +Inf), then the sum in µs.
pub const HIST: usize = BUCKETS_MS.len() + 2;
pub const WAIT: usize = ERRORS + ERROR_KINDS.len();
pub const HOLD: usize = WAIT + HIST;
pub const FIELDS: usize = HOLD + HIST;

/// Pattern slots per kind: the patterns, then "other".
pub const SLOTS: usize = MAX_PATTERNS + 1;
pub const SERIES: usize = KINDS.len() * SLOTS;
pub const CELLS: usize = SERIES * FIELDS;
/// The shared table's size in bytes (26 KiB).
pub const BYTES: usize = CELLS * std::mem::size_of::<AtomicU64>();

/// This process' counts (a forked child starts from zero: `reset_local`).
static LOCAL: [AtomicU64; CELLS] = [const { AtomicU64::new(0) }; CELLS];

/// The pool's counts, once mapped.
static SHARED: OnceLock<&'static [AtomicU64]> = OnceLock::new();

/// Maps the shared table (once; again is a no-op). Called in module startup,
/// before PHP-FPM forks its workers; a process that never calls it (or whose
/// mapping failed) counts for itself only.
pub fn map_shared() -> Result<(), String> {
    if SHARED.get().is_some() {
        return Ok(());
    }
    // A forked child's own counts start at zero (the pool's go on), mapped or not.
    static ATFORK: std::sync::Once = std::sync::Once::new();
    // SAFETY: registers a plain function touching only atomics.
    ATFORK.call_once(|| unsafe {
        libc::pthread_atfork(None, None, Some(reset_local));
    });
    // SAFETY: a fresh anonymous mapping, no file; checked for MAP_FAILED.
    let ptr = unsafe {
        libc::mmap(std::ptr::null_mut(), BYTES, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED | libc::MAP_ANONYMOUS, -1, 0)
    };
    if ptr == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error().to_string());
    }
    // SAFETY: the mapping is zeroed, page-aligned (so aligned for AtomicU64),
    // BYTES long and never unmapped: it lives as long as the process.
    let cells = unsafe { std::slice::from_raw_parts(ptr as *const AtomicU64, CELLS) };
    let _ = SHARED.set(cells);
    Ok(())
}

/// Whether the pool's table is mapped.
#[cfg(test)]
pub fn shared() -> bool {
    SHARED.get().is_some()
}

extern "C" fn reset_local() {
    LOCAL.iter().for_each(|c| c.store(0, Ordering::Relaxed));
}

/// Adds `n` to cell `field` of `series`, in this process' table and the pool's.
#[inline]
pub fn add(series: usize, field: usize, n: u64) {
    let i = series * FIELDS + field;
    if let Some(cell) = LOCAL.get(i) {
        cell.fetch_add(n, Ordering::Relaxed);
    }
    if let Some(cell) = SHARED.get().and_then(|s| s.get(i)) {
        cell.fetch_add(n, Ordering::Relaxed);
    }
}

/// A copy of the pool's table (`pool`; this process' when not mapped) or of this process'.
pub fn read(pool: bool) -> Vec<u64> {
    let cells: &[AtomicU64] = match SHARED.get() {
        Some(shared) if pool => shared,
        _ => &LOCAL,
    };
    cells.iter().map(|c| c.load(Ordering::Relaxed)).collect()
}

/// The bucket of a duration in µs (the last: over the largest bound).
pub fn bucket_of(us: u64) -> usize {
    BUCKETS_MS.iter().position(|&ms| us <= ms * 1000).unwrap_or(BUCKETS_MS.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_fall_in_the_bucket_of_the_first_bound_not_below_them() {
        assert_eq!(bucket_of(0), 0);
        assert_eq!(bucket_of(1000), 0, "le=1ms holds exactly 1 ms");
        assert_eq!(bucket_of(1001), 1);
        assert_eq!(bucket_of(10_000_000), BUCKETS_MS.len() - 1);
        assert_eq!(bucket_of(10_000_001), BUCKETS_MS.len(), "+Inf");
    }

    #[test]
    fn the_shared_table_is_one_fixed_mapping_shared_with_forked_children() {
        map_shared().expect("mmap");
        assert!(shared());
        let before = read(true)[FIELDS * 3 + BUSY];
        // SAFETY: the child only adds to atomics and exits.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            add(3, BUSY, 5);
            unsafe { libc::_exit(0) };
        }
        assert!(pid > 0);
        let mut status = 0;
        // SAFETY: waiting for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert_eq!(read(true)[FIELDS * 3 + BUSY], before + 5, "the child's add is seen by the parent");
    }
}
