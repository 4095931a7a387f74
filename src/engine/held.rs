//! The locks this process holds, and their whole lifecycle, for both classes:
//! a lock is registered when a round acquired it, forgotten only after a
//! round decided that it is gone (released, or no longer ours), kept when
//! the round could not decide (an outage, a time limit), and forgotten once
//! past its TTL. At request end whatever is still held is released in one
//! concurrent round (after an uncaught exception, `exit()` or a fatal error
//! too). A forked child starts with an empty registry: it must never release
//! its parent's locks.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::command::{Command, Op};
use super::conn::Limits;
use super::error::{Acked, Cause, NodeError};
use super::keys::Base;
use super::lease::{Lease, Outcome, Patience};
use super::ownership::{fence_of, Ask, Seen};
use super::per_process::PerProcess;
use super::queue::{self, Place, QueueOp};
use super::resp::Reply;
use super::route;
use super::round::{self, exchange, Job, Node, Vote};
use super::server::Server;
use super::wait;
use super::watchdog::{self, Lost, Renewal};

/// A lock as this process knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    pub nodes: Vec<Node>,
    pub key: Vec<u8>,
    pub token: String,
    /// When the TTL ends: after that the lock is nobody's to release.
    pub expires: Instant,
    /// For a lock others may queue for (RedisMutexLock): what its release
    /// needs to hand it over. `None` for RedLock.
    pub place: Option<Place>,
    /// How many times this process took it (re-entry): only the last
    /// release lets it go.
    pub count: u32,
    /// Its renewal (`watchdog.rs`), while renewals keep it.
    pub renewal: Option<u64>,
    /// Its fencing token, once asked for.
    pub fence: Option<i64>,
    /// Taken for an owner token of the caller's (the framework adapters):
    /// it lives until released or expired, not only as long as the request.
    pub outlives_request: bool,
}

impl Held {
    pub fn new(nodes: Vec<Node>, key: Vec<u8>, token: String, place: Option<Place>) -> Self {
        Held { nodes, key, token, expires: Instant::now(), place, count: 1, renewal: None, fence: None, outlives_request: false }
    }

    fn lease(&self) -> Lease<'_> {
        Lease { nodes: &self.nodes, key: &self.key, token: &self.token, refresh_own: self.outlives_request }
    }

    /// Whether its renewal failed (the watchdog marked it lost).
    fn is_lost(&self) -> bool {
        self.renewal.and_then(watchdog::lost).is_some()
    }

    /// Whether `other` is the same lock: same key, token and servers (the
    /// nodes' timeouts may differ from call to call).
    fn same_lock(&self, other: &Held) -> bool {
        self.key == other.key
            && self.token == other.token
            && self.nodes.len() == other.nodes.len()
            && self.nodes.iter().zip(&other.nodes).all(|(a, b)| a.server == b.server)
    }
}

/// Who took the lock: the static mutex API (one lock per server, key and
/// process; the server by a hash of it, and a registered lock of another
/// server under the same hash is not the caller's) or a RedLock instance
/// (identified by its token).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Mutex(u64, Vec<u8>),
    RedLock(String),
}

/// The owner of `key` on `server` for the mutex API.
pub fn mutex_owner(server: &Server, key: Vec<u8>) -> Owner {
    let mut hasher = Fnv::default();
    server.hash(&mut hasher);
    Owner::Mutex(hasher.finish(), key)
}

/// When a TTL starting now ends (TTLs beyond `Instant`'s range end "never").
pub fn expiry_after(ttl: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(ttl).or_else(|| now.checked_add(Duration::from_secs(1 << 32))).unwrap_or(now)
}

/// FNV-1a: the registry's keys come from the application itself, and
/// SipHash cost more than the rest of a lock call's bookkeeping.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        self.0 = h;
    }
}

#[derive(Default)]
struct Registry {
    held: HashMap<Owner, Arc<Held>, BuildHasherDefault<Fnv>>,
    /// Size at which expired entries are next swept (amortised O(1) per insert).
    sweep_at: usize,
}

static HELD: PerProcess<Registry> = PerProcess::new();

fn insert(owner: Owner, held: Arc<Held>) {
    let replaced = HELD.with(|r| {
        if r.held.len() >= r.sweep_at {
            let now = Instant::now();
            r.held.retain(|_, h| h.expires > now);
            r.sweep_at = (r.held.len() * 2).max(64);
        }
        r.held.insert(owner, held)
    });
    // A lock taken again over the one registered (for the same owner token,
    // or after it was lost): the old one's renewal ends.
    if let Some(id) = replaced.and_then(|old| old.renewal) {
        watchdog::stop(id);
    }
}

/// Forgets the registry entry of `owner` if it is `lock`, and stops its renewal.
fn forget(owner: &Owner, lock: &Held) {
    let gone = HELD.with(|r| {
        let (owner, entry) = r.held.remove_entry(owner)?;
        if entry.same_lock(lock) {
            return Some(entry);
        }
        r.held.insert(owner, entry);
        None
    });
    if let Some(id) = gone.and_then(|entry| entry.renewal) {
        watchdog::stop(id);
    }
}

/// Changes the registry entry of `owner` if it is `lock`.
fn update(owner: &Owner, lock: &Held, change: impl FnOnce(&mut Held)) {
    HELD.with(|r| {
        if let Some(entry) = r.held.get_mut(owner).filter(|h| h.same_lock(lock)) {
            change(Arc::make_mut(entry));
        }
    });
}

/// The registered lock of `owner`, if it has not expired.
pub fn registered(owner: &Owner) -> Option<Arc<Held>> {
    HELD.with(|r| r.held.get(owner).filter(|h| h.expires > Instant::now()).cloned())
}

/// The registered entry of `owner` if it is `lock`.
fn entry_of(owner: &Owner, lock: &Held) -> Option<Arc<Held>> {
    registered(owner).filter(|h| h.same_lock(lock))
}

/// Renewals for a lock (`redis_lock.auto_renew`), capped at `max_hold`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Renew {
    pub max_hold: Option<Duration>,
}

/// Replica acknowledgement (`redis_lock.wait_replicas`): a lock counts as
/// taken only once `wanted` replicas of its server have it, within `within`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replicas {
    pub wanted: i64,
    pub within: Duration,
}

/// How a lock is taken beyond the round itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    pub renew: Option<Renew>,
    pub replicas: Option<Replicas>,
}

/// Acquisition rounds for `lock` (its `expires` is set here); registered
/// under `owner` (and renewed, if asked) when held.
pub fn acquire(owner: Owner, lock: Held, ttl_ms: i64, patience: Patience, terms: Terms, limits: &Limits) -> Outcome {
    let ttl_ms = capped(ttl_ms, terms.renew);
    let outcome = lock.lease().acquire(ttl_ms, patience, limits);
    let outcome = replicated(&lock, outcome, terms.replicas, limits);
    register(owner, lock, ttl_ms, &outcome, terms, limits);
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
    let failure = match acknowledged(lock, replicas, Acked::Lock, limits) {
        Ok(()) => {
            let waited = start.elapsed();
            if waited.as_secs_f64() * 1000.0 < *validity_ms {
                return outcome;
            }
            let label = lock.nodes.first().map(|node| endpoint_label(node, &lock.key, limits)).unwrap_or_default();
            Outcome::failed(NodeError::new(label, Cause::OutlivedByWait { waited }))
        }
        Err(failure) => failure,
    };
    let _quiet = wait::Quiet::begin();
    let_go(lock, limits);
    failure
}

/// The server `lock`'s commands go to (on a Sentinel or Cluster, the one it names).
fn endpoint_label(node: &Node, key: &[u8], limits: &Limits) -> String {
    route::endpoint(node, key, limits).map_or_else(|_| node.server.to_string(), |s| s.to_string())
}

/// `WAIT` on the connection that just wrote `lock`'s key: whether
/// `replicas.wanted` replicas have the write in time; if not, how the call
/// fails (`new_lock`: it is being released, else it stays held).
fn acknowledged(lock: &Held, replicas: Replicas, what: Acked, limits: &Limits) -> Result<(), Outcome> {
    let Some(node) = lock.nodes.first() else { return Err(Outcome::Refused) };
    replicas_have(node, &lock.key, &lock.token, replicas, what, limits).map_err(Outcome::failed)
}

/// `WAIT` on the connection to `node` that just wrote `key` (bound to it:
/// never sent on another): whether `replicas.wanted` replicas have the
/// write within `replicas.within`.
pub fn replicas_have(node: &Node, key: &[u8], token: &str, replicas: Replicas, what: Acked, limits: &Limits) -> Result<(), NodeError> {
    let Replicas { wanted, within } = replicas;
    let timeout_ms = within.as_millis().clamp(1, i64::MAX as u128) as i64;
    match round::ask(node, &Command { op: Op::WaitReplicas { replicas: wanted, timeout_ms }, key, token }, limits) {
        Vote::Got(Reply::Int(acked)) if acked < wanted => {
            Err(NodeError::new(endpoint_label(node, key, limits), Cause::Replicas { acked, wanted, within, what }))
        }
        // (the reply was checked to be a count)
        Vote::Got(_) => Ok(()),
        Vote::Failed(e) => Err(e),
        _ => Err(NodeError::new(node.server.to_string(), Cause::Io("no answer to WAIT".into()))),
    }
}

/// Releases `lock` on its servers (to the first waiter, where others may wait).
fn let_go(lock: &Held, limits: &Limits) -> Outcome {
    match (&lock.place, lock.nodes.first()) {
        (Some(place), Some(node)) => queue::release(node, &lock.key, &lock.token, place, limits),
        _ => lock.lease().release(limits).outcome,
    }
}

/// The TTL to acquire with: renewed locks never outlive their cap.
fn capped(ttl_ms: i64, renew: Option<Renew>) -> i64 {
    match renew.and_then(|r| r.max_hold) {
        Some(cap) => ttl_ms.min(cap.as_millis().clamp(1, i64::MAX as u128) as i64),
        None => ttl_ms,
    }
}

/// Registers `lock` when the round took it: for its TTL, or renewed.
fn register(owner: Owner, mut lock: Held, ttl_ms: i64, outcome: &Outcome, terms: Terms, limits: &Limits) {
    let Terms { renew, replicas } = terms;
    if let Outcome::Confirmed { .. } = outcome {
        lock.expires = expiry_after(Duration::from_millis(ttl_ms as u64));
        if let Some(Renew { max_hold }) = renew {
            let (nodes, key, token, limits) = (lock.nodes.clone(), lock.key.clone(), lock.token.clone(), limits.clone());
            lock.renewal = Some(watchdog::start(Renewal { nodes, key, token, ttl_ms, limits, max_hold, replicas }));
            // Renewed, it is ours until released or lost (the watchdog says which).
            lock.expires = expiry_after(Duration::MAX);
        }
        insert(owner, Arc::new(lock));
    }
}

/// Waits in the queue of `lock`'s key (one node) until `deadline`; registered
/// under `owner` (and renewed, if asked) when held.
pub fn acquire_queued(owner: Owner, mut lock: Held, ttl_ms: i64, deadline: Instant, check: Duration, terms: Terms, limits: &Limits) -> Outcome {
    let Some(node) = lock.nodes.first() else { return Outcome::Refused };
    let ttl_ms = capped(ttl_ms, terms.renew);
    let (outcome, place) = queue::acquire(node, &lock.key, &lock.token, ttl_ms, deadline, check, limits);
    lock.place = Some(place);
    let outcome = replicated(&lock, outcome, terms.replicas, limits);
    register(owner, lock, ttl_ms, &outcome, terms, limits);
    outcome
}

/// Takes `lock`, which this process holds, once more: confirmed (and
/// counted) while our token still holds it, its TTL raised to at least
/// `ttl_ms`; refused when it is no longer ours or its renewal failed, and
/// then forgotten (the caller acquires it afresh).
pub fn reenter(owner: &Owner, lock: &Held, ttl_ms: i64, limits: &Limits) -> Outcome {
    if lock.is_lost() {
        forget(owner, lock);
        return Outcome::Refused;
    }
    let outcome = still_mine(lock, ttl_ms, limits);
    match outcome {
        Outcome::Confirmed { .. } => update(owner, lock, |h| {
            h.count = h.count.saturating_add(1);
            match h.renewal {
                Some(id) => watchdog::raise_ttl(id, ttl_ms),
                None => h.expires = h.expires.max(expiry_after(Duration::from_millis(ttl_ms as u64))),
            }
        }),
        Outcome::Refused => forget(owner, lock),
        _ => {}
    }
    outcome
}

/// Whether our token still holds `lock` (one node), raising its TTL to at
/// least `ttl_ms` when > 0.
fn still_mine(lock: &Held, ttl_ms: i64, limits: &Limits) -> Outcome {
    match ask(lock, Op::Own(Ask::StillMine { ttl_ms }), limits) {
        Ok(Reply::Int(1)) => Outcome::Confirmed { validity_ms: ttl_ms as f64 },
        Ok(_) => Outcome::Refused,
        Err(outcome) => outcome,
    }
}

/// One command about `lock` to its (single) node: the reply, or how the
/// round ended without one.
fn ask(lock: &Held, op: Op<'_>, limits: &Limits) -> Result<Reply, Outcome> {
    let Some(node) = lock.nodes.first() else { return Err(Outcome::Refused) };
    match round::ask(node, &Command { op, key: &lock.key, token: &lock.token }, limits) {
        Vote::Got(reply) => Ok(reply),
        Vote::Failed(e) => Err(Outcome::failed(e)),
        _ => Err(Outcome::Refused),
    }
}

/// Whether the renewal of `owner`'s `lock` failed: then it is forgotten,
/// and the caller reports why.
fn take_lost(owner: &Owner, lock: &Held) -> Result<Option<Arc<Held>>, Lost> {
    let entry = entry_of(owner, lock);
    if let Some(id) = entry.as_ref().and_then(|h| h.renewal) {
        if let Some(lost) = watchdog::lost(id) {
            forget(owner, lock);
            return Err(lost);
        }
    }
    Ok(entry)
}

/// Releases `lock` (handing it to the first waiter, where others may wait);
/// the registry entry of `owner` is forgotten only if it is this very lock
/// and the round decided. One of several holds (re-entry) is given back
/// after checking that the lock is still ours. A renewed lock that was
/// lost is reported instead (and forgotten).
pub fn release(owner: &Owner, lock: &Held, limits: &Limits) -> Result<Outcome, Lost> {
    let entry = take_lost(owner, lock)?;
    if entry.as_ref().is_some_and(|h| h.count > 1) {
        let outcome = still_mine(lock, 0, limits);
        match outcome {
            Outcome::Confirmed { .. } => update(owner, lock, |h| h.count -= 1),
            Outcome::Refused => forget(owner, lock),
            _ => {}
        }
        return Ok(outcome);
    }
    let outcome = let_go(lock, limits);
    if matches!(outcome, Outcome::Confirmed { .. } | Outcome::Refused) {
        forget(owner, lock);
    }
    Ok(outcome)
}

/// Extends `lock` to `ttl_ms`; a confirmed extension moves the registered
/// expiry (or the renewals' TTL), a refusal (the lock is gone) forgets it,
/// an outage keeps it. A renewed lock that was lost is reported instead.
/// With `replicas`, a confirmed extension that too few replicas have in
/// time is reported as a failure (the lock stays held, with its new TTL).
pub fn extend(owner: &Owner, lock: &Held, ttl_ms: i64, replicas: Option<Replicas>, limits: &Limits) -> Result<Outcome, Lost> {
    take_lost(owner, lock)?;
    let outcome = lock.lease().extend(ttl_ms, limits).outcome;
    match outcome {
        Outcome::Confirmed { .. } => update(owner, lock, |h| match h.renewal {
            Some(id) => watchdog::set_ttl(id, ttl_ms),
            None => h.expires = expiry_after(Duration::from_millis(ttl_ms as u64)),
        }),
        Outcome::Refused => forget(owner, lock),
        _ => {}
    }
    if let (Outcome::Confirmed { .. }, Some(replicas)) = (&outcome, replicas) {
        if let Err(failure) = acknowledged(lock, replicas, Acked::Extension, limits) {
            return Ok(failure);
        }
    }
    Ok(outcome)
}

/// The fencing token of `owner`'s hold: issued by Redis at the first call,
/// remembered after. `None` when this process does not hold the lock (or
/// Redis says it is no longer ours: then it is forgotten). With `replicas`,
/// a token too few replicas have in time is a failure (and asked again
/// at the next call): a failover could otherwise issue a smaller one.
pub fn fence(owner: &Owner, replicas: Option<Replicas>, limits: &Limits) -> Result<Option<i64>, Outcome> {
    let Some(lock) = registered(owner) else { return Ok(None) };
    if lock.is_lost() {
        return Ok(None);
    }
    if lock.fence.is_some() {
        return Ok(lock.fence);
    }
    let base = Base::of(&lock.key);
    let reply = ask(&lock, Op::Own(Ask::Fence { base: &base }), limits)?;
    let fence = fence_of(&reply).map_err(|_| Outcome::Refused)?;
    if let (Some(_), Some(replicas)) = (fence, replicas) {
        acknowledged(&lock, replicas, Acked::Fence, limits)?;
    }
    match fence {
        Some(n) => update(owner, &lock, |h| h.fence = Some(n)),
        None => forget(owner, &lock),
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
pub fn inspect(owner: &Owner, node: &Node, key: &[u8], limits: &Limits) -> Result<Inspection, Outcome> {
    let base = Base::of(key);
    let probe = Held::new(vec![node.clone()], key.to_vec(), String::new(), None);
    let seen = Seen::parse(&ask(&probe, Op::Own(Ask::Inspect { base: &base }), limits)?).map_err(|_| Outcome::Refused)?;
    let mine = registered(owner).filter(|h| h.nodes.first().is_some_and(|n| n.server == node.server));
    let lost = mine.as_ref().is_some_and(|h| h.is_lost());
    let held = !lost && mine.as_ref().is_some_and(|h| seen.value.as_deref() == Some(h.token.as_bytes()));
    Ok(Inspection { count: mine.map_or(0, |h| h.count), lost, held, seen })
}

/// Releases the lock on `key` whoever holds it (to the first waiter, if
/// any); whatever this process had registered for it is forgotten.
pub fn force_release(owner: &Owner, node: &Node, key: &[u8], limits: &Limits) -> Outcome {
    let outcome = queue::release(node, key, "", &Place::default(), limits);
    if matches!(outcome, Outcome::Confirmed { .. } | Outcome::Refused) {
        if let Some(lock) = registered(owner) {
            forget(owner, &lock);
        }
    }
    outcome
}

/// Forgets every registered lock without releasing it.
pub fn forget_all() {
    watchdog::stop_all();
    HELD.with(|r| r.held.clear());
}

/// Releases every lock still held, in one round: every server gets the
/// releases of all its locks pipelined, all servers at once, so the whole
/// costs at most one connect and one read timeout however many locks there
/// are. The registry is empty afterwards (the request that owned them ended).
pub fn release_all(limits: &Limits) {
    watchdog::stop_all();
    let now = Instant::now();
    let locks: Vec<Arc<Held>> =
        HELD.with(|r| r.held.drain().map(|(_, h)| h).filter(|h| h.expires > now && !h.outlives_request).collect());
    if locks.is_empty() {
        return;
    }
    let bases: Vec<Option<Base<'_>>> = locks.iter().map(|l| l.place.as_ref().map(|_| Base::of(&l.key))).collect();
    let mut per_server: Vec<(Node, Vec<Command<'_>>)> = Vec::new();
    for (lock, base) in locks.iter().zip(&bases) {
        let op = match (&lock.place, base) {
            (Some(place), Some(base)) => Op::Queue(QueueOp::Handoff { base, expected: &place.expected }),
            _ => Op::Release,
        };
        let cmd = Command { op, key: &lock.key, token: &lock.token };
        for node in &lock.nodes {
            // On a Cluster, each key may live on another master: its own job.
            match per_server.iter_mut().find(|(n, _)| n.server == node.server && !n.server.is_routed()) {
                Some((_, cmds)) => cmds.push(cmd),
                None => {
                    let node = Node { server: node.server.clone(), timeout: limits.read, connect: limits.connect };
                    per_server.push((node, vec![cmd]));
                }
            }
        }
    }
    let jobs: Vec<Job<'_>> = per_server.iter().map(|(node, cmds)| Job { node, cmds }).collect();
    exchange(&jobs, limits);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(key: &str, expires: Instant) -> Held {
        Held { expires, ..Held::new(vec![], key.into(), key.into(), None) }
    }

    #[test]
    fn expired_locks_are_forgotten() {
        let past = Instant::now() - Duration::from_millis(1);
        let future = Instant::now() + Duration::from_secs(60);
        for i in 0..1000 {
            insert(Owner::RedLock(format!("gone{i}")), Arc::new(held("gone", past)));
        }
        insert(Owner::RedLock("kept".into()), Arc::new(held("kept", future)));
        HELD.with(|r| assert!(r.held.len() < 200, "swept while growing: {}", r.held.len()));
        assert!(registered(&Owner::RedLock("gone999".into())).is_none());
        let kept = registered(&Owner::RedLock("kept".into())).expect("kept");
        // Only the very same lock touches the entry.
        let owner = Owner::RedLock("kept".into());
        forget(&owner, &held("other", future));
        update(&owner, &held("other", future), |h| h.expires = past);
        assert_eq!(registered(&owner).as_deref(), Some(&*kept));
        forget(&owner, &kept);
        assert!(registered(&owner).is_none());
        assert!(expiry_after(Duration::from_millis(i64::MAX as u64)) > future, "a huge TTL does not overflow");
    }
}
