//! Shared locks: a fair read/write lock and a counting semaphore with a
//! lease per permit, one feature (a semaphore is a lock whose holds fit
//! while their weights stay within the limit; a read/write lock one whose
//! read holds fit beside each other and whose write hold fits alone).
//!
//! Waiters queue in FIFO order, whatever their mode: a reader arriving after
//! a queued writer waits behind it. A release (or a waiter giving up, or a
//! downgrade) lets in the waiters at the head of the queue that now fit,
//! granting each a hold for `GRANT`, and wakes exactly those, by their own
//! lists; a woken waiter confirms its grant with its next take. A waiter
//! woken but dead never confirms, and its grant runs out by itself; a dead
//! waiter is passed over once its place ran out; a dead holder's hold ends
//! with its lease. Every waiter looks at the queue again at least every
//! check interval, and takes a hold that it fits while first in line.
//!
//! While the key's slot is being migrated (Cluster), only the lock key can
//! be touched: takes and releases go without the queue meanwhile (FIFO is
//! suspended, waiters look every 20 ms), as the mutex does.

use std::time::{Duration, Instant};

use super::waiting::{block_ms, confirmed, held, place_ms, single_key_only, stop, note, Leaving, Outage, Stop, HANDED, MIGRATING_POLL, WAITED};
use super::{ask, exchange};
use crate::engine::error::Cause;
use crate::engine::net::conn::Limits;
use crate::engine::net::wait;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::slot::Base;
use crate::engine::round::quorum::{Failure, Outcome};
use crate::engine::round::{Job, Node, Request, Vote};
use crate::engine::topology;

mod scripts;
mod steps;
pub(crate) mod view;

pub use steps::{verdict, SharedOp, Step, TakeHow};
use steps::popped;
pub use view::{Hold, Holds};

/// How long a hold handed to a waiter is provisional: a waiter woken but
/// dead never confirms it, and it ends after this.
pub const GRANT: Duration = Duration::from_millis(200);

/// What a hold is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Read,
    Write,
    Permit,
}

impl Mode {
    /// As PHP arrays and listings show it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Read => "read",
            Mode::Write => "write",
            Mode::Permit => "permit",
        }
    }
}

/// A hold as asked for: its mode, and for a permit the limit its taker
/// passed and how many permits it counts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    pub mode: Mode,
    pub limit: u32,
    pub weight: u32,
}

impl Claim {
    pub const READ: Claim = Claim { mode: Mode::Read, limit: 0, weight: 1 };
    pub const WRITE: Claim = Claim { mode: Mode::Write, limit: 0, weight: 1 };

    pub fn permits(limit: u32, weight: u32) -> Claim {
        Claim { mode: Mode::Permit, limit, weight }
    }

    /// The hold's member in the lock key's sorted set.
    pub fn member(&self, token: &str) -> String {
        let mode = match self.mode {
            Mode::Read => 'r',
            Mode::Write => 'w',
            Mode::Permit => 's',
        };
        format!("{mode}{}:{}|{token}", self.limit, self.weight)
    }
}

/// How to take a hold.
#[derive(Clone, Copy, Debug)]
pub struct Take {
    pub ttl_ms: i64,
    /// Wait in the queue until then; `None`: one look, never queueing.
    pub deadline: Option<Instant>,
    /// The longest a waiter goes without looking at the queue again.
    pub check: Duration,
    /// The token may already hold in another mode (changed, not added).
    pub owner: bool,
}

/// `GRANT` as the scripts take it.
pub const GRANT_MS: i64 = GRANT.as_millis() as i64;

/// Takes a hold of `key` on `node` for `token`, waiting in the queue as
/// `take` says. A server that cannot be reached on the first step ends the
/// wait at once; one that goes away while we wait is waited out for one
/// connect and read timeout.
pub fn acquire(node: &Node, key: &[u8], token: &str, claim: Claim, take: Take, limits: &Limits) -> Outcome {
    let base = Base::of(key);
    let member = claim.member(token);
    let step = |op, single| Step { op, key, base: &base, member: &member, token, single };
    let mut outage = Outage::new(limits);
    // Woken: our next take finds the hold granted to us.
    let mut woken = false;
    let mut told_migrating = false;
    // Sized once (the server's tick does not change within a wait); a take
    // that does not join the queue never needs a place.
    let place_ms = if take.deadline.is_some() { place_ms(take.check, node, key, limits) } else { 0 };
    loop {
        let single = told_migrating || topology::migrating(&node.server, key);
        told_migrating = false;
        let pop = take.deadline.is_some() && !single && !woken;
        let how = TakeHow { join: take.deadline.is_some(), front: woken, owner: take.owner, pop_follows: pop };
        woken = false;
        let mut cmds = vec![step(SharedOp::Take { ttl_ms: take.ttl_ms, place_ms, grant_ms: GRANT_MS, how }, single)];
        if let (true, Some(deadline)) = (pop, take.deadline) {
            let timeout_ms = block_ms(take.check, deadline);
            cmds.push(step(SharedOp::Wait { timeout_ms, ttl_ms: take.ttl_ms, grant_ms: GRANT_MS }, false));
        }
        let sent = Instant::now();
        let reqs: Vec<&dyn Request> = cmds.iter().map(|s| s as &dyn Request).collect();
        let votes = exchange(&[Job { node, reqs: &reqs }], limits).swap_remove(0);
        let mut failure = None;
        for (i, vote) in votes.iter().enumerate() {
            match vote {
                Vote::Got(reply) if i == 0 => {
                    if let Some((code, others)) = verdict(reply) {
                        wake(node, key, &base, &others, limits);
                        match code {
                            1 => return confirmed(take.ttl_ms, sent),
                            // A change of mode never waits.
                            2 => return Outcome::Refused,
                            _ => {}
                        }
                    }
                }
                Vote::Got(reply) => {
                    woken = popped(reply) == Some(b"h");
                    note(if woken { WAITED | HANDED } else { WAITED });
                }
                Vote::Failed(e) => failure = failure.or_else(|| Some(e.clone())),
                _ => {}
            }
        }
        if votes.iter().any(|v| matches!(v, Vote::Got(_))) {
            outage.reached();
        }
        // The slot is being migrated: the single-key way, at once (a take
        // without a timeout too).
        if let Some(e) = failure.take_if(|e| matches!(e.cause, Cause::SlotUnstable { .. })) {
            if single {
                failure = Some(e);
            } else {
                told_migrating = true;
                continue;
            }
        }
        let Some(deadline) = take.deadline else {
            return failure.map_or(Outcome::Refused, Outcome::failed);
        };
        let mut me = Waiter { node, key, token, claim, ttl_ms: take.ttl_ms, limits };
        match failure {
            Some(e) => {
                if let Err(why) = outage.failed(e, deadline, take.check) {
                    return stop(why, &mut me);
                }
            }
            None => outage.over(),
        }
        if single && Instant::now() < deadline {
            let pause = take.check.min(MIGRATING_POLL);
            if wait::sleep_until(deadline.min(Instant::now() + pause)).is_err() {
                return stop(Stop::Interrupted, &mut me);
            }
        }
        if !woken && Instant::now() >= deadline {
            return leave(node, key, token, claim, take.ttl_ms, limits);
        }
    }
}

/// A waiter in the queue of the shared lock `key`, as it leaves.
struct Waiter<'a> {
    node: &'a Node,
    key: &'a [u8],
    token: &'a str,
    claim: Claim,
    ttl_ms: i64,
    limits: &'a Limits,
}

impl Leaving for Waiter<'_> {
    fn leave(&mut self) -> Outcome {
        leave(self.node, self.key, self.token, self.claim, self.ttl_ms, self.limits)
    }

    /// A hold handed to us as PHP's time limit ended the wait is given back at once.
    fn give_back(&mut self) {
        release(self.node, self.key, self.token, self.claim, false, self.limits);
    }
}

/// Leaves the queue; a hold may have been handed to us meanwhile (then it
/// is ours). Whoever now fits is let in and woken.
fn leave(node: &Node, key: &[u8], token: &str, claim: Claim, ttl_ms: i64, limits: &Limits) -> Outcome {
    let base = Base::of(key);
    let member = claim.member(token);
    let step = |op, single| Step { op, key, base: &base, member: &member, token, single };
    let sent = Instant::now();
    match ask(node, &step(SharedOp::Leave { ttl_ms, grant_ms: GRANT_MS, back: false }, false), limits) {
        Vote::Got(reply) => match verdict(&reply) {
            Some((code, others)) => {
                wake(node, key, &base, &others, limits);
                if code == 1 { confirmed(ttl_ms, sent) } else { Outcome::Refused }
            }
            None => Outcome::Refused,
        },
        // The slot is being migrated: a hold may have been handed to us all
        // the same (our place in the queue runs out by itself).
        Vote::Failed(e) if matches!(e.cause, Cause::SlotUnstable { .. }) => {
            let sent = Instant::now();
            held(ask(node, &step(SharedOp::Extend { ttl_ms, raise: false, find: false }, true), limits), ttl_ms, sent)
        }
        Vote::Failed(e) => Outcome::failed(e),
        _ => Outcome::Refused,
    }
}

/// Wakes the waiters whose members were let in (best effort: a waiter not
/// woken finds its grant at its next look).
fn wake(node: &Node, key: &[u8], base: &Base<'_>, members: &[Vec<u8>], limits: &Limits) {
    if members.is_empty() {
        return;
    }
    let step = Step { op: SharedOp::Wake { members, grant_ms: GRANT_MS }, key, base, member: "", token: "", single: false };
    ask(node, &step, limits);
}

/// The token of a hold's member (`<mode><limit>:<weight>|<token>`).
pub fn token_of(member: &[u8]) -> &[u8] {
    member.iter().position(|&b| b == b'|').map_or(member, |i| &member[i + 1..])
}

/// Gives up the hold of `token` (`find`: in whatever mode it holds) and lets
/// in the waiters that now fit.
pub fn release(node: &Node, key: &[u8], token: &str, claim: Claim, find: bool, limits: &Limits) -> Outcome {
    let base = Base::of(key);
    let member = claim.member(token);
    let mut single = topology::migrating(&node.server, key);
    loop {
        let step = Step { op: SharedOp::Release { grant_ms: GRANT_MS, find }, key, base: &base, member: &member, token, single };
        return match ask(node, &step, limits) {
            Vote::Got(reply) => match verdict(&reply) {
                Some((code, others)) => {
                    wake(node, key, &base, &others, limits);
                    if code == 1 { Outcome::Confirmed { validity_ms: 0.0 } } else { Outcome::Refused }
                }
                None => Outcome::Refused,
            },
            Vote::Failed(e) if !single && single_key_only(&e.cause) => {
                single = true;
                continue;
            }
            Vote::Failed(e) => Outcome::failed(e),
            _ => Outcome::Refused,
        };
    }
}

/// Sets the lease of the hold of `token` to `ttl_ms` (`raise`: only
/// longer; 0: only whether it still holds). `find`: in whatever mode.
pub fn extend(node: &Node, key: &[u8], token: &str, claim: Claim, ttl_ms: i64, raise: bool, find: bool, limits: &Limits) -> Outcome {
    let (base, member) = (Base::of(key), claim.member(token));
    let step = Step { op: SharedOp::Extend { ttl_ms, raise, find }, key, base: &base, member: &member, token, single: true };
    let sent = Instant::now();
    held(ask(node, &step, limits), ttl_ms, sent)
}

/// Whether the server extended the hold (its answer to an `Extension`).
pub fn extended(vote: &Vote) -> bool {
    matches!(vote, Vote::Got(Reply::Int(1)))
}

/// The holds of `key` and its waiters, in one round trip.
pub fn inspect(node: &Node, key: &[u8], limits: &Limits) -> Result<Holds, Failure> {
    let base = Base::of(key);
    let step = Step { op: SharedOp::Inspect, key, base: &base, member: "", token: "", single: false };
    match ask(node, &step, limits) {
        Vote::Got(reply) => Holds::parse(&reply).ok_or(Failure::Unexpected),
        Vote::Failed(e) => Err(Failure::of(e)),
        _ => Err(Failure::Unexpected),
    }
}
