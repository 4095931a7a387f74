//! State that belongs to one process. PHP-FPM forks its workers after module
//! startup and `pcntl_fork()` copies everything: a child must neither use nor
//! close what its parent still uses, so state inherited through a fork is
//! forgotten (leaked, never dropped) and the child starts afresh.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

/// Forks seen by this process' lineage: a child's count differs from the one
/// its state was created under. Cheaper than getpid() on every access.
static FORKS: AtomicU64 = AtomicU64::new(0);

extern "C" fn forked_child() {
    FORKS.fetch_add(1, Ordering::Relaxed);
}

fn generation() -> u64 {
    static HOOK: Once = Once::new();
    // Registered at first use, never at module startup; state is only created
    // after this, so every later fork is counted.
    // SAFETY: registers a handler that only touches an atomic.
    HOOK.call_once(|| unsafe {
        libc::pthread_atfork(None, None, Some(forked_child));
    });
    FORKS.load(Ordering::Relaxed)
}

pub struct PerProcess<T> {
    inner: Mutex<Option<(u64, T)>>,
}

impl<T: Default> PerProcess<T> {
    pub const fn new() -> Self {
        Self { inner: Mutex::new(None) }
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
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
