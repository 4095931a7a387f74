//! Scopes: units of work inside one request (a queue job, a message, a
//! worker's request) in processes that serve many of them before their
//! request ends (queue workers, Octane, RoadRunner, FrankenPHP's worker
//! mode). Closing a scope does for the locks taken in it (and in scopes
//! opened inside it) what request end does for all: it releases those this
//! process still holds (with hand-off to the next waiter), and ends their
//! renewals; locks taken for an owner token of the caller's are left held,
//! but no longer renewed, as at request end. Request end is the outermost
//! scope: it closes every scope. A forked child starts with none.

use super::registry;
use super::request_end::release_together;
use super::watchdog;
use crate::engine::net::conn::Limits;

/// What closing a scope found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ScopeEnd {
    /// The keys of the locks this process still held from the scope (what a
    /// unit of work left behind), in no particular order.
    pub keys: Vec<Vec<u8>>,
    /// How many of them could not be released: their servers did not answer
    /// (they end with their TTL). The others are not ours any more: given
    /// back, or found expired or taken over.
    pub failed: usize,
    /// Locks of owner tokens taken in the scope: left held, their renewals ended.
    pub owner_locks: usize,
}

/// Opens a scope inside the innermost one open: its id, for `end_scope`.
pub fn begin_scope() -> u64 {
    registry::open_scope()
}

/// Closes scope `id` (`None`: the innermost one) and every scope opened
/// inside it. A scope that is not open (closed already, or never opened)
/// closes nothing: a framework whose events end a unit twice is safe.
pub fn end_scope(id: Option<u64>, limits: &Limits) -> ScopeEnd {
    let Some(taken) = id.or_else(registry::innermost_scope).and_then(registry::close_scope) else { return ScopeEnd::default() };
    for id in taken.iter().filter_map(|lock| lock.renewal) {
        watchdog::stop(id);
    }
    let now = std::time::Instant::now();
    let (owners, ours): (Vec<_>, Vec<_>) = taken.into_iter().partition(|lock| lock.outlives_request);
    // (A renewed lock's expiry is "never": the watchdog says when it is lost.)
    let held: Vec<_> = ours.into_iter().filter(|lock| lock.expires > now).collect();
    let failed = release_together(&held, limits).into_iter().filter(|&answered| !answered).count();
    ScopeEnd { keys: held.iter().map(|lock| lock.key.clone()).collect(), failed, owner_locks: owners.len() }
}
