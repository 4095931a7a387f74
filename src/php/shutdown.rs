//! Request shutdown: locks still held are released (unless
//! `redis_lock.release_on_shutdown` is off), so that a request that died of an
//! exception, `exit()` or a fatal error does not block others for a whole TTL.

use super::ini;
use crate::engine::held;
use crate::engine::lease::Lease;

pub unsafe extern "C" fn request_shutdown(_type: i32, _module_number: i32) -> i32 {
    // Nothing may unwind into the engine from here.
    let _ = std::panic::catch_unwind(|| {
        let locks = held::take_all();
        if locks.is_empty() || !ini::flag(ini::RELEASE_ON_SHUTDOWN) {
            return;
        }
        let limits = ini::limits().unwrap_or_default();
        for lock in &locks {
            Lease { nodes: &lock.nodes, key: &lock.key, token: &lock.token }.release(&limits);
        }
    });
    0
}
