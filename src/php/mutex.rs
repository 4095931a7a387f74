//! `RedisMutexLock`: the static single-server API users already write
//! (`lock($key, $timeout, $lockSecond, $sleep)` / `release($key)`), made safe.

use std::time::Duration;

use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, Zval};

use super::args::{Float, Int, ReqInt, Str};
use super::bridge::{about, answer, failure, node, take, target};
use super::checks::{check_lock_seconds, check_timeout, check_key, not_negative};
use super::errors::{lost, unless_timed_out, Fail, Result};
use super::ini;
use super::owned;
use crate::engine::policy::{self, held_here, Held, Holder, Inspection, Outcome};

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
        unless_timed_out(acquire(key, owner, ttl, timeout, renew))
    }

    /// Releases the lock if `$owner` holds it, from any process.
    pub fn release_owner(key: Str<'_>, owner: Str<'_>) -> Result<bool> {
        unless_timed_out(release_owner(key, owner))
    }

    /// Sets the TTL (ms) of the lock if `$owner` holds it.
    pub fn extend_owner(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>) -> Result<bool> {
        unless_timed_out(extend_owner(key, owner, ttl))
    }

    /// The token of whoever holds `$key`, or null.
    pub fn owner(key: Str<'_>) -> Result<Zval> {
        unless_timed_out(key.get(1).and_then(owned::owner))
    }

    /// Releases the lock whoever holds it.
    pub fn force_release(key: Str<'_>) -> Result<bool> {
        unless_timed_out(key.get(1).and_then(owned::force_release))
    }

    /// A fresh owner token, as lock() makes them.
    pub fn new_owner() -> String {
        super::bridge::owner_token()
    }
}

fn lock(key: Str<'_>, timeout: Float<'_>, lock_second: Int<'_>, sleep: Int<'_>) -> Result<bool> {
    let key = key.get(1)?;
    let timeout = timeout.get(2)?;
    let lock_second = lock_second.get(3)?;
    let sleep = sleep.get(4)?;
    let key = check_key(key)?;
    check_timeout(2, timeout)?;
    check_lock_seconds(3, lock_second)?;
    not_negative(4, sleep)?;
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    let terms = settings.terms(None)?;
    let handle = policy::mutex_handle(server, full_key.clone());
    let ttl_ms = lock_second * 1000;
    if settings.reentrant {
        if let Some(mine) = held_here(&handle, server) {
            // Ours still: one more hold. No longer ours: acquired afresh below.
            match policy::reenter(&handle, &mine, ttl_ms, limits) {
                Outcome::Refused => {}
                other => return answer(other),
            }
        }
    }
    let lock = Held::mutex(node(server, limits), full_key, super::bridge::token());
    answer(take(handle, lock, ttl_ms, timeout, Duration::from_micros(sleep as u64), terms, limits))
}

/// `acquire()`'s arguments, converted in order, for `owned::acquire`.
fn acquire(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>, timeout: Float<'_>, renew: Option<bool>) -> Result<bool> {
    owned::acquire(key.get(1)?, owner.get(2)?, ttl.get(3)?, timeout.get(4)?, renew)
}

/// `releaseOwner()`'s arguments, converted in order, for `owned::release`.
fn release_owner(key: Str<'_>, owner: Str<'_>) -> Result<bool> {
    owned::release(key.get(1)?, owner.get(2)?)
}

/// `extendOwner()`'s arguments, converted in order, for `owned::extend`.
fn extend_owner(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>) -> Result<bool> {
    owned::extend(key.get(1)?, owner.get(2)?, ttl.get(3)?)
}

fn release(key: Str<'_>) -> Result<bool> {
    let key = check_key(key.get(1)?)?;
    about(key, |server, limits, handle, _| match held_here(&handle, server) {
        // On an outage it stays registered: a later release() or the request's end tries again.
        Some(lock) => answer(policy::release(&handle, &lock, limits).map_err(|why| lost("RedisMutexLock::release", key, &why))?),
        None => Ok(false),
    })
}

fn extend(key: Str<'_>, lock_second: Int<'_>) -> Result<bool> {
    let (key, lock_second) = (key.get(1)?, lock_second.get(2)?);
    let key = check_key(key)?;
    check_lock_seconds(2, lock_second)?;
    let replicas = ini::settings().replicas()?;
    about(key, |server, limits, handle, _| match held_here(&handle, server) {
        Some(lock) => {
            let extended = policy::extend(&handle, &lock, lock_second * 1000, replicas, limits);
            answer(extended.map_err(|why| lost("RedisMutexLock::extend", key, &why))?)
        }
        None => Ok(false),
    })
}

fn fence(key: Str<'_>) -> Result<Option<i64>> {
    let key = check_key(key.get(1)?)?;
    let replicas = ini::settings().replicas()?;
    // An owner token's lock is the owner's, as for release() and inspect().
    about(key, |server, limits, handle, _| match held_here(&handle, server) {
        Some(_) => policy::fence(&handle, replicas, limits).map_err(failure),
        None => Ok(None),
    })
}

fn inspect(key: Str<'_>) -> Result<Zval> {
    let key = check_key(key.get(1)?)?;
    about(key, |server, limits, handle, full_key| {
        inspection_array(&policy::inspect(&handle, &node(server, limits), &full_key, limits).map_err(failure)?)
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
