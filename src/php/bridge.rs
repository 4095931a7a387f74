//! The one path from RedisMutexLock's calls to the engine's policy: a key's target and node, taking, answers.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::errors::{Fail, Result};
use super::ini;
use crate::engine::net::conn::Limits;
use crate::engine::error;
use crate::engine::policy::{self, Held, Kind, Owner, Replicas, Terms};
use crate::engine::features::lease::Patience;
use crate::engine::round::quorum::Outcome;
use crate::engine::features::queue::Place;
use crate::engine::round::Node;
use crate::engine::net::dsn::Server;

/// Waits beyond this are as good as forever (and keep `Instant` arithmetic in range).
const MAX_WAIT_SECONDS: f64 = 1e9;

/// The shortest interval between a waiter's looks at the queue.
const MIN_CHECK: Duration = Duration::from_millis(10);

/// A call about `key`: its server, the limits in force, its owner (this
/// process) and the prefixed key.
pub fn about<R>(key: &[u8], call: impl FnOnce(&Server, &Limits, Owner, Vec<u8>) -> Result<R>) -> Result<R> {
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    call(server, limits, policy::mutex_owner(server, full_key.clone()), full_key)
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

/// The one node of a RedisMutexLock call.
pub fn node(server: &Server, limits: &Limits) -> Node {
    Node { server: server.clone(), timeout: limits.read, connect: limits.connect }
}

/// This process' lock on the key of `owner`, if it holds one on `server`.
pub fn registered(owner: &Owner, server: &Server) -> Option<Arc<Held>> {
    policy::registered(owner).filter(|lock| lock.nodes.first().is_some_and(|n| n.server == *server))
}

/// This process' hold of the key for `token`, or the lock as anybody
/// knowing the token names it.
pub fn lock_of(token: String, server: &Server, limits: &Limits, mine: &Owner, full_key: Vec<u8>) -> Arc<Held> {
    registered(mine, server)
        .filter(|lock| lock.token == token)
        .unwrap_or_else(|| Arc::new(Held::new(vec![node(server, limits)], full_key, token, Kind::Queued(Place::default()))))
}

/// Takes `lock`: with `timeout` 0, one `SET NX PX` (a call without a
/// timeout never queues); else waiting in the key's queue, looking at it
/// again at least every `check` (at least 10 ms).
pub fn take(owner: Owner, lock: Held, ttl_ms: i64, timeout: f64, check: Duration, terms: Terms, limits: &Limits) -> Outcome {
    if timeout == 0.0 {
        let once = Patience::Attempts { attempts: 1, delay: Duration::ZERO };
        return policy::acquire(owner, lock, ttl_ms, once, terms, limits);
    }
    let deadline = Instant::now() + Duration::from_secs_f64(timeout.min(MAX_WAIT_SECONDS));
    policy::acquire_queued(owner, lock, ttl_ms, deadline, check.max(MIN_CHECK), terms, limits)
}

/// true / false / RedisLockException, from how the round ended.
pub fn answer(outcome: Outcome) -> Result<bool> {
    match outcome {
        Outcome::Confirmed { .. } => Ok(true),
        Outcome::Refused => Ok(false),
        other => Err(failure(other)),
    }
}

/// The RedisLockException of a round that gave no answer.
pub fn failure(outcome: Outcome) -> Fail {
    Fail::Redis(match outcome {
        Outcome::Unreachable(failures) => error::list(&failures),
        Outcome::Interrupted => error::INTERRUPTED.into(),
        _ => "unexpected reply".into(),
    })
}
