//! A lock's whole lifecycle, for every class:
//! a lock is registered when a round acquired it, forgotten only after a
//! round decided that it is gone (released, or no longer ours), kept when
//! the round could not decide (an outage, a time limit), and forgotten once
//! past its TTL. At request end whatever is still held is released in one
//! concurrent round (after an uncaught exception, `exit()` or a fatal error
//! too). A forked child starts with an empty registry: it must never release
//! its parent's locks.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::metrics;
use super::registry::{entry_of, expiry_after, forget, held_here, insert, registered, update, Held, Kind, Handle};
use super::watchdog::{self, Lost, Renewal};
use crate::engine::error::{Acked, Cause, NodeError};
use crate::engine::features::lease::Patience;
use crate::engine::features::ownership::{fence_of, Ask, Question, Seen};
use crate::engine::features::queue::{self, Hint};
use crate::engine::features::shared;
use crate::engine::features::replicas::{replicas_have, Replicas};
use crate::engine::features::{self, endpoint_label};
use crate::engine::net::conn::Limits;
use crate::engine::net::wait;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::slot::Base;
use crate::engine::round::quorum::{Failure, Outcome};
use crate::engine::round::{Node, Vote};

/// Renewals for a lock (`redis_lock.auto_renew`), capped at `max_hold`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Renew {
    pub max_hold: Option<Duration>,
}

/// How a lock is taken beyond the round itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    pub renew: Option<Renew>,
    pub replicas: Option<Replicas>,
}

/// Takes `lock` as its kind does, waiting as `patience` says (`Until`: in
/// the key's queue, where the kind has one); registered under `handle` (and
/// renewed, if asked) when held, its `expires` set then.
pub fn acquire(handle: Handle, mut lock: Held, ttl_ms: i64, patience: Patience, terms: Terms, limits: &Limits) -> Outcome {
    let ttl_ms = capped(ttl_ms, terms.renew);
    let began = metrics::acquiring();
    let (outcome, kind) = lock.kind.ops().acquire(&lock.target(), ttl_ms, patience, limits);
    lock.kind = kind;
    let outcome = replicated(&lock, outcome, terms.replicas, limits);
    lock.taken = metrics::acquired(&lock.kind, &lock.key, patience, &outcome, began);
    if !lock.outlives_request || lock.kind.ops().registers_owner_locks() {
        register(handle, lock, ttl_ms, &outcome, terms, limits);
    }
    outcome
}

/// After a confirmed acquisition with replica acknowledgement: `WAIT` on the
/// connection that took it. When fewer replicas than wanted have it in time
/// (a failover would hand the lock to another client), it is released and
/// the acquisition fails with that cause.
/// The wait may outlast the lock's TTL: then the lock may be someone
/// else's by now, and it is not reported taken (a quorum's validity, the
/// same way).
fn replicated(lock: &Held, outcome: Outcome, replicas: Option<Replicas>, limits: &Limits) -> Outcome {
    let (Outcome::Confirmed { validity_ms }, Some(replicas)) = (&outcome, replicas) else { return outcome };
    let start = Instant::now();
    let failure: Outcome = match acknowledged(lock, replicas, Acked::Lock, limits) {
        Ok(()) => {
            let waited = start.elapsed();
            if waited.as_secs_f64() * 1000.0 < *validity_ms {
                return outcome;
            }
            let label = lock.nodes.first().map(|node| endpoint_label(node, &lock.key, limits)).unwrap_or_default();
            Outcome::failed(NodeError::new(label, Cause::OutlivedByWait { waited }))
        }
        Err(failure) => failure.into(),
    };
    let _quiet = wait::Quiet::begin();
    let_go(lock, &lock.kind, limits);
    failure
}

/// `WAIT` on the connection that just wrote `lock`'s key: whether
/// `replicas.wanted` replicas have the write in time; if not, how the call
/// fails (`what` says whether it is being released or stays held).
fn acknowledged(lock: &Held, replicas: Replicas, what: Acked, limits: &Limits) -> Result<(), Failure> {
    let Some(node) = lock.nodes.first() else { return Err(Failure::Unexpected) };
    replicas_have(node, &lock.key, &lock.token, replicas, what, limits).map_err(Failure::of)
}

/// Releases `lock` on its servers as `kind` does (to the first waiters,
/// where others may wait).
fn let_go(lock: &Held, kind: &Kind, limits: &Limits) -> Outcome {
    kind.ops().release(&lock.target(), limits)
}

/// The TTL to acquire with: renewed locks never outlive their cap.
fn capped(ttl_ms: i64, renew: Option<Renew>) -> i64 {
    match renew.and_then(|r| r.max_hold) {
        Some(cap) => ttl_ms.min(cap.as_millis().clamp(1, i64::MAX as u128) as i64),
        None => ttl_ms,
    }
}

/// Registers `lock` when the round took it: for its TTL, or renewed.
fn register(handle: Handle, mut lock: Held, ttl_ms: i64, outcome: &Outcome, terms: Terms, limits: &Limits) {
    let Terms { renew, replicas } = terms;
    if let Outcome::Confirmed { .. } = outcome {
        lock.expires = expiry_after(Duration::from_millis(ttl_ms as u64));
        if let Some(Renew { max_hold }) = renew {
            let (nodes, key, token, limits) = (lock.nodes.clone(), lock.key.clone(), lock.token.clone(), limits.clone());
            let kind = lock.kind.clone();
            lock.renewal = Some(watchdog::start(Renewal { nodes, key, token, ttl_ms, limits, max_hold, replicas, kind }));
            // Renewed, it is ours until released or lost (the watchdog says which).
            lock.expires = expiry_after(Duration::MAX);
        }
        insert(handle, lock);
    }
}

/// Changes the mode of `lock`, a shared hold of this process, to `claim`'s:
/// a downgrade at once; an upgrade only while it is the only hold, never
/// waiting (two readers waiting to upgrade would wait for each other).
/// Refused (the hold unchanged) otherwise; a hold found gone is forgotten.
pub fn change_mode(handle: &Handle, lock: &Held, claim: shared::Claim, ttl_ms: i64, limits: &Limits) -> Outcome {
    let Some(node) = lock.nodes.first() else { return Outcome::Refused };
    if lock.is_lost() {
        forget(handle, lock);
        return Outcome::Refused;
    }
    let take = shared::Take { ttl_ms, deadline: None, check: Duration::ZERO, owner: true };
    let outcome = shared::acquire(node, &lock.key, &lock.token, claim, take, limits);
    match outcome {
        Outcome::Confirmed { .. } => update(handle, lock, |h| {
            h.kind = Kind::Shared(claim);
            raise_ttl(h, ttl_ms);
        }),
        // Still ours (in the old mode)? Else forgotten.
        Outcome::Refused => {
            if let Outcome::Refused = still_mine(lock, 0, limits) {
                forget(handle, lock);
            }
        }
        _ => {}
    }
    outcome
}

/// Takes `lock`, which this process holds, once more: confirmed (and
/// counted) while our token still holds it, its TTL raised to at least
/// `ttl_ms`; refused when it is no longer ours or its renewal failed, and
/// then forgotten (the caller acquires it afresh).
pub fn reenter(handle: &Handle, lock: &Held, ttl_ms: i64, limits: &Limits) -> Outcome {
    if lock.is_lost() {
        forget(handle, lock);
        return Outcome::Refused;
    }
    let outcome = still_mine(lock, ttl_ms, limits);
    match outcome {
        Outcome::Confirmed { .. } => update(handle, lock, |h| {
            h.count = h.count.saturating_add(1);
            raise_ttl(h, ttl_ms);
        }),
        Outcome::Refused => forget(handle, lock),
        _ => {}
    }
    outcome
}

/// The registered lock `h`, just made sure of with a TTL of at least
/// `ttl_ms`: its renewal, or its expiry, raised to match.
fn raise_ttl(h: &mut Held, ttl_ms: i64) {
    match h.renewal {
        Some(id) => watchdog::raise_ttl(id, ttl_ms),
        None => h.expires = h.expires.max(expiry_after(Duration::from_millis(ttl_ms as u64))),
    }
}

/// Whether our token still holds `lock` (one node), raising its TTL to at
/// least `ttl_ms` when > 0.
fn still_mine(lock: &Held, ttl_ms: i64, limits: &Limits) -> Outcome {
    lock.kind.ops().still_mine(&lock.target(), ttl_ms, limits)
}

/// One command about `lock` to its (single) node: the reply, or how the
/// round ended without one.
fn ask(lock: &Held, ask: Ask<'_>, limits: &Limits) -> Result<Reply, Failure> {
    let Some(node) = lock.nodes.first() else { return Err(Failure::Unexpected) };
    match features::ask(node, &Question { ask, key: &lock.key, token: &lock.token }, limits) {
        Vote::Got(reply) => Ok(reply),
        Vote::Failed(e) => Err(Failure::of(e)),
        _ => Err(Failure::Unexpected),
    }
}

/// Whether the renewal of `handle`'s `lock` failed: then it is forgotten,
/// and the caller reports why.
fn take_lost(handle: &Handle, lock: &Held) -> Result<Option<Arc<Held>>, Lost> {
    let entry = entry_of(handle, lock);
    if let Some(id) = entry.as_ref().and_then(|h| h.renewal) {
        if let Some(lost) = watchdog::lost(id) {
            forget(handle, lock);
            return Err(lost);
        }
    }
    Ok(entry)
}

/// Releases `lock` (handing it to the first waiter, where others may wait);
/// the registry entry of `handle` is forgotten only if it is this very lock
/// and the round decided. One of several holds (re-entry) is given back
/// after checking that the lock is still ours. A renewed lock that was
/// lost is reported instead (and forgotten).
pub fn release(handle: &Handle, lock: &Held, limits: &Limits) -> Result<Outcome, Lost> {
    let entry = take_lost(handle, lock)?;
    if entry.as_ref().is_some_and(|h| h.count > 1) {
        let outcome = still_mine(lock, 0, limits);
        match outcome {
            Outcome::Confirmed { .. } => update(handle, lock, |h| h.count -= 1),
            Outcome::Refused => forget(handle, lock),
            _ => {}
        }
        return Ok(outcome);
    }
    // As registered: what its taking learned (a RedLock's queue) the
    // caller's lock array does not carry.
    let outcome = let_go(lock, entry.as_ref().map_or(&lock.kind, |held| &held.kind), limits);
    if let Some(held) = &entry {
        metrics::released(&held.kind, &held.key, held.taken, &outcome);
    }
    if matches!(outcome, Outcome::Confirmed { .. } | Outcome::Refused) {
        forget(handle, lock);
    }
    Ok(outcome)
}

/// Extends `lock` to `ttl_ms`; a confirmed extension moves the registered
/// expiry (or the renewals' TTL), a refusal (the lock is gone) forgets it,
/// an outage keeps it. A renewed lock that was lost is reported instead.
/// With `replicas`, a confirmed extension that too few replicas have in
/// time is reported as a failure (the lock stays held, with its new TTL).
pub fn extend(handle: &Handle, lock: &Held, ttl_ms: i64, replicas: Option<Replicas>, limits: &Limits) -> Result<Outcome, Lost> {
    take_lost(handle, lock)?;
    let outcome = lock.kind.ops().set_ttl(&lock.target(), ttl_ms, false, limits);
    metrics::extended(&lock.kind, &lock.key, &outcome);
    match outcome {
        Outcome::Confirmed { .. } => update(handle, lock, |h| match h.renewal {
            Some(id) => watchdog::set_ttl(id, ttl_ms),
            None => h.expires = expiry_after(Duration::from_millis(ttl_ms as u64)),
        }),
        Outcome::Refused => forget(handle, lock),
        _ => {}
    }
    if let (Outcome::Confirmed { .. }, Some(replicas)) = (&outcome, replicas) {
        if let Err(failure) = acknowledged(lock, replicas, Acked::Extension, limits) {
            return Ok(failure.into());
        }
    }
    Ok(outcome)
}

/// The fencing token of `handle`'s hold: issued by Redis at the first call,
/// remembered after. `None` when this process does not hold the lock (or
/// Redis says it is no longer ours: then it is forgotten). With `replicas`,
/// a token too few replicas have in time is a failure (and asked again
/// at the next call): a failover could otherwise issue a smaller one.
pub fn fence(handle: &Handle, replicas: Option<Replicas>, limits: &Limits) -> Result<Option<i64>, Failure> {
    let Some(lock) = registered(handle) else { return Ok(None) };
    if lock.is_lost() {
        return Ok(None);
    }
    if lock.fence.is_some() {
        return Ok(lock.fence);
    }
    let base = Base::of(&lock.key);
    let reply = ask(&lock, Ask::Fence { base: &base }, limits)?;
    let fence = fence_of(&reply).map_err(|_| Failure::Unexpected)?;
    if let (Some(_), Some(replicas)) = (fence, replicas) {
        acknowledged(&lock, replicas, Acked::Fence, limits)?;
    }
    match fence {
        Some(n) => update(handle, &lock, |h| h.fence = Some(n)),
        None => forget(handle, &lock),
    }
    Ok(fence)
}

/// A key as Redis sees it, and as this process holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inspection {
    pub seen: Seen,
    /// Holds taken by this process (0: none).
    pub count: u32,
    /// This process' renewal of it failed.
    pub lost: bool,
    /// This process holds it now: registered, not lost, and Redis has our token.
    pub held: bool,
}

/// Everything about `key` on `node` in one round trip.
pub fn inspect(handle: &Handle, node: &Node, key: &[u8], limits: &Limits) -> Result<Inspection, Failure> {
    let base = Base::of(key);
    let probe = Held::quorum(vec![node.clone()], key.to_vec(), String::new());
    let seen = Seen::parse(&ask(&probe, Ask::Inspect { base: &base }, limits)?).map_err(|_| Failure::Unexpected)?;
    // A lock taken for an owner token is the owner's, not this process' (as `release()` sees it).
    let mine = held_here(handle, &node.server);
    let lost = mine.as_ref().is_some_and(|h| h.is_lost());
    let held = !lost && mine.as_ref().is_some_and(|h| seen.value.as_deref() == Some(h.token.as_bytes()));
    Ok(Inspection { count: mine.map_or(0, |h| h.count), lost, held, seen })
}

/// The live holds of the shared lock `key` on `node` and its waiters, in one round trip.
pub fn inspect_shared(node: &Node, key: &[u8], limits: &Limits) -> Result<shared::Holds, Failure> {
    shared::inspect(node, key, limits)
}

/// Releases the lock on `key` whoever holds it (to the first waiter, if
/// any); whatever this process had registered for it is forgotten.
pub fn force_release(handle: &Handle, node: &Node, key: &[u8], limits: &Limits) -> Outcome {
    let outcome = queue::release(node, key, "", &Hint::default(), limits);
    if matches!(outcome, Outcome::Confirmed { .. } | Outcome::Refused) {
        if let Some(lock) = registered(handle) {
            forget(handle, &lock);
        }
    }
    outcome
}

