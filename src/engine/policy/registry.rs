//! The locks this process holds: one entry per handle, per process (a forked
//! child starts empty: it must never release its parent's locks), swept of
//! expired entries as it grows. Forgetting an entry stops its renewal.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::kinds::Target;
use super::watchdog;
use crate::engine::features::queue::Hint;
use crate::engine::features::shared::Claim;

pub use super::kinds::Kind;
use crate::engine::net::dsn::Server;
use crate::engine::net::process::PerProcess;
use crate::engine::round::Node;

/// A lock as this process knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    pub nodes: Vec<Node>,
    pub key: Vec<u8>,
    pub token: String,
    /// When the TTL ends: after that the lock is nobody's to release.
    pub expires: Instant,
    /// What kind of lock: how it is released, extended and renewed.
    pub kind: Kind,
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
    /// The unit of work it was taken in (`scope.rs`): the innermost scope
    /// open then, 0 for none (the request).
    pub scope: u64,
    /// When it was taken (its hold time, counted at release: `metrics`).
    pub taken: Instant,
}

impl Held {
    pub fn new(nodes: Vec<Node>, key: Vec<u8>, token: String, kind: Kind) -> Self {
        let now = Instant::now();
        Held { nodes, key, token, expires: now, kind, count: 1, renewal: None, fence: None, outlives_request: false, scope: 0, taken: now }
    }

    /// A RedisMutexLock's lock on `key`, on one node.
    pub fn mutex(node: Node, key: Vec<u8>, token: String) -> Self {
        Held::new(vec![node], key, token, Kind::Queued(Hint::default()))
    }

    /// A hold of the shared lock `key` (read/write or permits), on one node.
    pub fn shared(node: Node, key: Vec<u8>, token: String, claim: Claim) -> Self {
        Held::new(vec![node], key, token, Kind::Shared(claim))
    }

    /// A RedLock lock on `key`, over N independent nodes.
    pub fn quorum(nodes: Vec<Node>, key: Vec<u8>, token: String) -> Self {
        Held::new(nodes, key, token, Kind::Quorum(Default::default()))
    }

    /// Taken for an owner token of the caller's (the framework adapters):
    /// it lives until released or expired, beyond the request.
    pub fn for_owner(mut self) -> Self {
        self.outlives_request = true;
        self
    }

    /// The claim of a shared hold (its mode), if it is one.
    pub fn claim(&self) -> Option<Claim> {
        match self.kind {
            Kind::Shared(claim) => Some(claim),
            _ => None,
        }
    }

    /// The lock as its kind sees it.
    pub(super) fn target(&self) -> Target<'_> {
        Target { nodes: &self.nodes, key: &self.key, token: &self.token, for_owner: self.outlives_request }
    }

    /// Whether its renewal failed (the watchdog marked it lost).
    pub fn is_lost(&self) -> bool {
        self.renewal.and_then(watchdog::lost).is_some()
    }

    /// Whether `other` is the same lock: same key, token and servers (the
    /// nodes' timeouts may differ from call to call).
    pub(super) fn same_lock(&self, other: &Held) -> bool {
        self.key == other.key
            && self.token == other.token
            && self.nodes.len() == other.nodes.len()
            && self.nodes.iter().zip(&other.nodes).all(|(a, b)| a.server == b.server)
    }
}

/// Under what this process keeps a lock in its registry (not to be taken
/// for a lock's owner, whose token is in Redis): the static mutex API's
/// server and key (one lock per server, key and process; the server by a
/// hash of it, and a registered lock of another server under the same hash
/// is not the caller's), a RedLock lock's token, or a shared lock's server
/// and key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Handle {
    Mutex(u64, Vec<u8>),
    RedLock(String),
    /// A shared lock (read/write or semaphore) of the static API, as `Mutex`.
    Shared(u64, Vec<u8>),
}

/// The handle of `key` on `server` for the mutex API.
pub fn mutex_handle(server: &Server, key: Vec<u8>) -> Handle {
    Handle::Mutex(server_hash(server), key)
}

/// The handle of `key` on `server` for the shared locks' static API.
pub fn shared_handle(server: &Server, key: Vec<u8>) -> Handle {
    Handle::Shared(server_hash(server), key)
}

fn server_hash(server: &Server) -> u64 {
    let mut hasher = Fnv::default();
    server.hash(&mut hasher);
    hasher.finish()
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
    held: HashMap<Handle, Arc<Held>, BuildHasherDefault<Fnv>>,
    /// Size at which expired entries are next swept (amortised O(1) per insert).
    sweep_at: usize,
    /// The scopes open now, outermost first; their ids only grow, so a lock
    /// taken in a scope or in one nested in it has an id at least its own.
    scopes: Vec<u64>,
    last_scope: u64,
}

static HELD: PerProcess<Registry> = PerProcess::new();

/// Registers `held`, taken in the innermost scope open now.
pub(super) fn insert(handle: Handle, mut held: Held) {
    let replaced = HELD.with(|r| {
        if r.held.len() >= r.sweep_at {
            let now = Instant::now();
            r.held.retain(|_, h| h.expires > now);
            r.sweep_at = (r.held.len() * 2).max(64);
        }
        held.scope = r.scopes.last().copied().unwrap_or(0);
        r.held.insert(handle, Arc::new(held))
    });
    // A lock taken again over the one registered (for the same owner token,
    // or after it was lost): the old one's renewal ends.
    if let Some(id) = replaced.and_then(|old| old.renewal) {
        watchdog::stop(id);
    }
}

/// Forgets the registry entry of `handle` if it is `lock`, and stops its renewal.
pub(super) fn forget(handle: &Handle, lock: &Held) {
    let gone = HELD.with(|r| {
        let (handle, entry) = r.held.remove_entry(handle)?;
        if entry.same_lock(lock) {
            return Some(entry);
        }
        r.held.insert(handle, entry);
        None
    });
    if let Some(id) = gone.and_then(|entry| entry.renewal) {
        watchdog::stop(id);
    }
}

/// Changes the registry entry of `handle` if it is `lock`.
pub(super) fn update(handle: &Handle, lock: &Held, change: impl FnOnce(&mut Held)) {
    HELD.with(|r| {
        if let Some(entry) = r.held.get_mut(handle).filter(|h| h.same_lock(lock)) {
            change(Arc::make_mut(entry));
        }
    });
}

/// The registered lock of `handle`, if it has not expired.
pub fn registered(handle: &Handle) -> Option<Arc<Held>> {
    HELD.with(|r| r.held.get(handle).filter(|h| h.expires > Instant::now()).cloned())
}

/// The registered lock of `handle` on `server`, if any (an owner token's too).
pub fn registered_on(handle: &Handle, server: &Server) -> Option<Arc<Held>> {
    registered(handle).filter(|lock| lock.nodes.first().is_some_and(|n| n.server == *server))
}

/// This process' own lock of `handle` on `server`: registered, and not one
/// taken for an owner token of the caller's (that one is the owner's, which
/// releaseOwner() and extendOwner() reach; the process' own calls do not).
pub fn held_here(handle: &Handle, server: &Server) -> Option<Arc<Held>> {
    registered_on(handle, server).filter(|lock| !lock.outlives_request)
}

/// The registered entry of `handle` if it is `lock`.
pub(super) fn entry_of(handle: &Handle, lock: &Held) -> Option<Arc<Held>> {
    registered(handle).filter(|h| h.same_lock(lock))
}

/// Empties the registry and closes every scope (request end, module shutdown).
pub(super) fn clear() {
    HELD.with(|r| {
        r.held.clear();
        r.scopes.clear();
    });
}

/// Empties the registry and closes every scope, returning the locks still
/// held that belong to the request (not those taken for an owner token of
/// the caller's).
pub(super) fn take_request_locks() -> Vec<Arc<Held>> {
    let now = Instant::now();
    HELD.with(|r| {
        r.scopes.clear();
        r.held.drain().map(|(_, h)| h).filter(|h| h.expires > now && !h.outlives_request).collect()
    })
}

/// Opens a scope inside the innermost one open: its id.
pub(super) fn open_scope() -> u64 {
    HELD.with(|r| {
        r.last_scope += 1;
        r.scopes.push(r.last_scope);
        r.last_scope
    })
}

/// The innermost scope open, if any.
pub(super) fn innermost_scope() -> Option<u64> {
    HELD.with(|r| r.scopes.last().copied())
}

/// Closes scope `id` and the scopes opened inside it, if it is open, and
/// takes every lock registered in them out of the registry (owner tokens'
/// too, unexpired or not). `None` when `id` is not open.
pub(super) fn close_scope(id: u64) -> Option<Vec<Arc<Held>>> {
    HELD.with(|r| {
        let at = r.scopes.iter().position(|&s| s == id)?;
        r.scopes.truncate(at);
        Some(r.held.extract_if(|_, h| h.scope >= id).map(|(_, h)| h).collect())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry is one per process: its tests take turns.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn held(key: &str, expires: Instant) -> Held {
        Held { expires, ..Held::new(vec![], key.into(), key.into(), Kind::Quorum(Default::default())) }
    }

    #[test]
    fn expired_locks_are_forgotten() {
        let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
        let past = Instant::now() - Duration::from_millis(1);
        let future = Instant::now() + Duration::from_secs(60);
        for i in 0..1000 {
            insert(Handle::RedLock(format!("gone{i}")), held("gone", past));
        }
        insert(Handle::RedLock("kept".into()), held("kept", future));
        HELD.with(|r| assert!(r.held.len() < 200, "swept while growing: {}", r.held.len()));
        assert!(registered(&Handle::RedLock("gone999".into())).is_none());
        let kept = registered(&Handle::RedLock("kept".into())).expect("kept");
        // Only the very same lock touches the entry.
        let handle = Handle::RedLock("kept".into());
        forget(&handle, &held("other", future));
        update(&handle, &held("other", future), |h| h.expires = past);
        assert_eq!(registered(&handle).as_deref(), Some(&*kept));
        forget(&handle, &kept);
        assert!(registered(&handle).is_none());
        assert!(expiry_after(Duration::from_millis(i64::MAX as u64)) > future, "a huge TTL does not overflow");
    }

    #[test]
    fn a_scope_takes_what_was_registered_in_it_and_in_scopes_inside_it() {
        let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
        clear();
        let future = Instant::now() + Duration::from_secs(60);
        let handle = |k: &str| Handle::RedLock(k.into());
        insert(handle("before"), held("before", future));
        let outer = open_scope();
        insert(handle("outer"), held("outer", future));
        let inner = open_scope();
        assert!(inner > outer);
        insert(handle("inner"), held("inner", future));
        assert_eq!(registered(&handle("inner")).map(|h| h.scope), Some(inner));
        assert_eq!(innermost_scope(), Some(inner));
        let mut taken: Vec<Vec<u8>> = close_scope(outer).expect("open").iter().map(|h| h.key.clone()).collect();
        taken.sort();
        assert_eq!(taken, [b"inner".to_vec(), b"outer".to_vec()]);
        assert_eq!(innermost_scope(), None, "the inner scope closed with it");
        assert!(close_scope(inner).is_none() && close_scope(outer).is_none(), "closed scopes close once");
        assert_eq!(registered(&handle("before")).map(|h| h.scope), Some(0), "a lock taken before is left");
        let again = open_scope();
        assert!(again > inner, "ids are never reused: a late close of an old scope closes nothing");
        clear();
        assert_eq!(innermost_scope(), None);
    }
}
