//! The one path from RedisMutexLock's calls to the engine's policy: a key's target and node, taking, answers.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::errors::{Fail, Result};
use super::ini;
use crate::engine::policy::{self, failures_text, Failure, Held, Limits, Outcome, Handle, Patience, Replicas, Server, Terms, INTERRUPTED};

/// Waits beyond this are as good as forever (and keep `Instant` arithmetic in range).
const MAX_WAIT_SECONDS: f64 = 1e9;

/// How often a waiter without a `$sleep` of its own (the owner-level calls,
/// the shared locks) looks at the queue again: a release wakes it at once;
/// this bounds what a dead holder or waiter costs.
pub const LOOK_EVERY: Duration = Duration::from_millis(100);

/// The shortest interval between a waiter's looks at the queue.
const MIN_CHECK: Duration = Duration::from_millis(10);

/// A call about `key`: its server, the limits in force, its handle (this
/// process' registry entry for it) and the prefixed key.
pub fn about<R>(key: &[u8], call: impl FnOnce(&Server, &Limits, Handle, Vec<u8>) -> Result<R>) -> Result<R> {
    about_as(policy::mutex_handle, key, call)
}

/// `about`, for the locks whose handles `handle_of` names (the mutex's, the shared locks').
pub fn about_as<R>(handle_of: fn(&Server, Vec<u8>) -> Handle, key: &[u8], call: impl FnOnce(&Server, &Limits, Handle, Vec<u8>) -> Result<R>) -> Result<R> {
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    call(server, limits, handle_of(server, full_key.clone()), full_key)
}

/// When a wait of `timeout` seconds starting now ends (waits beyond
/// `MAX_WAIT_SECONDS` are as good as forever).
fn deadline_after(timeout: f64) -> Instant {
    Instant::now() + Duration::from_secs_f64(timeout.min(MAX_WAIT_SECONDS))
}

/// The server, the limits now in force and the prefixed key.
pub fn target<'s>(settings: &'s ini::Settings, key: &[u8]) -> Result<(&'s Server, &'s Limits, Vec<u8>)> {
    let server = settings.server.as_ref().map_err(|e| Fail::Value(e.clone()))?;
    let limits = settings.limits.as_ref().map_err(|e| Fail::Value(e.clone()))?;
    let mut full_key = Vec::with_capacity(settings.prefix.len() + key.len());
    full_key.extend_from_slice(&settings.prefix);
    full_key.extend_from_slice(key);
    Ok((server, limits, full_key))
}

/// The terms of an acquisition under the settings now in force (see `ini::Settings::terms`).
pub fn terms(renew: Option<bool>) -> Result<Terms> {
    ini::settings().terms(renew)
}

/// Replica acknowledgement under the settings now in force (see `ini::Settings::replicas`).
pub fn replicas() -> Result<Option<Replicas>> {
    ini::settings().replicas()
}

/// A fresh lock token carrying this request's label (`redis_lock.label`, or `RedisLock::setLabel()`).
pub fn token() -> String {
    policy::new_token(&policy::label_or(&ini::settings().label))
}

/// A fresh owner token (`newOwner()`), labelled as `token()`.
pub fn owner_token() -> String {
    policy::new_owner(&policy::label_or(&ini::settings().label))
}

/// The one node of a RedisMutexLock call.
pub use crate::engine::policy::node;

/// This process' hold of the key for `token`, or the lock as anybody
/// knowing the token names it.
pub fn lock_of(token: String, server: &Server, limits: &Limits, mine: &Handle, full_key: Vec<u8>) -> Arc<Held> {
    policy::registered_on(mine, server)
        .filter(|lock| lock.token == token)
        .unwrap_or_else(|| Arc::new(Held::mutex(node(server, limits), full_key, token)))
}

/// Takes `lock` (of any single-server kind): with `timeout` 0, one look
/// (a call without a timeout never queues); else waiting in the key's
/// queue, looking at it again at least every `check` (at least 10 ms).
pub fn take(handle: Handle, lock: Held, ttl_ms: i64, timeout: f64, check: Duration, terms: Terms, limits: &Limits) -> Outcome {
    let patience = if timeout == 0.0 {
        Patience::Attempts { attempts: 1, delay: Duration::ZERO }
    } else {
        Patience::Until { deadline: deadline_after(timeout), pause: check.max(MIN_CHECK) }
    };
    policy::acquire(handle, lock, ttl_ms, patience, terms, limits)
}

/// true / false / RedisLockException, from how the round ended.
pub fn answer(outcome: Outcome) -> Result<bool> {
    match outcome {
        Outcome::Confirmed { .. } => Ok(true),
        Outcome::Refused => Ok(false),
        Outcome::Unreachable(failures) => Err(failure(Failure::Unreachable(failures))),
        Outcome::Interrupted => Err(failure(Failure::Interrupted)),
    }
}

/// The RedisLockException of a call that got no answer.
pub fn failure(why: Failure) -> Fail {
    Fail::Redis(match why {
        Failure::Unreachable(failures) => failures_text(&failures),
        Failure::Interrupted => INTERRUPTED.into(),
        Failure::Unexpected => "unexpected reply".into(),
    })
}
