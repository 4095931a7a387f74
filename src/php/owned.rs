//! `RedisMutexLock`'s owner-level operations, for the framework adapters
//! (Laravel's lock owners, Symfony's key tokens): a lock taken with a token
//! the caller chose, released or extended by whoever knows that token (in
//! any process), its owner read, and a forced release. Such a lock lives
//! until it is released or expires, like the frameworks' own locks: the end
//! of the request that took it neither releases it nor keeps renewing it.
//! A renewed one that another process released (knowing its owner) is no
//! loss to report: its owner's release and extension answer `false`.
//! The arguments arrive converted (by mutex.rs), in PHP's argument order.

use ext_php_rs::types::Zval;

use super::bridge::{about, answer, failure, lock_of, node, replicas, take, terms, LOOK_EVERY};
use super::checks::{check_timeout, check_ttl, check_key, owner_token};
use super::errors::Result;
use crate::engine::policy::{self, Held, Outcome};

pub fn acquire(key: &[u8], owner: &[u8], ttl: i64, timeout: f64, renew: Option<bool>) -> Result<bool> {
    let key = check_key(key)?;
    let token = owner_token(2, owner)?;
    check_ttl(3, ttl)?;
    check_timeout(4, timeout)?;
    let terms = terms(renew)?;
    about(key, |server, limits, mine, full_key| {
        // A key that already holds this owner's token counts as taken (and
        // gets the new TTL), as the frameworks' stores refresh a key they hold.
        let lock = Held::mutex(node(server, limits), full_key, token).for_owner();
        answer(take(mine, lock, ttl, timeout, LOOK_EVERY, terms, limits))
    })
}

pub fn release(key: &[u8], owner: &[u8]) -> Result<bool> {
    let key = check_key(key)?;
    let token = owner_token(2, owner)?;
    about(key, |server, limits, mine, full_key| {
        let lock = lock_of(token, server, limits, &mine, full_key);
        answer(policy::release(&mine, &lock, limits).unwrap_or(Outcome::Refused))
    })
}

pub fn extend(key: &[u8], owner: &[u8], ttl: i64) -> Result<bool> {
    let key = check_key(key)?;
    let token = owner_token(2, owner)?;
    check_ttl(3, ttl)?;
    let replicas = replicas()?;
    about(key, |server, limits, mine, full_key| {
        let lock = lock_of(token, server, limits, &mine, full_key);
        answer(policy::extend(&mine, &lock, ttl, replicas, limits).unwrap_or(Outcome::Refused))
    })
}

pub fn owner(key: &[u8]) -> Result<Zval> {
    let key = check_key(key)?;
    about(key, |server, limits, mine, full_key| {
        let seen = policy::inspect(&mine, &node(server, limits), &full_key, limits).map_err(failure)?;
        let mut zval = Zval::new();
        if let Some(value) = seen.seen.value {
            zval.set_binary(value);
        }
        Ok(zval)
    })
}

pub fn force_release(key: &[u8]) -> Result<bool> {
    let key = check_key(key)?;
    about(key, |server, limits, mine, full_key| answer(policy::force_release(&mine, &node(server, limits), &full_key, limits)))
}
