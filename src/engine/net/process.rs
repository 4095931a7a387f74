//! State that belongs to one process. PHP-FPM forks its workers after module
//! startup and `pcntl_fork()` copies everything: a child must neither use nor
//! close what its parent still uses, so state inherited through a fork is
//! forgotten (leaked, never dropped) and the child starts afresh.
//!
//! A background thread (the watchdog) touches this state only while it holds
//! `GATE`, which a fork takes first: a fork never copies a lock that a thread
//! of the parent held, since that thread does not exist in the child.

use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

/// Forks seen by this process' lineage: a child's count differs from the one
/// its state was created under. Cheaper than getpid() on every access.
static FORKS: AtomicU64 = AtomicU64::new(0);

static GATE: Mutex<()> = Mutex::new(());

/// The gate, held by the forking thread from before the fork until after it.
struct ForkGuard(UnsafeCell<Option<MutexGuard<'static, ()>>>);
// SAFETY: only the forking thread touches it, between its atfork handlers.
unsafe impl Sync for ForkGuard {}
static FORK_GUARD: ForkGuard = ForkGuard(UnsafeCell::new(None));

extern "C" fn before_fork() {
    let guard = GATE.lock().unwrap_or_else(|p| p.into_inner());
    // SAFETY: see ForkGuard.
    unsafe { *FORK_GUARD.0.get() = Some(guard) };
}

extern "C" fn after_fork_in_parent() {
    // SAFETY: see ForkGuard.
    unsafe { *FORK_GUARD.0.get() = None };
}

extern "C" fn after_fork_in_child() {
    FORKS.fetch_add(1, Ordering::Relaxed);
    after_fork_in_parent();
}

thread_local! {
    static BACKGROUND: Cell<bool> = const { Cell::new(false) };
}

/// Marks the calling thread as a background thread of the extension.
pub fn set_background() {
    BACKGROUND.with(|b| b.set(true));
}

pub fn is_background() -> bool {
    BACKGROUND.with(Cell::get)
}

fn generation() -> u64 {
    static HOOK: Once = Once::new();
    // Registered at first use, never at module startup; state is only created
    // after this, so every later fork is counted.
    // SAFETY: registers handlers that only take and release a lock and touch an atomic.
    HOOK.call_once(|| unsafe {
        libc::pthread_atfork(Some(before_fork), Some(after_fork_in_parent), Some(after_fork_in_child));
    });
    FORKS.load(Ordering::Relaxed)
}

pub struct PerProcess<T> {
    inner: Mutex<Option<(u64, T)>>,
}

impl<T: Default> Default for PerProcess<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Default> PerProcess<T> {
    pub const fn new() -> Self {
        Self { inner: Mutex::new(None) }
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let _gate = is_background().then(|| GATE.lock().unwrap_or_else(|p| p.into_inner()));
        // A panic caught at the PHP boundary may have poisoned the lock; the
        // state itself is still consistent (every update is a single insert/remove).
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let current = generation();
        if guard.as_ref().is_some_and(|(owner, _)| *owner != current) {
            if let Some(inherited) = guard.take() {
                std::mem::forget(inherited);
            }
        }
        let (_, state) = guard.get_or_insert_with(|| (current, T::default()));
        f(state)
    }
}

/// This process' id, asked of the kernel once per process (after a fork, again).
pub fn pid() -> u32 {
    static CACHED: AtomicU64 = AtomicU64::new(u64::MAX);
    let current = generation() & 0xffff_ffff;
    let cached = CACHED.load(Ordering::Relaxed);
    if cached >> 32 == current {
        return cached as u32;
    }
    let pid = std::process::id();
    CACHED.store(current << 32 | u64::from(pid), Ordering::Relaxed);
    pid
}
