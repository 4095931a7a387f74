//! `RedisLock::locks()`, `describe()`, `evict()`, `setLabel()`: what an
//! operator or a framework's console sees of the locks, as PHP arrays.

use ext_php_rs::boxed::ZBox;
use ext_php_rs::types::{ZendHashTable, Zval};

use super::bridge::{failure, node, target};
use super::checks::{check_key, owner_token};
use super::errors::{Fail, Result};
use super::ini;
use crate::engine::policy::{self, ListedHolder, LockInfo, Waiter};

/// At most this many locks per call: the array is built in memory.
pub const MAX_LIMIT: i64 = 100_000;

/// The locks whose key (after `redis_lock.prefix`) matches `pattern`.
pub fn locks(pattern: &[u8], limit: i64) -> Result<Zval> {
    if pattern.is_empty() {
        return Err(Fail::Arg(1, "must not be empty".into()));
    }
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(Fail::Arg(2, format!("must be between 1 and {MAX_LIMIT}")));
    }
    let settings = ini::settings();
    let (server, limits, _) = target(&settings, b"")?;
    let listing = policy::list(&node(server, limits), &settings.prefix, pattern, limit as usize, limits).map_err(failure)?;
    let mut list = ZendHashTable::new();
    for lock in &listing.locks {
        list.push(entry(lock, &settings.prefix)?).map_err(built)?;
    }
    Ok(table(list))
}

/// The lock at `key`, or null.
pub fn describe(key: &[u8]) -> Result<Zval> {
    let key = check_key(key)?;
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    match policy::describe(&node(server, limits), &full_key, limits).map_err(failure)? {
        Some(lock) => entry(&lock, &settings.prefix),
        None => Ok(Zval::new()),
    }
}

/// Drops the waiter `token`'s place from `key`'s queue.
pub fn evict(key: &[u8], token: &[u8]) -> Result<bool> {
    let key = check_key(key)?;
    let token = owner_token(2, token)?;
    let settings = ini::settings();
    let (server, limits, full_key) = target(&settings, key)?;
    policy::evict(&node(server, limits), &full_key, &token, limits).map_err(failure)
}

/// This request's label for its new tokens ('' : `redis_lock.label`'s again).
pub fn set_label(label: &[u8]) {
    policy::set_label((!label.is_empty()).then_some(label));
}

fn built(e: impl std::fmt::Display) -> Fail {
    Fail::Value(format!("cannot build the lock list: {e}"))
}

fn binary(bytes: &[u8]) -> Zval {
    let mut zval = Zval::new();
    zval.set_binary(bytes.to_vec());
    zval
}

fn table(t: ZBox<ZendHashTable>) -> Zval {
    let mut zval = Zval::new();
    zval.set_hashtable(t);
    zval
}

/// One lock as an array (the fields of `redis-lock list --json`).
fn entry(lock: &LockInfo, prefix: &[u8]) -> Result<Zval> {
    let mut a = ZendHashTable::new();
    a.insert("key", binary(lock.key.strip_prefix(prefix).unwrap_or(&lock.key))).map_err(built)?;
    a.insert("redis_key", binary(&lock.key)).map_err(built)?;
    a.insert("kind", lock.kind.name()).map_err(built)?;
    a.insert("node", lock.node.as_str()).map_err(built)?;
    a.insert("ttl_ms", lock.ttl_ms).map_err(built)?;
    a.insert("fence", lock.fence.and_then(|f| i64::try_from(f).ok())).map_err(built)?;
    let mut holders = ZendHashTable::new();
    for h in &lock.holders {
        holders.push(table(holder(h)?)).map_err(built)?;
    }
    a.insert("holders", table(holders)).map_err(built)?;
    let mut waiters = ZendHashTable::new();
    for w in &lock.waiters {
        waiters.push(table(waiter(w)?)).map_err(built)?;
    }
    a.insert("waiters", table(waiters)).map_err(built)?;
    a.insert("queued", i64::try_from(lock.queued).unwrap_or(i64::MAX)).map_err(built)?;
    Ok(table(a))
}

fn holder(h: &ListedHolder) -> Result<ZBox<ZendHashTable>> {
    let mut a = ZendHashTable::new();
    a.insert("token", h.token.as_str()).map_err(built)?;
    a.insert("host", h.host.clone()).map_err(built)?;
    a.insert("pid", h.pid.map(i64::from)).map_err(built)?;
    a.insert("since", h.since_ms.map(|ms| ms as f64 / 1000.0)).map_err(built)?;
    a.insert("label", h.label.clone()).map_err(built)?;
    a.insert("ttl_ms", h.ttl_ms).map_err(built)?;
    a.insert("mode", h.mode).map_err(built)?;
    a.insert("weight", h.weight.map(i64::from)).map_err(built)?;
    a.insert("limit", h.limit.map(i64::from)).map_err(built)?;
    Ok(a)
}

fn waiter(w: &Waiter) -> Result<ZBox<ZendHashTable>> {
    let mut a = ZendHashTable::new();
    a.insert("token", w.token.as_str()).map_err(built)?;
    a.insert("host", w.host.clone()).map_err(built)?;
    a.insert("pid", w.pid.map(i64::from)).map_err(built)?;
    a.insert("label", w.label.clone()).map_err(built)?;
    a.insert("waited_ms", w.waited_ms).map_err(built)?;
    a.insert("place_ms", w.place_ms).map_err(built)?;
    a.insert("mode", w.mode).map_err(built)?;
    Ok(a)
}
