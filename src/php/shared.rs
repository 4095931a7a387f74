//! The one path from RedisReadWriteLock's and RedisSemaphore's calls to the
//! policy: taking a hold (afresh, again, or in another mode), releasing,
//! extending, looking. Both classes go through here; neither decides alone.

use ext_php_rs::types::{ZendHashTable, Zval};

use super::args::{Int, ReqInt, Str};
use super::bridge::{about_as, answer, failure, node, take as take_lock, target, LOOK_EVERY};
use super::checks::{check_lock_seconds, check_ttl, check_key, owner_token};
use super::errors::{lost, Fail, Result};
use super::ini;
use crate::engine::policy::{self, held_here, Claim, Held, Holder, Holds, Limits, Mode, Outcome, Handle, Server, Terms};

/// A call about the shared lock `key`: its server, limits, handle (this
/// process' registry entry for it) and prefixed key.
fn about<R>(key: &[u8], call: impl FnOnce(&Server, &Limits, Handle, Vec<u8>) -> Result<R>) -> Result<R> {
    about_as(policy::shared_handle, key, call)
}


/// This process' hold of `key` in `claim`'s mode, for `ttl_ms`: taken again
/// (re-entry), changed from the other mode, or taken afresh, waiting up to
/// `timeout` seconds.
pub fn take(key: &[u8], claim: Claim, timeout: f64, ttl_ms: i64) -> Result<bool> {
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    let terms = settings.terms(None)?;
    let handle = policy::shared_handle(server, full_key.clone());
    if let Some(mine) = held_here(&handle, server) {
        if let Some(held) = mine.claim() {
            if held.mode == claim.mode {
                if !settings.reentrant {
                    return Ok(false);
                }
                // Ours still: one more hold. No longer ours: taken afresh below.
                match policy::reenter(&handle, &mine, ttl_ms, limits) {
                    Outcome::Refused => {}
                    other => return answer(other),
                }
            } else {
                match policy::change_mode(&handle, &mine, claim, ttl_ms, limits) {
                    // Gone meanwhile (forgotten): taken afresh below.
                    Outcome::Refused if policy::registered_on(&handle, server).is_none() => {}
                    other => return answer(other),
                }
            }
        }
    }
    let lock = Held::shared(node(server, limits), full_key, super::bridge::token(), claim);
    answer(take_lock(handle, lock, ttl_ms, timeout, LOOK_EVERY, terms, limits))
}

/// Releases this process' hold of `key` (one of several, after re-entry).
pub fn release(method: &str, key: &[u8]) -> Result<bool> {
    about(key, |server, limits, handle, _| match held_here(&handle, server) {
        Some(lock) => answer(policy::release(&handle, &lock, limits).map_err(|why| lost(method, key, &why))?),
        None => Ok(false),
    })
}

/// `extend($key, $lockSecond)` of either class: sets the lease of this
/// process' hold.
pub fn extend_call(method: &str, key: Str<'_>, lock_second: Int<'_>) -> Result<bool> {
    let (key, lock_second) = (key.get(1)?, lock_second.get(2)?);
    let key = check_key(key)?;
    check_lock_seconds(2, lock_second)?;
    extend(method, key, lock_second * 1000)
}

/// A key and an owner token (arguments #1 and #2 of the owner-level calls).
pub fn owner_args<'a>(key: Str<'a>, owner: Str<'a>) -> Result<(&'a [u8], String)> {
    let (key, owner) = (key.get(1)?, owner.get(2)?);
    Ok((check_key(key)?, owner_token(2, owner)?))
}

/// `extendOwner($key, $owner, $ttl)` of either class.
pub fn extend_owner_call(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>) -> Result<bool> {
    let (key, token) = owner_args(key, owner)?;
    let ttl = ttl.get(3)?;
    check_ttl(3, ttl)?;
    extend_owned(key, token, ttl)
}

/// Sets the lease of this process' hold of `key` to `ttl_ms`.
fn extend(method: &str, key: &[u8], ttl_ms: i64) -> Result<bool> {
    let replicas = ini::settings().replicas()?;
    about(key, |server, limits, handle, _| match held_here(&handle, server) {
        Some(lock) => answer(policy::extend(&handle, &lock, ttl_ms, replicas, limits).map_err(|why| lost(method, key, &why))?),
        None => Ok(false),
    })
}

/// A hold for the caller's `token` (adapters): lives until released or
/// expired; a hold of the same token in another mode is changed.
pub fn acquire_owned(key: &[u8], token: String, claim: Claim, ttl_ms: i64, timeout: f64) -> Result<bool> {
    about(key, |server, limits, mine, full_key| {
        let lock = Held::shared(node(server, limits), full_key, token, claim).for_owner();
        answer(take_lock(mine, lock, ttl_ms, timeout, LOOK_EVERY, Terms::default(), limits))
    })
}

/// The hold of the caller's `token`, as anybody knowing it names it.
fn owned(token: String, server: &Server, limits: &Limits, full_key: Vec<u8>) -> Held {
    Held::shared(node(server, limits), full_key, token, Claim::READ).for_owner()
}

pub fn release_owned(key: &[u8], token: String) -> Result<bool> {
    about(key, |server, limits, mine, full_key| {
        let lock = owned(token, server, limits, full_key);
        answer(policy::release(&mine, &lock, limits).unwrap_or(Outcome::Refused))
    })
}

fn extend_owned(key: &[u8], token: String, ttl_ms: i64) -> Result<bool> {
    let replicas = ini::settings().replicas()?;
    about(key, |server, limits, mine, full_key| {
        let lock = owned(token, server, limits, full_key);
        answer(policy::extend(&mine, &lock, ttl_ms, replicas, limits).unwrap_or(Outcome::Refused))
    })
}

/// The live holds of `key`, and this process' own hold of it.
fn look(key: &[u8]) -> Result<(Holds, Option<std::sync::Arc<Held>>)> {
    about(key, |server, limits, handle, full_key| {
        let holds = policy::inspect_shared(&node(server, limits), &full_key, limits).map_err(failure)?;
        Ok((holds, held_here(&handle, server)))
    })
}

/// The mode `token` holds `key` in, if any.
pub fn mode_of(key: &[u8], token: &str) -> Result<Option<Mode>> {
    let (holds, _) = look(key)?;
    Ok(holds.holds.iter().find(|h| h.token == token.as_bytes()).map(|h| h.mode))
}

/// `inspect()`'s array for either class: the common fields, then `more`
/// (the class' own, from the live holds).
/// `more` gets the mode of this process' live hold, if any.
pub fn inspection(key: &[u8], more: impl FnOnce(&Holds, Option<Mode>, &mut ZendHashTable) -> Result<()>) -> Result<Zval> {
    let (holds, mine) = look(key)?;
    let lost = mine.as_ref().is_some_and(|h| h.is_lost());
    let ours = mine.as_ref().filter(|_| !lost).and_then(|h| holds.holds.iter().find(|x| x.token == h.token.as_bytes()));
    let mut array = ZendHashTable::new();
    let mut list = ZendHashTable::new();
    for hold in &holds.holds {
        let who = Holder::of(&hold.token);
        let mut entry = ZendHashTable::new();
        if hold.mode != Mode::Permit {
            entry.insert("mode", mode_name(hold.mode)).map_err(built)?;
        }
        entry.insert("host", who.host).map_err(built)?;
        entry.insert("pid", who.pid).map_err(built)?;
        entry.insert("since", who.since_ms.map(|ms| ms as f64 / 1000.0)).map_err(built)?;
        entry.insert("ttl", hold.ttl_ms).map_err(built)?;
        if hold.mode == Mode::Permit {
            entry.insert("limit", i64::from(hold.limit)).map_err(built)?;
            entry.insert("weight", i64::from(hold.weight)).map_err(built)?;
        }
        list.push(entry).map_err(built)?;
    }
    array.insert("held", ours.is_some()).map_err(built)?;
    array.insert("count", mine.as_ref().map_or(0, |h| i64::from(h.count))).map_err(built)?;
    array.insert("lost", lost).map_err(built)?;
    more(&holds, ours.map(|h| h.mode), &mut array)?;
    array.insert("holders", list).map_err(built)?;
    array.insert("waiters", holds.waiters).map_err(built)?;
    let mut zval = Zval::new();
    zval.set_hashtable(array);
    Ok(zval)
}

pub fn mode_name(mode: Mode) -> &'static str {
    mode.name()
}

pub fn built(e: impl std::fmt::Display) -> Fail {
    Fail::Value(format!("cannot build the inspection array: {e}"))
}
