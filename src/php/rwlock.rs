//! `RedisReadWriteLock`: a fair read/write lock on one server, static like
//! RedisMutexLock (`lockRead`/`lockWrite`/`release`).

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

use super::args::{Float, Int, ReqInt, Str};
use super::checks::{check_lock_seconds, check_timeout, check_ttl, check_key};
use super::errors::{unless_timed_out, Result};
use super::shared::{self, built, mode_name};
use crate::engine::policy::{Claim, Mode};

#[php_class]
#[php(name = "RedisReadWriteLock")]
#[php(flags = ext_php_rs::flags::ClassFlags::Final)]
pub struct RedisReadWriteLock;

#[php_impl]
impl RedisReadWriteLock {
    /// Takes a read hold on `$key` for `$lockSecond` seconds, waiting up to `$timeout` seconds.
    #[php(defaults(timeout = 0.0, lockSecond = 20))]
    pub fn lock_read(key: Str<'_>, timeout: Float<'_>, lockSecond: Int<'_>) -> Result<bool> {
        unless_timed_out(lock(key, timeout, lockSecond, Claim::READ))
    }

    /// Takes the write lock on `$key` for `$lockSecond` seconds, waiting up to `$timeout` seconds.
    #[php(defaults(timeout = 0.0, lockSecond = 20))]
    pub fn lock_write(key: Str<'_>, timeout: Float<'_>, lockSecond: Int<'_>) -> Result<bool> {
        unless_timed_out(lock(key, timeout, lockSecond, Claim::WRITE))
    }

    /// Releases this process' hold on `$key`, read or write.
    pub fn release(key: Str<'_>) -> Result<bool> {
        unless_timed_out(key.get(1).and_then(check_key).and_then(|key| shared::release("RedisReadWriteLock::release", key)))
    }

    /// Sets the lease of this process' hold on `$key` to `$lockSecond` seconds.
    #[php(defaults(lockSecond = 20))]
    pub fn extend(key: Str<'_>, lockSecond: Int<'_>) -> Result<bool> {
        unless_timed_out(shared::extend_call("RedisReadWriteLock::extend", key, lockSecond))
    }

    /// Holders, modes and waiters of `$key`, and this process' hold.
    pub fn inspect(key: Str<'_>) -> Result<Zval> {
        unless_timed_out(inspect(key))
    }

    /// Takes a hold for `$owner` (framework adapters); `$ttl` in ms.
    #[php(defaults(timeout = 0.0))]
    pub fn acquire_owner(key: Str<'_>, owner: Str<'_>, write: bool, ttl: ReqInt<'_>, timeout: Float<'_>) -> Result<bool> {
        unless_timed_out(acquire_owner(key, owner, write, ttl, timeout))
    }

    /// Releases the hold of `$owner`, from any process.
    pub fn release_owner(key: Str<'_>, owner: Str<'_>) -> Result<bool> {
        unless_timed_out(shared::owner_args(key, owner).and_then(|(key, token)| shared::release_owned(key, token)))
    }

    /// Sets the lease (ms) of the hold of `$owner`.
    pub fn extend_owner(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>) -> Result<bool> {
        unless_timed_out(shared::extend_owner_call(key, owner, ttl))
    }

    /// The mode of the hold of `$owner`: 'read', 'write' or null.
    pub fn mode_of(key: Str<'_>, owner: Str<'_>) -> Result<Option<String>> {
        let mode = shared::owner_args(key, owner).and_then(|(key, token)| shared::mode_of(key, &token));
        unless_timed_out(mode.map(|m| m.map(|m| mode_name(m).to_owned())))
    }
}

fn lock(key: Str<'_>, timeout: Float<'_>, lock_second: Int<'_>, claim: Claim) -> Result<bool> {
    let (key, timeout, lock_second) = (key.get(1)?, timeout.get(2)?, lock_second.get(3)?);
    let key = check_key(key)?;
    check_timeout(2, timeout)?;
    check_lock_seconds(3, lock_second)?;
    shared::take(key, claim, timeout, lock_second * 1000)
}


fn inspect(key: Str<'_>) -> Result<Zval> {
    let key = key.get(1)?;
    shared::inspection(check_key(key)?, |holds, ours, array| {
        let readers = holds.holds.iter().filter(|h| h.mode == Mode::Read).count() as i64;
        array.insert("mode", ours.map(mode_name)).map_err(built)?;
        array.insert("writer", holds.holds.iter().any(|h| h.mode == Mode::Write)).map_err(built)?;
        array.insert("readers", readers).map_err(built)
    })
}


fn acquire_owner(key: Str<'_>, owner: Str<'_>, write: bool, ttl: ReqInt<'_>, timeout: Float<'_>) -> Result<bool> {
    let (key, token) = shared::owner_args(key, owner)?;
    let (ttl, timeout) = (ttl.get(4)?, timeout.get(5)?);
    check_ttl(4, ttl)?;
    check_timeout(5, timeout)?;
    shared::acquire_owned(key, token, if write { Claim::WRITE } else { Claim::READ }, ttl, timeout)
}

