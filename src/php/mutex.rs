//! `RedisMutexLock`: the static single-server API users already write
//! (`lock($key, $timeout, $lockSecond, $sleep)` / `release($key)`), made safe.

use std::time::{Duration, Instant};

use ext_php_rs::prelude::*;

use super::args::{Float, Int, Str};
use super::errors::{Fail, Result};
use super::ini;
use crate::engine::conn::Limits;
use crate::engine::server::Server;
use crate::engine::error;
use crate::engine::held::{self, Held};
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
        lock(key, timeout, lockSecond, sleep)
    }

    /// Releases the lock on `$key` if this process still holds it.
    pub fn release(key: Str<'_>) -> Result<bool> {
        release(key)
    }
}

fn lock(key: Str<'_>, timeout: Float<'_>, lock_second: Int<'_>, sleep: Int<'_>) -> Result<bool> {
    let key = key.get(1)?;
    let timeout = timeout.get(2)?;
    let lock_second = lock_second.get(3)?;
    let sleep = sleep.get(4)?;
    if key.is_empty() {
        return Err(Fail::Arg(1, "must not be empty".into()));
    }
    if !timeout.is_finite() {
        return Err(Fail::Arg(2, "must be a finite number".into()));
    }
    if timeout < 0.0 {
        return Err(Fail::Arg(2, "must be greater than or equal to 0".into()));
    }
    if !(1..=MAX_LOCK_SECONDS).contains(&lock_second) {
        return Err(Fail::Arg(3, format!("must be between 1 and {MAX_LOCK_SECONDS}")));
    }
    if sleep < 0 {
        return Err(Fail::Arg(4, "must be greater than or equal to 0".into()));
    }
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    let owner = held::mutex_owner(server, full_key.clone());
    let nodes = vec![Node { server: server.clone(), timeout: limits.read, connect: limits.connect }];
    let lock = Held { nodes, key: full_key, token: new_token(), expires: Instant::now(), place: Some(Place::default()) };
    let ttl_ms = lock_second * 1000;
    if timeout == 0.0 {
        // One SET NX PX: a call without a timeout never queues.
        let once = Patience::Attempts { attempts: 1, delay: Duration::ZERO };
        return answer(held::acquire(owner, lock, ttl_ms, once, limits));
    }
    // Waits in the key's queue; $sleep is the longest a waiter goes without
    // looking at the queue again (at least 10 ms).
    let deadline = Instant::now() + Duration::from_secs_f64(timeout.min(MAX_WAIT_SECONDS));
    let check = Duration::from_micros(sleep as u64).max(MIN_CHECK);
    answer(held::acquire_queued(owner, lock, ttl_ms, deadline, check, limits))
}

/// The shortest interval between a waiter's looks at the queue.
const MIN_CHECK: Duration = Duration::from_millis(10);

/// true / false / RedisLockException, from how the round ended.
fn answer(outcome: Outcome) -> Result<bool> {
    match outcome {
        Outcome::Confirmed { .. } => Ok(true),
        Outcome::Refused => Ok(false),
        Outcome::Unreachable(failures) => Err(Fail::Redis(error::list(&failures))),
        Outcome::Interrupted => Err(Fail::Redis(error::INTERRUPTED.into())),
    }
}

fn release(key: Str<'_>) -> Result<bool> {
    let key = key.get(1)?;
    if key.is_empty() {
        return Err(Fail::Arg(1, "must not be empty".into()));
    }
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    let owner = held::mutex_owner(server, full_key);
    match held::registered(&owner).filter(|lock| lock.nodes.first().is_some_and(|n| n.server == *server)) {
        // On an outage it stays registered: a later release() or the request's end tries again.
        Some(lock) => answer(held::release(&owner, &lock, limits)),
        None => Ok(false),
    }
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
