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
/// process) or a RedLock instance (identified by its token).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Mutex(Server, Vec<u8>),
    RedLock(String),
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

/// Everything still held, emptying the registry.
pub fn take_all() -> Vec<Held> {
    HELD.with(|h| h.drain().map(|(_, held)| held).collect())
}
