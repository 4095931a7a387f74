//! State that belongs to one process. PHP-FPM forks its workers after module
//! startup and `pcntl_fork()` copies everything: a child must neither use nor
//! close what its parent still uses, so state inherited through a fork is
//! forgotten (leaked, never dropped) and the child starts afresh.

use std::sync::Mutex;

pub struct PerProcess<T> {
    inner: Mutex<Option<(u32, T)>>,
}

impl<T: Default> PerProcess<T> {
    pub const fn new() -> Self {
        Self { inner: Mutex::new(None) }
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        // A panic caught at the PHP boundary may have poisoned the lock; the
        // state itself is still consistent (every update is a single insert/remove).
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let pid = std::process::id();
        if guard.as_ref().is_some_and(|(owner, _)| *owner != pid) {
            if let Some(inherited) = guard.take() {
                std::mem::forget(inherited);
            }
        }
        let (_, state) = guard.get_or_insert_with(|| (pid, T::default()));
        f(state)
    }
}
