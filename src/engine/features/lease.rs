//! The plain lock over N nodes (Redis' distributed-lock algorithm): acquire,
//! release and extend one key through one token, each in one quorum round.
//! A single-server mutex is the same with N = 1.

use std::cell::Cell;
use std::time::{Duration, Instant};

use super::owner::{Op, Owned};
use super::token::jitter;
use super::gone::Gone;
use super::{fair_quorum, fan_out};
use super::waiting;
use crate::engine::error::Cause;
use crate::engine::net::conn::Limits;
use crate::engine::net::wait;
use crate::engine::round::quorum::{decide, Round};
use crate::engine::round::{Node, Until, Vote};
use crate::engine::round::quorum::{quorum, Outcome};

/// When to give up on a lock that others hold.
#[derive(Clone, Copy, Debug)]
pub enum Patience {
    /// Retry until `deadline`, pausing `pause` between attempts but never past
    /// the deadline. An outage ends the wait at once.
    Until { deadline: Instant, pause: Duration },
    /// `attempts` rounds in total with a random pause in `[delay/2, delay]`
    /// between them, none after the last.
    Attempts { attempts: u32, delay: Duration },
}

/// One key on a set of nodes, owned through one token.
pub struct Lease<'a> {
    pub nodes: &'a [Node],
    pub key: &'a [u8],
    pub token: &'a str,
    /// A key that already holds our token counts as taken (and gets the new
    /// TTL): for tokens the caller chose, which another process may hold.
    pub refresh_own: bool,
    /// Waiters may be queued on the key (RedLock's queue): what a failed
    /// round got is handed to the first of them, who may be blocked there
    /// waiting for just that; a plain delete would leave them asleep until
    /// their next look.
    pub hand_on: bool,
    /// The nodes this call's acquisition rounds leave out: a step of ours
    /// may still run there late (`gone`).
    pub gone: Cell<Gone>,
}

impl<'a> Lease<'a> {
    /// The lease of a token of our own making (nobody else holds it).
    pub fn new(nodes: &'a [Node], key: &'a [u8], token: &'a str) -> Self {
        Lease { nodes, key, token, refresh_own: false, hand_on: false, gone: Cell::default() }
    }

    /// The request `extend` sends to each node (a yes vote: extended), for
    /// a caller that pipelines many (the watchdog's renewals).
    pub fn extension(&self, ttl_ms: i64) -> Owned<'a> {
        self.request(Op::Extend { ttl_ms })
    }

    fn request(&self, op: Op) -> Owned<'a> {
        Owned { op, key: self.key, token: self.token }
    }
}

impl Lease<'_> {
    /// One acquisition round, on the nodes the call has not left out.
    /// After a failed round, whatever of ours may be on a node is released:
    /// where the node said yes, waiting for the answer (so nothing is left
    /// when this returns); where its answer was not waited for or the
    /// connection broke after sending, sent without waiting. A late node
    /// already got its release pipelined when it was abandoned (and is left
    /// out from now on); refusals, connection failures and error replies
    /// set nothing.
    pub fn try_acquire(&self, ttl_ms: i64, limits: &Limits) -> Round {
        let op = if self.refresh_own { Op::AcquireOrRefresh { ttl_ms } } else { Op::Acquire { ttl_ms } };
        // (A master that says nothing while the others have answered is
        // not waited for: our yes votes meanwhile hold up everybody.)
        let until = Until::Look(quorum(self.nodes.len()));
        let mut gone = self.gone.take();
        // (A node left out by an earlier attempt was sent nothing now: its
        // failed vote is that attempt's.)
        let sent: Vec<bool> = (0..self.nodes.len()).map(|i| !gone.is_out(i)).collect();
        let round = self.confirm(op, ttl_ms, limits, until, Some(&mut gone));
        if !matches!(round.outcome, Outcome::Confirmed { .. }) {
            let pick = |wanted: fn(&Vote) -> bool| -> Vec<usize> { (0..self.nodes.len()).filter(|&i| sent[i] && wanted(&round.votes[i])).collect() };
            let nodes_at = |at: &[usize]| -> Vec<Node> { at.iter().map(|&i| self.nodes[i].clone()).collect() };
            let said_yes = pick(|v| *v == Vote::Yes);
            let in_doubt = nodes_at(&pick(|v| match v {
                Vote::Unanswered => true,
                // An alias's SET may be the one that ran on its server.
                Vote::Failed(e) => matches!(e.cause, Cause::Io(_) | Cause::Protocol(_) | Cause::SameServer(_)),
                _ => false,
            }));
            let release = self.request(Op::Release);
            if !said_yes.is_empty() {
                let yes = nodes_at(&said_yes);
                let (back, _) = match self.hand_on {
                    true => fair_quorum::give_back(&yes, self.key, self.token, limits, Until::All),
                    false => fan_out(&yes, &release, limits, Until::All),
                };
                // (A give-back that may run late would take what a later round got.)
                gone.note_failed(self.nodes, said_yes, &back);
            }
            if !in_doubt.is_empty() && self.hand_on {
                // (Where the leave is refused, an ACL that allows the lock
                // key only, the plain release behind it deletes.)
                fair_quorum::give_back(&in_doubt, self.key, self.token, limits, Until::Sent);
            }
            if !in_doubt.is_empty() {
                fan_out(&in_doubt, &release, limits, Until::Sent);
            }
        }
        self.gone.set(gone);
        round
    }

    /// Acquisition rounds until the lock is held or `patience` runs out.
    pub fn acquire(&self, ttl_ms: i64, patience: Patience, limits: &Limits) -> Outcome {
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let outcome = self.try_acquire(ttl_ms, limits).outcome;
            let resume_at = match (&outcome, patience) {
                (Outcome::Refused, Patience::Until { deadline, pause }) => {
                    let now = Instant::now();
                    (now < deadline).then(|| now.checked_add(pause).map_or(deadline, |t| t.min(deadline)))
                }
                (Outcome::Refused | Outcome::Unreachable(_), Patience::Attempts { attempts, delay }) => {
                    (attempt < attempts).then(|| Instant::now() + jitter(delay))
                }
                _ => None,
            };
            match resume_at {
                None => return outcome,
                Some(at) => {
                    waiting::note(waiting::WAITED);
                    if wait::sleep_until(at).is_err() {
                        return Outcome::Interrupted;
                    }
                }
            }
        }
    }

    /// Owner-checked delete, sent to every node; confirmed when a majority
    /// deleted our token (the other replies are then not waited for).
    pub fn release(&self, limits: &Limits) -> Round {
        self.confirm(Op::Release, 0, limits, Until::Quorum(quorum(self.nodes.len())), None)
    }

    /// Owner-checked new TTL on every node; confirmed when a majority
    /// confirms in time.
    pub fn extend(&self, ttl_ms: i64, limits: &Limits) -> Round {
        self.confirm(Op::Extend { ttl_ms }, ttl_ms, limits, Until::Quorum(quorum(self.nodes.len())), None)
    }

    /// A round that counts a quorum of yes votes (within the validity, for a
    /// TTL) as success, and stops waiting as `until` says; on the nodes
    /// `gone` has not left out, where given.
    fn confirm(&self, op: Op, ttl_ms: i64, limits: &Limits, until: Until, gone: Option<&mut Gone>) -> Round {
        let start = Instant::now();
        let req = self.request(op);
        let (votes, ended) = match gone {
            Some(gone) => gone.round(self.nodes, &req, limits, until, |_| true),
            None => fan_out(self.nodes, &req, limits, until),
        };
        let ttl = (op != Op::Release).then_some(ttl_ms);
        let outcome = decide(&votes, ttl, ended.duration_since(start));
        Round { votes, outcome }
    }
}
