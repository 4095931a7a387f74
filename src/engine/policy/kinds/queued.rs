//! RedisMutexLock: one key on one node, with a FIFO queue of waiters that a
//! release hands the lock to (`features::queue`). Its `Hint` is what the
//! release needs: the waiter it expects first in line.

use super::quorum::{lease, still_mine};
use super::{queue_wait, Kind, LockKind, Parts, Target};
use crate::engine::features::lease::Patience;
use crate::engine::features::owner::{Op, Owned};
use crate::engine::features::queue::{self, Hint, QueueOp, Step};
use crate::engine::net::conn::Limits;
use crate::engine::round::quorum::Outcome;
use crate::engine::round::Request;

impl LockKind for Hint {
    /// Without a wait, one `SET NX PX` (a call without a timeout never
    /// queues); else in the key's queue.
    fn acquire(&self, at: &Target<'_>, ttl_ms: i64, patience: Patience, limits: &Limits) -> (Outcome, Kind) {
        match (queue_wait(patience), at.node()) {
            (Some((deadline, check)), Some(node)) => {
                let (outcome, hint) = queue::acquire(node, at.key, at.token, ttl_ms, deadline, check, limits);
                (outcome, Kind::Queued(hint))
            }
            (Some(_), None) => (Outcome::Refused, Kind::Queued(Hint::default())),
            (None, _) => (lease(at).acquire(ttl_ms, patience, limits), Kind::Queued(Hint::default())),
        }
    }

    fn release(&self, at: &Target<'_>, limits: &Limits) -> Outcome {
        match at.node() {
            Some(node) => queue::release(node, at.key, at.token, self, limits),
            None => Outcome::Refused,
        }
    }

    fn set_ttl(&self, at: &Target<'_>, ttl_ms: i64, _raise: bool, limits: &Limits) -> Outcome {
        lease(at).extend(ttl_ms, limits).outcome
    }

    fn still_mine(&self, at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome {
        still_mine(at, ttl_ms, limits)
    }

    fn release_request<'a>(&'a self, at: Target<'a>, parts: &'a Parts<'a>) -> Box<dyn Request + 'a> {
        Box::new(Step { op: QueueOp::Handoff { base: &parts.base, expected: &self.expected }, key: at.key, token: at.token })
    }

    fn single_key_release_request<'a>(&'a self, at: Target<'a>, _parts: &'a Parts<'a>) -> Box<dyn Request + 'a> {
        Box::new(Owned { op: Op::Release, key: at.key, token: at.token })
    }

    fn renewal_request<'a>(&'a self, at: Target<'a>, _parts: &'a Parts<'a>, ttl_ms: i64) -> Box<dyn Request + 'a> {
        Box::new(lease(&at).extension(ttl_ms))
    }
}
