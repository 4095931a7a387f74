//! The locks this process holds and has not released yet, so that they can be
//! released when the request ends (after an uncaught exception, `exit()` or a
//! fatal error too). A forked child starts with an empty registry: it must
//! never release its parent's locks. Locks past their TTL are forgotten, so
//! a long-running worker that lets its locks expire does not grow it.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::per_process::PerProcess;
use super::round::Node;
use super::server::Server;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    pub nodes: Vec<Node>,
    pub key: Vec<u8>,
    pub token: String,
    /// When the TTL ends: after that the lock is nobody's to release.
    pub expires: Instant,
}

/// Who took the lock: the static mutex API (one lock per server, key and
/// process) or a RedLock instance (identified by its token).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Mutex(Server, Vec<u8>),
    RedLock(String),
}

/// When a TTL starting now ends (TTLs beyond `Instant`'s range end "never").
pub fn expiry_after(ttl: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(ttl).or_else(|| now.checked_add(Duration::from_secs(1 << 32))).unwrap_or(now)
}

#[derive(Default)]
struct Registry {
    held: HashMap<Owner, Held>,
    /// Size at which expired entries are next swept (amortised O(1) per insert).
    sweep_at: usize,
}

static HELD: PerProcess<Registry> = PerProcess::new();

pub fn insert(owner: Owner, held: Held) {
    HELD.with(|r| {
        if r.held.len() >= r.sweep_at {
            let now = Instant::now();
            r.held.retain(|_, h| h.expires > now);
            r.sweep_at = (r.held.len() * 2).max(64);
        }
        r.held.insert(owner, held);
    });
}

pub fn remove(owner: &Owner) -> Option<Held> {
    HELD.with(|r| r.held.remove(owner))
}

/// A new TTL for a lock still registered (after an extend).
pub fn extend(owner: &Owner, expires: Instant) {
    HELD.with(|r| r.held.get_mut(owner).map(|h| h.expires = expires));
}

/// Everything still held and not expired, emptying the registry.
pub fn take_all() -> Vec<Held> {
    let now = Instant::now();
    HELD.with(|r| r.held.drain().map(|(_, h)| h).filter(|h| h.expires > now).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(key: &str, expires: Instant) -> Held {
        Held { nodes: vec![], key: key.into(), token: key.into(), expires }
    }

    #[test]
    fn expired_locks_are_forgotten() {
        let past = Instant::now() - Duration::from_millis(1);
        let future = Instant::now() + Duration::from_secs(60);
        for i in 0..1000 {
            insert(Owner::RedLock(format!("gone{i}")), held("gone", past));
        }
        insert(Owner::RedLock("kept".into()), held("kept", future));
        HELD.with(|r| assert!(r.held.len() < 200, "swept while growing: {}", r.held.len()));
        extend(&Owner::RedLock("kept".into()), future + Duration::from_secs(1));
        let left = take_all();
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].expires, future + Duration::from_secs(1));
        assert!(expiry_after(Duration::from_millis(i64::MAX as u64)) > future, "a huge TTL does not overflow");
    }
}
