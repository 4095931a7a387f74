//! `RedisMutexLock`: the static single-server API users already write
//! (`lock($key, $timeout, $lockSecond, $sleep)` / `release($key)`), made safe.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, Zval};

use super::args::{Float, Int, ReqInt, Str};
use super::owned;
use super::errors::{lost, unless_timed_out, Fail, Result};
use super::ini;
use crate::engine::conn::Limits;
use crate::engine::server::Server;
use crate::engine::error;
use crate::engine::held::{self, Held, Inspection, Owner, Terms};
use crate::engine::ownership::Holder;
use crate::engine::lease::{new_token, Outcome, Patience};
use crate::engine::queue::Place;
use crate::engine::round::Node;

/// Largest `$lockSecond` whose milliseconds Redis can still add to its clock.
pub const MAX_LOCK_SECONDS: i64 = i64::MAX / 1000 / 2;
/// Waits beyond this are as good as forever (and keep `Instant` arithmetic in range).
const MAX_WAIT_SECONDS: f64 = 1e9;

#[php_class]
#[php(name = "RedisMutexLock")]
#[php(flags = ext_php_rs::flags::ClassFlags::Final)]
pub struct RedisMutexLock;

#[php_impl]
impl RedisMutexLock {
    /// Takes the lock `lock:{$key}` for `$lockSecond` seconds, waiting up to
    /// `$timeout` seconds (retrying every `$sleep` µs) while others hold it.
    #[php(defaults(timeout = 0.0, lockSecond = 20, sleep = 100000))]
    pub fn lock(key: Str<'_>, timeout: Float<'_>, lockSecond: Int<'_>, sleep: Int<'_>) -> Result<bool> {
        unless_timed_out(lock(key, timeout, lockSecond, sleep))
    }

    /// Releases the lock on `$key` if this process still holds it (one of
    /// several holds, when it was taken again).
    pub fn release(key: Str<'_>) -> Result<bool> {
        unless_timed_out(release(key))
    }

    /// Sets the TTL of our lock on `$key` to `$lockSecond` seconds.
    #[php(defaults(lockSecond = 20))]
    pub fn extend(key: Str<'_>, lockSecond: Int<'_>) -> Result<bool> {
        unless_timed_out(extend(key, lockSecond))
    }

    /// The fencing token of this process' hold on `$key`, or null.
    pub fn fence(key: Str<'_>) -> Result<Option<i64>> {
        unless_timed_out(fence(key))
    }

    /// Holder, TTL, fence and waiters of `$key`, and whether we hold it.
    pub fn inspect(key: Str<'_>) -> Result<Zval> {
        unless_timed_out(inspect(key))
    }

    /// Takes the lock with `$owner` as its token (framework adapters).
    #[php(defaults(timeout = 0.0, renew = None))]
    pub fn acquire(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>, timeout: Float<'_>, renew: Option<bool>) -> Result<bool> {
        unless_timed_out(owned::acquire(key, owner, ttl, timeout, renew))
    }

    /// Releases the lock if `$owner` holds it, from any process.
    pub fn release_owner(key: Str<'_>, owner: Str<'_>) -> Result<bool> {
        unless_timed_out(owned::release(key, owner))
    }

    /// Sets the TTL (ms) of the lock if `$owner` holds it.
    pub fn extend_owner(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>) -> Result<bool> {
        unless_timed_out(owned::extend(key, owner, ttl))
    }

    /// The token of whoever holds `$key`, or null.
    pub fn owner(key: Str<'_>) -> Result<Zval> {
        unless_timed_out(owned::owner(key))
    }

    /// Releases the lock whoever holds it.
    pub fn force_release(key: Str<'_>) -> Result<bool> {
        unless_timed_out(owned::force_release(key))
    }

    /// A fresh owner token, as lock() makes them.
    pub fn new_owner() -> String {
        new_token()
    }
}

fn lock(key: Str<'_>, timeout: Float<'_>, lock_second: Int<'_>, sleep: Int<'_>) -> Result<bool> {
    let key = key.get(1)?;
    let timeout = timeout.get(2)?;
    let lock_second = lock_second.get(3)?;
    let sleep = sleep.get(4)?;
    let key = non_empty(key)?;
    check_timeout(2, timeout)?;
    if !(1..=MAX_LOCK_SECONDS).contains(&lock_second) {
        return Err(Fail::Arg(3, format!("must be between 1 and {MAX_LOCK_SECONDS}")));
    }
    if sleep < 0 {
        return Err(Fail::Arg(4, "must be greater than or equal to 0".into()));
    }
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    let terms = settings.terms(None)?;
    let owner = held::mutex_owner(server, full_key.clone());
    let ttl_ms = lock_second * 1000;
    if settings.reentrant {
        // (A lock taken for an owner token of the caller's is that owner's, not the process'.)
        if let Some(mine) = registered(&owner, server).filter(|lock| !lock.outlives_request) {
            // Ours still: one more hold. No longer ours: acquired afresh below.
            match held::reenter(&owner, &mine, ttl_ms, limits) {
                Outcome::Refused => {}
                other => return answer(other),
            }
        }
    }
    let lock = Held::new(vec![node(server, limits)], full_key, new_token(), Some(Place::default()));
    answer(take(owner, lock, ttl_ms, timeout, Duration::from_micros(sleep as u64), terms, limits))
}

/// Takes `lock`: with `timeout` 0, one `SET NX PX` (a call without a
/// timeout never queues); else waiting in the key's queue, looking at it
/// again at least every `check` (at least 10 ms).
pub fn take(owner: Owner, lock: Held, ttl_ms: i64, timeout: f64, check: Duration, terms: Terms, limits: &Limits) -> Outcome {
    if timeout == 0.0 {
        let once = Patience::Attempts { attempts: 1, delay: Duration::ZERO };
        return held::acquire(owner, lock, ttl_ms, once, terms, limits);
    }
    let deadline = Instant::now() + Duration::from_secs_f64(timeout.min(MAX_WAIT_SECONDS));
    held::acquire_queued(owner, lock, ttl_ms, deadline, check.max(MIN_CHECK), terms, limits)
}

/// The one node of a RedisMutexLock call.
pub fn node(server: &Server, limits: &Limits) -> Node {
    Node { server: server.clone(), timeout: limits.read, connect: limits.connect }
}

/// This process' lock on the key of `owner`, if it holds one on `server`.
pub fn registered(owner: &Owner, server: &Server) -> Option<Arc<Held>> {
    held::registered(owner).filter(|lock| lock.nodes.first().is_some_and(|n| n.server == *server))
}

/// The shortest interval between a waiter's looks at the queue.
const MIN_CHECK: Duration = Duration::from_millis(10);

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

/// A call about `key`: its server, the limits in force, its owner (this
/// process) and the prefixed key.
pub fn about<R>(key: &[u8], call: impl FnOnce(&Server, &Limits, Owner, Vec<u8>) -> Result<R>) -> Result<R> {
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    call(server, limits, held::mutex_owner(server, full_key.clone()), full_key)
}

/// A `$timeout` in seconds: finite and not negative.
pub fn check_timeout(num: u32, timeout: f64) -> Result<()> {
    if !timeout.is_finite() {
        return Err(Fail::Arg(num, "must be a finite number".into()));
    }
    if timeout < 0.0 {
        return Err(Fail::Arg(num, "must be greater than or equal to 0".into()));
    }
    Ok(())
}

pub fn non_empty(key: &[u8]) -> Result<&[u8]> {
    if key.is_empty() {
        return Err(Fail::Arg(1, "must not be empty".into()));
    }
    Ok(key)
}

fn release(key: Str<'_>) -> Result<bool> {
    let key = non_empty(key.get(1)?)?;
    about(key, |server, limits, owner, _| match registered(&owner, server) {
        // On an outage it stays registered: a later release() or the request's end tries again.
        Some(lock) => answer(held::release(&owner, &lock, limits).map_err(|why| lost("RedisMutexLock::release", key, &why))?),
        None => Ok(false),
    })
}

fn extend(key: Str<'_>, lock_second: Int<'_>) -> Result<bool> {
    let (key, lock_second) = (key.get(1)?, lock_second.get(2)?);
    let key = non_empty(key)?;
    if !(1..=MAX_LOCK_SECONDS).contains(&lock_second) {
        return Err(Fail::Arg(2, format!("must be between 1 and {MAX_LOCK_SECONDS}")));
    }
    let replicas = ini::settings().replicas()?;
    about(key, |server, limits, owner, _| match registered(&owner, server) {
        Some(lock) => {
            let extended = held::extend(&owner, &lock, lock_second * 1000, replicas, limits);
            answer(extended.map_err(|why| lost("RedisMutexLock::extend", key, &why))?)
        }
        None => Ok(false),
    })
}

fn fence(key: Str<'_>) -> Result<Option<i64>> {
    let key = non_empty(key.get(1)?)?;
    let replicas = ini::settings().replicas()?;
    about(key, |server, limits, owner, _| match registered(&owner, server) {
        Some(_) => held::fence(&owner, replicas, limits).map_err(failure),
        None => Ok(None),
    })
}

fn inspect(key: Str<'_>) -> Result<Zval> {
    let key = non_empty(key.get(1)?)?;
    about(key, |server, limits, owner, full_key| {
        inspection_array(&held::inspect(&owner, &node(server, limits), &full_key, limits).map_err(failure)?)
    })
}

/// `inspect()`'s array.
fn inspection_array(i: &Inspection) -> Result<Zval> {
    let holder = match &i.seen.value {
        None => Zval::new(),
        Some(value) => {
            let who = Holder::of(value);
            let mut holder = ZendHashTable::new();
            let filled = holder
                .insert("host", who.host)
                .and_then(|()| holder.insert("pid", who.pid))
                .and_then(|()| holder.insert("since", who.since_ms.map(|ms| ms as f64 / 1000.0)));
            filled.map_err(|e| Fail::Value(format!("cannot build the holder array: {e}")))?;
            let mut zval = Zval::new();
            zval.set_hashtable(holder);
            zval
        }
    };
    let mut array = ZendHashTable::new();
    let filled = array
        .insert("held", i.held)
        .and_then(|()| array.insert("count", i64::from(i.count)))
        .and_then(|()| array.insert("lost", i.lost))
        .and_then(|()| array.insert("holder", holder))
        .and_then(|()| array.insert("ttl", i.seen.ttl_ms))
        .and_then(|()| array.insert("fence", i.seen.fence))
        .and_then(|()| array.insert("waiters", i.seen.waiters));
    filled.map_err(|e| Fail::Value(format!("cannot build the inspection array: {e}")))?;
    let mut zval = Zval::new();
    zval.set_hashtable(array);
    Ok(zval)
}

/// The server, the limits now in force and the prefixed key.
fn target<'s>(settings: &'s ini::Settings, key: &[u8]) -> Result<(&'s Server, &'s Limits, Vec<u8>)> {
    let server = settings.server.as_ref().map_err(|e| Fail::Value(e.clone()))?;
    let limits = settings.limits.as_ref().map_err(|e| Fail::Value(e.clone()))?;
    let mut full_key = Vec::with_capacity(settings.prefix.len() + key.len());
    full_key.extend_from_slice(&settings.prefix);
    full_key.extend_from_slice(key);
    Ok((server, limits, full_key))
}
