//! The kinds of lock, each in one place: how a lock of its kind is taken,
//! given back, extended, checked, and released or renewed among many in a
//! pipelined round. The policy (hold.rs, request_end.rs, renew.rs) goes
//! through `Kind::ops()` and never matches on a kind itself, so a new kind
//! is a file here, a variant of `Kind` and its arm in `ops()`.

use std::time::{Duration, Instant};

use crate::engine::features::lease::Patience;
use crate::engine::features::queue::Hint;
use crate::engine::features::shared::Claim;
use crate::engine::net::conn::Limits;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::slot::Base;
use crate::engine::round::quorum::Outcome;
use crate::engine::round::{Node, Request, Vote};

mod queued;
mod quorum;
mod shared;

pub use quorum::Quorum;

/// What kind of lock is held, with what its kind needs to give it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A plain key on N nodes (RedLock).
    Quorum(Quorum),
    /// A key others may queue for (RedisMutexLock): the waiter its release
    /// expects first in line.
    Queued(Hint),
    /// A hold of a shared lock (read, write, permits).
    Shared(Claim),
}

impl Kind {
    /// The one registration of each kind.
    pub fn ops(&self) -> &dyn LockKind {
        match self {
            Kind::Quorum(quorum) => quorum,
            Kind::Queued(hint) => hint,
            Kind::Shared(claim) => claim,
        }
    }
}

/// A lock as its kind sees it: where, which key, whose token.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    pub nodes: &'a [Node],
    pub key: &'a [u8],
    pub token: &'a str,
    /// Taken for an owner token of the caller's, which another process may
    /// hold too (the framework adapters).
    pub for_owner: bool,
}

impl Target<'_> {
    /// The node of a single-server kind (the mutex's, the shared lock's).
    fn node(&self) -> Option<&Node> {
        self.nodes.first()
    }
}

/// What the pipelined requests of a lock borrow, made once per lock before
/// the round: the names of its queue's keys and its member.
pub struct Parts<'a> {
    pub base: Base<'a>,
    pub member: String,
}

impl<'a> Parts<'a> {
    pub fn of(kind: &Kind, key: &'a [u8], token: &str) -> Self {
        Parts { base: Base::of(key), member: kind.ops().member(token) }
    }
}

/// How one kind of lock is taken, kept and given back.
pub trait LockKind {
    /// Takes the lock for `ttl_ms`, waiting as `patience` says (`Until`: in
    /// the key's queue where the kind has one, looking again every `pause`);
    /// the kind the lock is then held as (what its release needs).
    fn acquire(&self, at: &Target<'_>, ttl_ms: i64, patience: Patience, limits: &Limits) -> (Outcome, Kind);

    /// Gives it back (to the first waiters, where others may wait).
    fn release(&self, at: &Target<'_>, limits: &Limits) -> Outcome;

    /// Sets its TTL to `ttl_ms` (`raise`: only longer).
    fn set_ttl(&self, at: &Target<'_>, ttl_ms: i64, raise: bool, limits: &Limits) -> Outcome;

    /// Whether our token still holds it, its TTL raised to at least `ttl_ms` when > 0.
    fn still_mine(&self, at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome;

    /// Whether a lock taken for an owner token of the caller's is kept in
    /// this process' registry (for its release's hand-off and its renewal).
    fn registers_owner_locks(&self) -> bool {
        true
    }

    /// Its member in the lock key, where holds are members of a set.
    fn member(&self, _token: &str) -> String {
        String::new()
    }

    /// Its release among many pipelined (request end).
    fn release_request<'a>(&'a self, at: Target<'a>, parts: &'a Parts<'a>) -> Box<dyn Request + 'a>;

    /// The same, naming the lock key alone: for a node where
    /// `release_request` failed only for naming the other keys (an ACL that
    /// allows the lock key only, its slot being migrated). Waiters then find
    /// it free at their next look, as after the explicit release's fallback.
    fn single_key_release_request<'a>(&'a self, at: Target<'a>, parts: &'a Parts<'a>) -> Box<dyn Request + 'a>;

    /// The waiters a pipelined release let in, to be woken in one more
    /// round by `wake_request` (a waiter not woken finds its grant at its next look).
    fn let_in_by(&self, _reply: &Reply) -> Vec<Vec<u8>> {
        Vec::new()
    }

    /// Wakes `members` (see `let_in_by`).
    fn wake_request<'a>(&'a self, _key: &'a [u8], _parts: &'a Parts<'a>, _members: &'a [Vec<u8>]) -> Option<Box<dyn Request + 'a>> {
        None
    }

    /// Its renewal to `ttl_ms` among many pipelined (the watchdog's), and
    /// whether an answer to it renewed it.
    fn renewal_request<'a>(&'a self, at: Target<'a>, parts: &'a Parts<'a>, ttl_ms: i64) -> Box<dyn Request + 'a>;
    fn renewed(&self, vote: &Vote) -> bool {
        matches!(vote, Vote::Yes)
    }

    /// Its renewal in a round of its own.
    fn renew(&self, at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome {
        self.set_ttl(at, ttl_ms, false, limits)
    }
}

/// A wait of the kinds that queue: until `deadline`, looking every `pause`;
/// `None` for one look that never queues.
fn queue_wait(patience: Patience) -> Option<(Instant, Duration)> {
    match patience {
        Patience::Until { deadline, pause } => Some((deadline, pause)),
        Patience::Attempts { .. } => None,
    }
}
