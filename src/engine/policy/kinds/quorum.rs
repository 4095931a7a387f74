//! RedLock: one key on N independent nodes, each call one quorum round
//! (`features::lease`); a caller that waits queues (`features::fair_quorum`),
//! and the unlock hands the lock to the first waiter.

use super::{Kind, LockKind, Parts, Target};
use std::time::{Duration, Instant};

use crate::engine::features::fair_quorum::{self, NoQueue};
use crate::engine::features::owner::{Op, Owned};
use crate::engine::features::lease::{Lease, Patience};
use crate::engine::features::token::{is_lock_token, jitter};
use crate::engine::net::wait;
use crate::engine::round::quorum::{decide, quorum};
use crate::engine::round::Until;
use crate::engine::features::ownership::{Ask, Question};
use crate::engine::features::ask;
use crate::engine::net::conn::Limits;
use crate::engine::protocol::resp::Reply;
use crate::engine::round::quorum::Outcome;
use crate::engine::round::{Request, Vote};

/// A RedLock hold: `queued` when it came through the queue. Others then
/// are likely to wait behind it, their mark on the value makes a native
/// delete say no, so its unlock sends the hand-off script at once (one
/// round trip, not two).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quorum {
    pub queued: bool,
}

/// The plain key's lease (the mutex's outside its queue).
pub(super) fn lease<'a>(at: &Target<'a>) -> Lease<'a> {
    Lease { nodes: at.nodes, key: at.key, token: at.token, refresh_own: at.for_owner, hand_on: false, gone: Default::default() }
}

/// RedLock's: what a failed round got goes to the first queued waiter.
fn redlock<'a>(at: &Target<'a>) -> Lease<'a> {
    Lease { hand_on: true, ..lease(at) }
}

/// `lease`'s caller waits in the queue, leaving out what its first attempt
/// left out (and the lease then leaves out what the queue did).
fn queue(lease: &Lease<'_>, ttl_ms: i64, deadline: Instant, delay: Duration, limits: &Limits) -> Result<Outcome, NoQueue> {
    let mut gone = lease.gone.take();
    let outcome = fair_quorum::acquire(lease.nodes, lease.key, lease.token, ttl_ms, deadline, delay, &mut gone, limits);
    lease.gone.set(gone);
    outcome
}

/// Whether our token still holds the plain key on its (single) node,
/// its TTL raised to at least `ttl_ms` when > 0.
pub(super) fn still_mine(at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome {
    let Some(node) = at.node() else { return Outcome::Refused };
    match ask(node, &Question { ask: Ask::StillMine { ttl_ms }, key: at.key, token: at.token }, limits) {
        Vote::Got(Reply::Int(1)) => Outcome::Confirmed { validity_ms: ttl_ms as f64 },
        Vote::Failed(e) => Outcome::failed(e),
        _ => Outcome::Refused,
    }
}

impl LockKind for Quorum {
    /// First one round of `SET NX PX`, as ever; a caller that would retry
    /// then waits in the queue instead, for as long in all as its retries
    /// would have taken (`attempts × delay` from the call). One attempt, or
    /// an owner token of the caller's, retries as before.
    fn acquire(&self, at: &Target<'_>, ttl_ms: i64, patience: Patience, limits: &Limits) -> (Outcome, Kind) {
        let mut queued = false;
        let outcome = match patience {
            Patience::Attempts { attempts, delay } if attempts > 1 && !delay.is_zero() && !at.for_owner && is_lock_token(at.token) => {
                let deadline = Instant::now() + delay.saturating_mul(attempts);
                // One lease for the whole call: a node its first attempt
                // left out stays out of the queue and of the retries.
                let lease = redlock(at);
                match lease.try_acquire(ttl_ms, limits).outcome {
                    Outcome::Refused => match queue(&lease, ttl_ms, deadline, delay, limits) {
                        Ok(outcome) => {
                            queued = true;
                            outcome
                        }
                        // Retries as before, for what is left of the patience.
                        Err(NoQueue) => {
                            let left = deadline.saturating_duration_since(Instant::now()).as_millis() / delay.as_millis().max(1);
                            lease.acquire(ttl_ms, Patience::Attempts { attempts: (left as u32).max(1), delay }, limits)
                        }
                    },
                    // An outage is retried as before (no queue to join).
                    Outcome::Unreachable(_) => {
                        let rest = Patience::Attempts { attempts: attempts - 1, delay };
                        match wait::sleep_until(Instant::now() + jitter(delay)) {
                            Ok(()) => lease.acquire(ttl_ms, rest, limits),
                            Err(_) => Outcome::Interrupted,
                        }
                    }
                    other => other,
                }
            }
            _ => redlock(at).acquire(ttl_ms, patience, limits),
        };
        (outcome, Kind::Quorum(Quorum { queued }))
    }

    /// On every node, handing the lock on where others wait; confirmed when
    /// a majority said it was ours.
    /// Where the queue's keys cannot be touched (an ACL that allows the
    /// lock key only), the plain owner-checked delete there.
    fn release(&self, at: &Target<'_>, limits: &Limits) -> Outcome {
        let start = Instant::now();
        let (votes, ended) = fair_quorum::release(at.nodes, at.key, at.token, self.queued, limits, Until::Quorum(quorum(at.nodes.len())));
        decide(&votes, None, ended.duration_since(start))
    }

    fn set_ttl(&self, at: &Target<'_>, ttl_ms: i64, _raise: bool, limits: &Limits) -> Outcome {
        redlock(at).extend(ttl_ms, limits).outcome
    }

    fn still_mine(&self, at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome {
        still_mine(at, ttl_ms, limits)
    }

    fn release_request<'a>(&'a self, at: Target<'a>, parts: &'a Parts<'a>) -> Box<dyn Request + 'a> {
        Box::new(fair_quorum::release_step(at.key, &parts.base, at.token, self.queued))
    }

    fn single_key_release_request<'a>(&'a self, at: Target<'a>, _parts: &'a Parts<'a>) -> Box<dyn Request + 'a> {
        Box::new(Owned { op: Op::Release, key: at.key, token: at.token })
    }

    fn renewal_request<'a>(&'a self, at: Target<'a>, _parts: &'a Parts<'a>, ttl_ms: i64) -> Box<dyn Request + 'a> {
        Box::new(lease(&at).extension(ttl_ms))
    }
}
