//! The shared locks (read/write lock, semaphore): holds are members of the
//! lock key's sorted set, with a FIFO queue of waiters (`features::shared`).
//! Its `Claim` is the hold's mode (and for permits, limit and weight).

use std::time::Duration;

use super::{queue_wait, Kind, LockKind, Parts, Target};
use crate::engine::features::lease::Patience;
use crate::engine::features::shared::{self, Claim, SharedOp, Step, Take, GRANT_MS};
use crate::engine::net::conn::Limits;
use crate::engine::protocol::resp::Reply;
use crate::engine::round::quorum::Outcome;
use crate::engine::round::{Request, Vote};

impl LockKind for Claim {
    /// A hold for an owner token may change the token's hold in another mode.
    fn acquire(&self, at: &Target<'_>, ttl_ms: i64, patience: Patience, limits: &Limits) -> (Outcome, Kind) {
        let Some(node) = at.node() else { return (Outcome::Refused, Kind::Shared(*self)) };
        // (No deadline: one look, and `check` unused.)
        let (deadline, check) = queue_wait(patience).map_or((None, Duration::ZERO), |(deadline, check)| (Some(deadline), check));
        let take = Take { ttl_ms, deadline, check, owner: at.for_owner };
        (shared::acquire(node, at.key, at.token, *self, take, limits), Kind::Shared(*self))
    }

    /// An owner token's hold is found in whatever mode it holds.
    fn release(&self, at: &Target<'_>, limits: &Limits) -> Outcome {
        match at.node() {
            Some(node) => shared::release(node, at.key, at.token, *self, at.for_owner, limits),
            None => Outcome::Refused,
        }
    }

    /// (An owner token's hold is found in whatever mode it holds.)
    fn set_ttl(&self, at: &Target<'_>, ttl_ms: i64, raise: bool, limits: &Limits) -> Outcome {
        match at.node() {
            Some(node) => shared::extend(node, at.key, at.token, *self, ttl_ms, raise, at.for_owner, limits),
            None => Outcome::Refused,
        }
    }

    /// The hold's lease raised to at least `ttl_ms` (0: only whether it holds).
    fn still_mine(&self, at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome {
        self.set_ttl(at, ttl_ms, true, limits)
    }

    /// A hold for the caller's owner token is not this process' to keep: it
    /// is neither renewed nor released at request end, and must not stand in
    /// for this process' own hold of the key.
    fn registers_owner_locks(&self) -> bool {
        false
    }

    fn member(&self, token: &str) -> String {
        self.member(token)
    }

    fn release_request<'a>(&'a self, at: Target<'a>, parts: &'a Parts<'a>) -> Box<dyn Request + 'a> {
        let op = SharedOp::Release { grant_ms: GRANT_MS, find: false };
        Box::new(Step { op, key: at.key, base: &parts.base, member: &parts.member, token: at.token, single: false })
    }

    fn single_key_release_request<'a>(&'a self, at: Target<'a>, parts: &'a Parts<'a>) -> Box<dyn Request + 'a> {
        let op = SharedOp::Release { grant_ms: GRANT_MS, find: false };
        Box::new(Step { op, key: at.key, base: &parts.base, member: &parts.member, token: at.token, single: true })
    }

    fn let_in_by(&self, reply: &Reply) -> Vec<Vec<u8>> {
        shared::verdict(reply).map(|(_, members)| members).unwrap_or_default()
    }

    fn wake_request<'a>(&'a self, key: &'a [u8], parts: &'a Parts<'a>, members: &'a [Vec<u8>]) -> Option<Box<dyn Request + 'a>> {
        let op = SharedOp::Wake { members, grant_ms: GRANT_MS };
        Some(Box::new(Step { op, key, base: &parts.base, member: "", token: "", single: false }))
    }

    /// Renewed in whatever mode it holds now (a mode change keeps its renewal).
    fn renewal_request<'a>(&'a self, at: Target<'a>, parts: &'a Parts<'a>, ttl_ms: i64) -> Box<dyn Request + 'a> {
        let op = SharedOp::Extend { ttl_ms, raise: false, find: true };
        Box::new(Step { op, key: at.key, base: &parts.base, member: &parts.member, token: at.token, single: true })
    }

    fn renewed(&self, vote: &Vote) -> bool {
        shared::extended(vote)
    }

    fn renew(&self, at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome {
        match at.node() {
            Some(node) => shared::extend(node, at.key, at.token, *self, ttl_ms, false, true, limits),
            None => Outcome::Refused,
        }
    }
}
