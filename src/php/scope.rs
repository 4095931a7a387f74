//! `RedisLock`: units of work inside one request, for processes that serve
//! many (queue workers, Octane, RoadRunner, FrankenPHP's worker mode):
//! `beginScope()` opens one, `endScope()` gives back what was taken in it
//! and is still held, as request end does for the whole request.

use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, Zval};

use super::args::{Int, Str};
use super::checks::not_negative;
use super::errors::{Fail, Result};
use super::ini;
use super::listing;
use crate::engine::policy::{begin_scope, end_scope, ScopeEnd};

#[php_class]
#[php(name = "RedisLock")]
#[php(flags = ext_php_rs::flags::ClassFlags::Final)]
pub struct RedisLock;

#[php_impl]
impl RedisLock {
    /// Opens a unit of work inside the innermost one open: its id, for endScope().
    pub fn begin_scope() -> i64 {
        begin_scope().min(i64::MAX as u64) as i64
    }

    /// Ends scope `$scope` (0: the innermost one) and the scopes opened
    /// inside it: releases the locks taken in them that this process still
    /// holds, ends their renewals. `['keys' => [...], 'failed' => n,
    /// 'owner_locks' => n]`; a scope that is not open ends nothing.
    #[php(defaults(scope = 0))]
    pub fn end_scope(scope: Int<'_>) -> Result<Zval> {
        let id = scope.get(1)?;
        not_negative(1, id)?;
        let limits = ini::limits()?;
        report(&end_scope((id > 0).then_some(id as u64), &limits))
    }

    /// The locks whose key after `redis_lock.prefix` matches the glob
    /// `$pattern`, on every master, at most `$limit` (see the stub).
    #[php(defaults(limit = 1000))]
    pub fn locks(pattern: Str<'_>, limit: Int<'_>) -> Result<Zval> {
        listing::locks(pattern.get(1)?, limit.get(2)?)
    }

    /// The lock at `$key` (as an entry of locks()), or null.
    pub fn describe(key: Str<'_>) -> Result<Zval> {
        listing::describe(key.get(1)?)
    }

    /// Drops the waiter `$token`'s place from `$key`'s queue.
    pub fn evict(key: Str<'_>, token: Str<'_>) -> Result<bool> {
        listing::evict(key.get(1)?, token.get(2)?)
    }

    /// The label this request's new lock tokens carry ('': `redis_lock.label`'s).
    pub fn set_label(label: Str<'_>) -> Result<()> {
        listing::set_label(label.get(1)?);
        Ok(())
    }
}

/// `endScope()`'s array.
fn report(closed: &ScopeEnd) -> Result<Zval> {
    let built = |e: ext_php_rs::error::Error| Fail::Value(format!("cannot build the scope's report: {e}"));
    let mut keys = ZendHashTable::new();
    for key in &closed.keys {
        let mut zval = Zval::new();
        zval.set_binary(key.clone());
        keys.push(zval).map_err(built)?;
    }
    let mut array = ZendHashTable::new();
    array.insert("keys", keys).map_err(built)?;
    array.insert("failed", closed.failed as i64).map_err(built)?;
    array.insert("owner_locks", closed.owner_locks as i64).map_err(built)?;
    let mut zval = Zval::new();
    zval.set_hashtable(array);
    Ok(zval)
}
