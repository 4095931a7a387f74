//! `RedisMutexLock`'s owner-level operations, for the framework adapters
//! (Laravel's lock owners, Symfony's key tokens): a lock taken with a token
//! the caller chose, released or extended by whoever knows that token (in
//! any process), its owner read, and a forced release. Such a lock lives
//! until it is released or expires, like the frameworks' own locks: the end
//! of the request that took it neither releases it nor keeps renewing it.
//! A renewed one that another process released (knowing its owner) is no
//! loss to report: its owner's release and extension answer `false`.

use std::time::Duration;

use ext_php_rs::types::Zval;

use super::args::{Float, ReqInt, Str};
use super::errors::{Fail, Result};
use crate::engine::lease::Outcome;
use super::ini;
use super::mutex::{about, answer, check_timeout, failure, node, non_empty, registered, take};
use crate::engine::held::{self, Held};
use crate::engine::queue::Place;
use super::redlock::check_ttl;
use crate::engine::conn::Limits;
use crate::engine::server::Server;
use std::sync::Arc;

/// Owner tokens longer than this are refused: they travel in every waiter's key.
const MAX_OWNER_BYTES: usize = 1024;

/// An owner token: non-empty UTF-8 of at most MAX_OWNER_BYTES.
fn owner_token(num: u32, owner: &[u8]) -> Result<String> {
    if owner.is_empty() {
        return Err(Fail::Arg(num, "must not be empty".into()));
    }
    if owner.len() > MAX_OWNER_BYTES {
        return Err(Fail::Arg(num, format!("must be at most {MAX_OWNER_BYTES} bytes long")));
    }
    String::from_utf8(owner.to_vec()).map_err(|_| Fail::Arg(num, "must be valid UTF-8".into()))
}

pub fn acquire(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>, timeout: Float<'_>, renew: Option<bool>) -> Result<bool> {
    let (key, owner, ttl, timeout) = (key.get(1)?, owner.get(2)?, ttl.get(3)?, timeout.get(4)?);
    let key = non_empty(key)?;
    let token = owner_token(2, owner)?;
    check_ttl(3, ttl)?;
    check_timeout(4, timeout)?;
    let terms = ini::settings().terms(renew)?;
    about(key, |server, limits, mine, full_key| {
        // A key that already holds this owner's token counts as taken (and
        // gets the new TTL), as the frameworks' stores refresh a key they hold.
        let mut lock = Held::new(vec![node(server, limits)], full_key, token, Some(Place::default()));
        lock.outlives_request = true;
        answer(take(mine, lock, ttl, timeout, Duration::from_millis(100), terms, limits))
    })
}

/// This process' hold of the key for `token`, or the lock as anybody
/// knowing the token names it.
fn lock_of(token: String, server: &Server, limits: &Limits, mine: &held::Owner, full_key: Vec<u8>) -> Arc<Held> {
    registered(mine, server)
        .filter(|lock| lock.token == token)
        .unwrap_or_else(|| Arc::new(Held::new(vec![node(server, limits)], full_key, token, Some(Place::default()))))
}

pub fn release(key: Str<'_>, owner: Str<'_>) -> Result<bool> {
    let (key, owner) = (key.get(1)?, owner.get(2)?);
    let key = non_empty(key)?;
    let token = owner_token(2, owner)?;
    about(key, |server, limits, mine, full_key| {
        let lock = lock_of(token, server, limits, &mine, full_key);
        answer(held::release(&mine, &lock, limits).unwrap_or(Outcome::Refused))
    })
}

pub fn extend(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>) -> Result<bool> {
    let (key, owner, ttl) = (key.get(1)?, owner.get(2)?, ttl.get(3)?);
    let key = non_empty(key)?;
    let token = owner_token(2, owner)?;
    check_ttl(3, ttl)?;
    let replicas = ini::settings().replicas()?;
    about(key, |server, limits, mine, full_key| {
        let lock = lock_of(token, server, limits, &mine, full_key);
        answer(held::extend(&mine, &lock, ttl, replicas, limits).unwrap_or(Outcome::Refused))
    })
}

pub fn owner(key: Str<'_>) -> Result<Zval> {
    let key = non_empty(key.get(1)?)?;
    about(key, |server, limits, mine, full_key| {
        let seen = held::inspect(&mine, &node(server, limits), &full_key, limits).map_err(failure)?;
        let mut zval = Zval::new();
        if let Some(value) = seen.seen.value {
            zval.set_binary(value);
        }
        Ok(zval)
    })
}

pub fn force_release(key: Str<'_>) -> Result<bool> {
    let key = non_empty(key.get(1)?)?;
    about(key, |server, limits, mine, full_key| answer(held::force_release(&mine, &node(server, limits), &full_key, limits)))
}
