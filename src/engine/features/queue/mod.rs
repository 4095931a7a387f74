//! Waiting without polling (RedisMutexLock with a timeout): a FIFO queue in
//! Redis with direct hand-off.
//!
//! Next to the lock key K live `Q` (the waiters' tokens, in order), `T` (each
//! waiter's place: it is alive until then), one wake-up list `W` per waiter
//! and one shared wake-up list `N`, all in K's Cluster slot (`protocol::slot::Base`). A
//! waiter joins the queue and blocks on its own `W` and on `N` in the same
//! round trip. A release gives K to the first live waiter for a short
//! provisional grant and wakes only that waiter, which confirms: the lock
//! never falls free while anybody waits, so
//! nobody can jump the queue. A waiter that died is passed over once its
//! place ran out; one killed after it was woken never confirms, and its
//! grant runs out by itself. Every waiter looks at the queue again at least
//! every check interval (`$sleep`), and takes a lock that fell free while it
//! was first in line.
//!
//! Every key a script touches is declared in KEYS: the releaser names the
//! wake-up list of the waiter it expects first in line (its hint, learnt
//! when it got the lock). When another waiter is first (the lock was taken
//! while nobody waited, or the expected one left), the lock is still handed
//! to it, and its token goes onto `N`: Redis gives it to the waiter blocked
//! there longest, which is the first in line unless it was looking at the
//! queue just then. A waiter that pops another's token wakes that one by its
//! own list.

use std::time::{Duration, Instant};

use super::waiting::{block_ms, confirmed, held, interrupted, place_ms, single_key_only, stop, note, Leaving, Outage, HANDED, MIGRATING_POLL, WAITED};
use super::owner::{self, Owned};
use super::ownership::{Ask, Question};
use super::{ask, exchange};
use crate::engine::error::Cause;
use crate::engine::net::conn::Limits;
use crate::engine::net::wait;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::slot::Base;
use crate::engine::round::quorum::Outcome;
use crate::engine::round::{Job, Node, Request, Vote};
use crate::engine::topology;

mod foreign;
mod scripts;
mod steps;

pub use steps::{QueueOp, Step};
use foreign::Foreign;
use steps::woken;

/// How long a hand-off is provisional: a waiter woken but dead never
/// confirms, and the lock falls free after this.
pub const GRANT: Duration = Duration::from_millis(100);

/// What the release of a lock taken by a waiter needs to hand it over: the
/// waiter expected first in line after us ('' if none), its hint of whom to
/// wake (not to be taken for a waiter's place in the queue).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hint {
    pub expected: String,
}

/// Waits in the queue of `key` on `node` until the lock is ours or
/// `deadline`, looking again at least every `check`. A server that cannot
/// be reached on the first step ends the wait at once; one that goes away
/// while we wait (a restart) is waited out for one connect and read timeout.
pub fn acquire(node: &Node, key: &[u8], token: &str, ttl_ms: i64, deadline: Instant, check: Duration, limits: &Limits) -> (Outcome, Hint) {
    let base = Base::of(key);
    let mut outage = Outage::new(limits);
    // `passed_on`: a wake-up we popped from `N` for another waiter, passed
    // on by its own list in our next write.
    let mut me = Waiter { node, key, token, base: &base, ttl_ms, passed_on: None, limits };
    // The last step was told that the key's slot is being migrated.
    let mut told_migrating = false;
    // Behind a holder that will not wake us: looking again soon.
    let mut foreign = Foreign::default();
    // Sized once: the server's tick does not change within a wait.
    let place_ms = place_ms(check, node, key, limits);
    loop {
        if told_migrating || topology::migrating(&node.server, key) {
            told_migrating = false;
            let sent = Instant::now();
            let failure = match ask(node, &Owned { op: owner::Op::AcquireOrRefresh { ttl_ms }, key, token }, limits) {
                Vote::Yes => return (confirmed(ttl_ms, sent), Hint::default()),
                Vote::Failed(e) => Some(e),
                _ => None,
            };
            let now = Instant::now();
            if failure.is_none() && wait::sleep_until(deadline.min(now + check.min(MIGRATING_POLL))).is_err() {
                return (interrupted(&mut me), Hint::default());
            }
            match failure {
                None => outage.reached(),
                Some(e) => {
                    if let Err(why) = outage.failed(e, deadline, check) {
                        return (stop(why, &mut me), Hint::default());
                    }
                }
            }
            if Instant::now() >= deadline {
                return me.leave_queue();
            }
            continue;
        }
        let step = |op| Step { op, key, token };
        let forward = me.passed_on.take();
        let mut cmds = passing_on(key, token, &base, forward.as_deref());
        let at = cmds.len();
        let pops = !foreign.polling();
        cmds.push(step(QueueOp::Enqueue { base: &base, ttl_ms, place_ms, pops }));
        if pops {
            cmds.push(step(QueueOp::Wait { base: &base, timeout_ms: block_ms(check, deadline), ttl_ms }));
        }
        let sent = Instant::now();
        let reqs = as_requests(&cmds);
        let votes = exchange(&[Job { node, reqs: &reqs }], limits).swap_remove(0);
        let wake = match votes.get(at + 1) {
            Some(Vote::Got(reply)) => woken(reply),
            _ => None,
        };
        let look_again = foreign.after(
            match &votes[at] {
                Vote::Got(Reply::Int(i)) => Some(*i),
                _ => None,
            },
            check,
        );
        let failure = match (&votes[at], wake) {
            (Vote::Got(Reply::Bulk(next)), _) => return (confirmed(ttl_ms, sent), Hint { expected: text(next) }),
            (_, Some(wake)) if wake == b"h" || wake == token.as_bytes() => {
                note(WAITED | HANDED);
                let sent = Instant::now();
                match ask(node, &step(QueueOp::Confirm { base: &base, ttl_ms, place_ms }), limits) {
                    Vote::Got(Reply::Bulk(next)) => return (confirmed(ttl_ms, sent), Hint { expected: text(&next) }),
                    Vote::Failed(e) => Some(e),
                    _ => None,
                }
            }
            _ => {
                // Another waiter's token from `N` (an `a` of ours left over
                // from a broken round, or the `f` that ended our pop behind
                // a foreign holder, needs nothing).
                me.passed_on = wake.filter(|w| *w != b"a" && *w != b"f").map(text);
                votes.iter().find_map(|v| match v {
                    Vote::Failed(e) => Some(e.clone()),
                    _ => None,
                })
            }
        };
        // Answers before a failure (we joined, then the server went away
        // while we waited) mean the server was there.
        if votes.iter().any(|v| matches!(v, Vote::Got(_))) {
            outage.reached();
        }
        match failure {
            Some(e) if matches!(e.cause, Cause::SlotUnstable { .. }) => {
                told_migrating = true;
                continue;
            }
            Some(e) => {
                if let Err(why) = outage.failed(e, deadline, check) {
                    return (stop(why, &mut me), Hint::default());
                }
            }
            None => outage.over(),
        }
        note(WAITED);
        if Instant::now() >= deadline {
            return me.leave_queue();
        }
        if let Some(pause) = look_again {
            if wait::sleep_until(deadline.min(Instant::now() + pause)).is_err() {
                return (interrupted(&mut me), Hint::default());
            }
        }
    }
}

/// A waiter in the queue of `key`, as it leaves.
struct Waiter<'a> {
    node: &'a Node,
    key: &'a [u8],
    token: &'a str,
    base: &'a Base<'a>,
    ttl_ms: i64,
    /// A wake-up for another waiter that we popped from `N`: it goes with
    /// our next write (or our leaving).
    passed_on: Option<String>,
    limits: &'a Limits,
}

impl Waiter<'_> {
    fn leave_queue(&mut self) -> (Outcome, Hint) {
        leave(self.node, self.key, self.token, self.base, self.ttl_ms, self.passed_on.take().as_deref(), self.limits)
    }
}

/// (A lock handed to us just as PHP's time limit ended the wait is not
/// given back here: it stays ours until its TTL.)
impl Leaving for Waiter<'_> {
    fn leave(&mut self) -> Outcome {
        self.leave_queue().0
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Leaves the queue; the lock may have been handed to us meanwhile.
/// A wake-up for another waiter that we popped from `N` goes with it.
fn leave(node: &Node, key: &[u8], token: &str, base: &Base<'_>, ttl_ms: i64, passed_on: Option<&str>, limits: &Limits) -> (Outcome, Hint) {
    let mut cmds = passing_on(key, token, base, passed_on);
    cmds.push(Step { op: QueueOp::Leave { base, ttl_ms }, key, token });
    let sent = Instant::now();
    let reqs = as_requests(&cmds);
    match exchange(&[Job { node, reqs: &reqs }], limits).swap_remove(0).pop() {
        Some(Vote::Got(Reply::Bulk(next))) => (confirmed(ttl_ms, sent), Hint { expected: text(&next) }),
        // The slot is being migrated: the lock may have been handed to us
        // all the same (our place in the queue runs out by itself).
        Some(Vote::Failed(e)) if matches!(e.cause, Cause::SlotUnstable { .. }) => {
            let sent = Instant::now();
            (held(ask(node, &Question { ask: Ask::StillMine { ttl_ms }, key, token }, limits), ttl_ms, sent), Hint::default())
        }
        Some(Vote::Failed(e)) => (Outcome::Unreachable(vec![e]), Hint::default()),
        _ => (Outcome::Refused, Hint::default()),
    }
}

/// The first steps of a write: waking, by its own list, the waiter whose
/// wake-up we popped from `N`, if any.
fn passing_on<'a>(key: &'a [u8], token: &'a str, base: &'a Base<'a>, head: Option<&'a str>) -> Vec<Step<'a>> {
    let mut cmds = Vec::with_capacity(3);
    if let Some(head) = head {
        cmds.push(Step { op: QueueOp::Wake { base, head }, key, token });
    }
    cmds
}

/// Releases a lock taken on `node`, handing it to the first live waiter
/// (`token` empty: whoever holds it). While the key's slot is being migrated
/// (or where an ACL lets us touch the lock key only) the hand-off cannot run:
/// the lock is deleted the single-key way, and the waiters find it free at
/// their next look.
pub fn release(node: &Node, key: &[u8], token: &str, hint: &Hint, limits: &Limits) -> Outcome {
    if !topology::migrating(&node.server, key) {
        let base = Base::of(key);
        let op = QueueOp::Handoff { base: &base, expected: &hint.expected };
        match ask(node, &Step { op, key, token }, limits) {
            Vote::Got(Reply::Int(1)) => return Outcome::Confirmed { validity_ms: 0.0 },
            // A migrating slot, or an ACL user whose key patterns cover the
            // lock key but not its queue's (`~lock:*`): the single-key way.
            Vote::Failed(e) if single_key_only(&e.cause) => {}
            Vote::Failed(e) => return Outcome::failed(e),
            _ => return Outcome::Refused,
        }
    }
    let op = if token.is_empty() { owner::Op::ForceDelete } else { owner::Op::Release };
    match ask(node, &Owned { op, key, token }, limits) {
        Vote::Yes => Outcome::Confirmed { validity_ms: 0.0 },
        Vote::Failed(e) => Outcome::failed(e),
        _ => Outcome::Refused,
    }
}

/// Steps as the round takes them.
fn as_requests<'s>(steps: &'s [Step<'s>]) -> Vec<&'s dyn Request> {
    steps.iter().map(|step| step as &dyn Request).collect()
}
