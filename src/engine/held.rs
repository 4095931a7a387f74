//! The locks this process holds and has not released yet, so that they can be
//! released when the request ends (after an uncaught exception, `exit()` or a
//! fatal error too). A forked child starts with an empty registry: it must
//! never release its parent's locks.

use std::collections::HashMap;

use super::per_process::PerProcess;
use super::round::Node;
use super::server::Server;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    pub nodes: Vec<Node>,
    pub key: Vec<u8>,
    pub token: String,
}

/// Who took the lock: the static mutex API (one lock per server, key and
/// process), a RedLock instance (identified by its token), or nobody for sure:
/// an acquisition that failed while its SET may still run late on a node that
/// did not answer (identified by its token, released as soon as possible).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Mutex(Server, Vec<u8>),
    RedLock(String),
    Doubt(String),
}

static HELD: PerProcess<HashMap<Owner, Held>> = PerProcess::new();

pub fn insert(owner: Owner, held: Held) {
    HELD.with(|h| h.insert(owner, held));
}

pub fn remove(owner: &Owner) -> Option<Held> {
    HELD.with(|h| h.remove(owner))
}

pub fn get(owner: &Owner) -> Option<Held> {
    HELD.with(|h| h.get(owner).cloned())
}

/// The doubtful acquisitions of `key`, removed from the registry.
pub fn take_doubts(key: &[u8]) -> Vec<Held> {
    HELD.with(|h| {
        let owners: Vec<Owner> = h
            .iter()
            .filter(|(owner, held)| matches!(owner, Owner::Doubt(_)) && held.key == key)
            .map(|(owner, _)| owner.clone())
            .collect();
        owners.iter().filter_map(|owner| h.remove(owner)).collect()
    })
}

/// Everything still held, emptying the registry.
pub fn take_all() -> Vec<Held> {
    HELD.with(|h| h.drain().map(|(_, held)| held).collect())
}
