//! RedLock that waits its turn: a fair queue over N independent masters
//! (docs/redlock-queue.md has the design, and why no two holders overlap
//! and the queue cannot livelock).
//!
//! A waiter carries one ticket to every master (its token's `since`, the
//! token as tie-break), so every master orders the waiters it knows the
//! same way. Each look is one round of `TAKE` on every master: held when a
//! majority said yes within the validity, as Redlock. Otherwise the parts
//! that became ours are given on (`YIELD`), and the waiter blocks on its
//! wake-up list on one master that answered, until a release grants it the
//! lock there or its look interval ends. A waiter that cannot reach a
//! majority keeps no place (it leaves, and tries again after a pause), so
//! that it holds nobody up.

use std::time::{Duration, Instant};

use super::token::jitter;
use super::waiting::{block_ms, note, place_ms, single_key_only, HANDED, WAITED};
use super::owner::{self, Owned};
use super::gone::Gone;
use super::{ask, fan_out};
use crate::engine::error::Cause;
use crate::engine::net::conn::Limits;
use crate::engine::net::wait;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::slot::Base;
use crate::engine::round::quorum::{decide, quorum, Outcome};
use crate::engine::round::{Node, Until, Vote};

mod scripts;
mod steps;

pub use steps::{Op, Step};

/// How long a hand-off is provisional: the woken waiter takes it with its
/// next look on every master (a round, not one command).
pub const GRANT: Duration = Duration::from_millis(200);

/// A waiter looks at least this often (and every `$retryDelay` when shorter).
pub const LOOK: Duration = Duration::from_millis(100);

/// The queue cannot run where the caller is: an ACL that allows the lock
/// key but not the queue's keys, a slot being migrated. The caller waits
/// the single-key way instead.
#[derive(Debug, PartialEq, Eq)]
pub struct NoQueue;

/// Waits in the queue of `key` on `nodes` until the lock is ours or
/// `deadline`. `pause`: between rounds that reached no majority. `gone`:
/// the call's masters left out so far (its failed attempt's), and those it
/// leaves out here when this returns.
pub fn acquire(nodes: &[Node], key: &[u8], token: &str, ttl_ms: i64, deadline: Instant, pause: Duration, gone: &mut Gone, limits: &Limits) -> Result<Outcome, NoQueue> {
    let Some(first) = nodes.first() else { return Ok(Outcome::Refused) };
    let base = Base::of(key);
    let me = Waiter { nodes, key, base: &base, token, limits };
    let ticket = ticket(token);
    let look = LOOK.min(pause.max(Duration::from_millis(1)));
    // A look comes every `look`, a round and a blocking pop that ends at a
    // server tick: the mutex's place, and a grant's time to take it.
    let place_ms = place_ms(look, first, key, limits) + GRANT.as_millis() as i64;
    let need = quorum(nodes.len());
    gone.recall(nodes);
    loop {
        let sent = Instant::now();
        let (votes, ended) = gone.round(nodes, &me.step(Op::Take { ticket, ttl_ms, place_ms }), limits, Until::Look(need), |_| true);
        let outcome = decide(&votes, Some(ttl_ms), ended.duration_since(sent));
        match outcome {
            // (Where it said no, our place stays until the unlock ends it.)
            Outcome::Confirmed { .. } => return Ok(outcome),
            Outcome::Interrupted => return Ok(me.interrupted(gone)),
            _ if votes.iter().any(|v| matches!(v, Vote::Failed(e) if single_key_only(&e.cause))) => {
                me.leave(gone, Until::Sent);
                return Err(NoQueue);
            }
            _ => {}
        }
        if votes.contains(&Vote::Yes) {
            gone.round(nodes, &me.step(Op::Yield { ticket, place_ms }), limits, Until::All, |i| votes[i] == Vote::Yes);
        }
        let next_here = |v: &Vote| *v == Vote::Got(Reply::Int(2));
        // A master whose answer the round did not wait for (decided
        // without it) was sent the look all the same, and runs it: we are
        // in its queue. Only a failed one keeps no place of ours.
        let answered = votes.iter().filter(|v| matches!(v, Vote::Yes | Vote::No | Vote::Unanswered) || next_here(v)).count();
        note(WAITED);
        if Instant::now() >= deadline {
            me.leave(gone, Until::All);
            return Ok(outcome);
        }
        if answered < need {
            // Not in the queue of a majority: no place kept anywhere (but
            // on a master left out, which this call sends nothing more).
            me.leave(gone, Until::Sent);
            let at = deadline.min(Instant::now() + jitter(pause));
            if wait::sleep_until(at).is_err() {
                return Ok(me.interrupted(gone));
            }
            if Instant::now() >= deadline {
                return Ok(outcome);
            }
            continue;
        }
        // Where we are next in line, a release wakes us; else anywhere that answered.
        let blocking = votes.iter().position(next_here);
        let Some(i) = blocking.or_else(|| votes.iter().position(|v| matches!(v, Vote::No | Vote::Yes))) else { continue };
        let vote = ask(&nodes[i], &me.step(Op::Wait { timeout_ms: block_ms(look, deadline) }), limits);
        if let Vote::Failed(e) = &vote {
            gone.note(&nodes[i], i, e);
        }
        match vote {
            // (`l`: a lower ticket came ahead of us there; look again.)
            Vote::Got(Reply::Array(popped)) if matches!(popped.get(1), Some(Reply::Bulk(v)) if v == b"h") => note(HANDED),
            Vote::Failed(e) if e.cause == Cause::Interrupted => return Ok(me.interrupted(gone)),
            // (An ACL without BLPOP, a server gone meanwhile: the next look
            // comes after the pop's time all the same, never at once.)
            Vote::Failed(_) if wait::sleep_until(deadline.min(Instant::now() + look)).is_err() => return Ok(me.interrupted(gone)),
            _ => {}
        }
    }
}

/// The unlock on `nodes`: our lock goes to the first live waiter where
/// others wait (a waiter blocked there wakes at once). `waiters`: the lock
/// came through the queue (see `Op::Release`). The votes in `nodes`'
/// order: yes where it was ours.
pub fn release(nodes: &[Node], key: &[u8], token: &str, waiters: bool, limits: &Limits, until: Until) -> (Vec<Vote>, Instant) {
    hand_on(Op::Release { waiters }, nodes, key, token, limits, until)
}

/// What a failed round got on `nodes` goes to the first live waiter there,
/// who may be blocked there for just that. (As a leave: the unlock deletes
/// an unmarked value at once, and a waiter queued before our `SET NX` has
/// not marked it yet.)
pub fn give_back(nodes: &[Node], key: &[u8], token: &str, limits: &Limits, until: Until) -> (Vec<Vote>, Instant) {
    hand_on(Op::Leave, nodes, key, token, limits, until)
}

/// `op` on `nodes`; where the queue's keys cannot be touched (an ACL that
/// allows the lock key only), the plain owner-checked delete there.
fn hand_on(op: Op, nodes: &[Node], key: &[u8], token: &str, limits: &Limits, until: Until) -> (Vec<Vote>, Instant) {
    let base = Base::of(key);
    let (mut votes, ended) = fan_out(nodes, &Step { op, key, base: &base, token, grant: GRANT }, limits, until);
    let single: Vec<usize> = (0..votes.len()).filter(|&i| matches!(&votes[i], Vote::Failed(e) if single_key_only(&e.cause))).collect();
    if !single.is_empty() {
        let nodes: Vec<Node> = single.iter().map(|&i| nodes[i].clone()).collect();
        let (again, _) = fan_out(&nodes, &Owned { op: owner::Op::Release, key, token }, limits, Until::All);
        single.into_iter().zip(again).for_each(|(i, vote)| votes[i] = vote);
    }
    (votes, ended)
}

/// Releases our lock on every master, handing it to the first live waiter
/// where others wait: confirmed when a majority said it was ours.
pub fn release_step<'a>(key: &'a [u8], base: &'a Base<'a>, token: &'a str, waiters: bool) -> Step<'a> {
    Step { op: Op::Release { waiters }, key, base, token, grant: GRANT }
}

/// The ticket a waiter carries to every master: its token's `since` (the
/// Unix ms its `lock()` began); 0 for a token of another shape.
pub fn ticket(token: &str) -> i64 {
    token.rsplit(':').next().and_then(|s| s.parse().ok()).unwrap_or(0)
}

struct Waiter<'a> {
    nodes: &'a [Node],
    key: &'a [u8],
    base: &'a Base<'a>,
    token: &'a str,
    limits: &'a Limits,
}

impl Waiter<'_> {
    fn step(&self, op: Op) -> Step<'_> {
        Step { op, key: self.key, base: self.base, token: self.token, grant: GRANT }
    }

    /// Our place ends on every master but those left out (which this call
    /// sends nothing more), and a lock handed to us meanwhile goes on to the
    /// next waiter.
    fn leave(&self, gone: &mut Gone, until: Until) {
        gone.round(self.nodes, &self.step(Op::Leave), self.limits, until, |_| true);
    }

    /// PHP's time limit: leave (not cut short again), then hand control back.
    fn interrupted(&self, gone: &mut Gone) -> Outcome {
        let _quiet = wait::Quiet::begin();
        self.leave(gone, Until::All);
        Outcome::Interrupted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ticket_is_the_tokens_since() {
        assert_eq!(ticket("0123456789abcdef0123456789abcdef:web-1__job:4242:1764000000123"), 1_764_000_000_123);
        assert_eq!(ticket("owner-token"), 0);
    }
}
