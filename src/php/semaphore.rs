//! `RedisSemaphore`: a fair counting semaphore on one server with a lease
//! per permit, static like RedisMutexLock (`acquire`/`release`).

use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;

use super::args::{Float, Int, ReqInt, Str};
use super::checks::{check_limit, check_lock_seconds, check_timeout, check_ttl, check_key};
use super::errors::{unless_timed_out, Fail, Result};
use super::shared::{self, built};
use crate::engine::policy::Claim;

#[php_class]
#[php(name = "RedisSemaphore")]
#[php(flags = ext_php_rs::flags::ClassFlags::Final)]
pub struct RedisSemaphore;

#[php_impl]
impl RedisSemaphore {
    /// Takes a permit of `$key` (at most `$limit` holders) for `$lockSecond` seconds, waiting up to `$timeout` seconds.
    #[php(defaults(timeout = 0.0, lockSecond = 20))]
    pub fn acquire(key: Str<'_>, limit: ReqInt<'_>, timeout: Float<'_>, lockSecond: Int<'_>) -> Result<bool> {
        unless_timed_out(acquire(key, limit, timeout, lockSecond))
    }

    /// Gives this process' permit of `$key` back.
    pub fn release(key: Str<'_>) -> Result<bool> {
        unless_timed_out(key.get(1).and_then(check_key).and_then(|key| shared::release("RedisSemaphore::release", key)))
    }

    /// Sets the lease of this process' permit of `$key` to `$lockSecond` seconds.
    #[php(defaults(lockSecond = 20))]
    pub fn extend(key: Str<'_>, lockSecond: Int<'_>) -> Result<bool> {
        unless_timed_out(shared::extend_call("RedisSemaphore::extend", key, lockSecond))
    }

    /// Holders, permits used and free, and waiters of `$key`.
    pub fn inspect(key: Str<'_>) -> Result<Zval> {
        unless_timed_out(inspect(key))
    }

    /// Takes `$weight` permits for `$owner` (framework adapters); `$ttl` in ms.
    #[php(defaults(timeout = 0.0, weight = 1))]
    pub fn acquire_owner(key: Str<'_>, owner: Str<'_>, limit: ReqInt<'_>, ttl: ReqInt<'_>, timeout: Float<'_>, weight: Int<'_>) -> Result<bool> {
        unless_timed_out(acquire_owner(key, owner, limit, ttl, timeout, weight))
    }

    /// Gives back the permits of `$owner`, from any process.
    pub fn release_owner(key: Str<'_>, owner: Str<'_>) -> Result<bool> {
        unless_timed_out(shared::owner_args(key, owner).and_then(|(key, token)| shared::release_owned(key, token)))
    }

    /// Sets the lease (ms) of the permits of `$owner`.
    pub fn extend_owner(key: Str<'_>, owner: Str<'_>, ttl: ReqInt<'_>) -> Result<bool> {
        unless_timed_out(shared::extend_owner_call(key, owner, ttl))
    }

    /// Whether `$owner` holds permits of `$key` now.
    pub fn holds(key: Str<'_>, owner: Str<'_>) -> Result<bool> {
        unless_timed_out(shared::owner_args(key, owner).and_then(|(key, token)| Ok(shared::mode_of(key, &token)?.is_some())))
    }
}

fn acquire(key: Str<'_>, limit: ReqInt<'_>, timeout: Float<'_>, lock_second: Int<'_>) -> Result<bool> {
    let (key, limit, timeout, lock_second) = (key.get(1)?, limit.get(2)?, timeout.get(3)?, lock_second.get(4)?);
    let key = check_key(key)?;
    let limit = check_limit(2, limit)?;
    check_timeout(3, timeout)?;
    check_lock_seconds(4, lock_second)?;
    shared::take(key, Claim::permits(limit, 1), timeout, lock_second * 1000)
}


fn inspect(key: Str<'_>) -> Result<Zval> {
    let key = key.get(1)?;
    shared::inspection(check_key(key)?, |holds, _, array| {
        let used: i64 = holds.holds.iter().map(|h| i64::from(h.weight)).sum();
        let limit = holds.holds.iter().map(|h| i64::from(h.limit)).max();
        array.insert("used", used).map_err(built)?;
        array.insert("limit", limit).map_err(built)?;
        array.insert("free", limit.map(|l| (l - used).max(0))).map_err(built)
    })
}


fn acquire_owner(key: Str<'_>, owner: Str<'_>, limit: ReqInt<'_>, ttl: ReqInt<'_>, timeout: Float<'_>, weight: Int<'_>) -> Result<bool> {
    let (key, token) = shared::owner_args(key, owner)?;
    let (limit, ttl, timeout, weight) = (limit.get(3)?, ttl.get(4)?, timeout.get(5)?, weight.get(6)?);
    let limit = check_limit(3, limit)?;
    check_ttl(4, ttl)?;
    check_timeout(5, timeout)?;
    let weight = check_limit(6, weight)?;
    if weight > limit {
        return Err(Fail::Arg(6, format!("must be less than or equal to argument #3 ($limit) ({limit})")));
    }
    shared::acquire_owned(key, token, Claim::permits(limit, weight), ttl, timeout)
}

