//! Request end: locks still held are released (unless
//! `redis_lock.release_on_shutdown` is off), so that a request that died of an
//! exception, `exit()`, a fatal error or its time limit does not block others
//! for a whole TTL. The release runs after every module's request shutdown
//! (post-deactivate): session handlers and destructors that release in
//! `close()` during the session module's shutdown still hold their lock
//! while PHP writes the session.

use std::sync::Mutex;

use super::ini;
use crate::engine::policy::{self, set_quiet, Limits};

/// What request shutdown saw, for post-deactivate (INI is restored and the
/// executor gone by then): whether to release, and with which limits.
static AT_END: Mutex<Option<(bool, Limits)>> = Mutex::new(None);

/// Request shutdown: notes whether, and within which limits, post-deactivate
/// releases what the request still holds.
///
/// # Safety
/// Called only by the PHP engine, as this module's request shutdown hook.
pub unsafe extern "C" fn request_shutdown(_type: i32, _module_number: i32) -> i32 {
    let _ = std::panic::catch_unwind(|| {
        // From here to the next request, waits are no longer cut short by
        // the time limit (it fired already, or no longer applies).
        set_quiet(true);
        // A label set for this request does not name the next one's locks.
        policy::set_label(None);
        let snapshot = (ini::flag(ini::RELEASE_ON_SHUTDOWN), ini::limits().unwrap_or_default());
        *AT_END.lock().unwrap_or_else(|p| p.into_inner()) = Some(snapshot);
    });
    0
}

pub extern "C" fn post_deactivate() -> i32 {
    // Nothing may unwind into the engine from here.
    let _ = std::panic::catch_unwind(|| {
        let snapshot = AT_END.lock().unwrap_or_else(|p| p.into_inner()).take();
        match snapshot {
            Some((true, limits)) => policy::release_all(&limits),
            _ => policy::forget_all(),
        }
    });
    0
}

/// Module shutdown: the renewal thread, if one runs, ends and is joined.
///
/// # Safety
/// Called only by the PHP engine, as this module's shutdown hook.
pub unsafe extern "C" fn module_shutdown(_type: i32, _module_number: i32) -> i32 {
    let _ = std::panic::catch_unwind(policy::shutdown_renewals);
    0
}

pub fn request_started() {
    set_quiet(false);
}
