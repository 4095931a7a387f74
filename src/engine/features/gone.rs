//! The masters a call leaves out. One whose reply to a step of ours did
//! not come in time (or made no sense) may still run it later, after a step
//! sent on a new connection: a network that delivers late (a retransmission
//! once a partition heals) can reorder the two. A late `SET` brings its
//! release behind it, and a late look or leave can hand on a `K`: either
//! would take away a part that a later round of ours counted. So that a
//! majority of ours never counts such a master, it is left out (a failed
//! vote) for the rest of the call: its later attempts, and the queue it
//! waits in. A refused or closed connection ran nothing late.
//!
//! The process' other waiting calls leave it out too for a while: a master
//! that accepts and then says nothing (stopped, frozen) would otherwise cost
//! every call whose look it could decide a whole node timeout. (A late step
//! of another call cannot hand on our `K`: it names that call's token.)

use std::time::{Duration, Instant};

use super::fan_out;
use crate::engine::error::{Cause, NodeError};
use crate::engine::net::conn::Limits;
use crate::engine::net::recall::Recall;
use crate::engine::round::{Node, Request, Until, Vote};

/// The masters whose reply did not come in time, for the process' later
/// waiting calls. Leaving out costs nothing while a majority of the others
/// answers; past it, one call tries the master again.
static SLOW: Recall<NodeError> = Recall::new(Duration::from_secs(5));

/// One call's masters left out, by their place in its `nodes`.
#[derive(Clone, Debug, Default)]
pub struct Gone(Vec<Option<NodeError>>);

impl Gone {
    /// For a waiting call: also those of `nodes` that missed a reply a
    /// moment ago, by a timeout at least as long as ours.
    pub fn recall(&mut self, nodes: &[Node]) {
        self.0.resize(nodes.len(), None);
        for (slot, node) in self.0.iter_mut().zip(nodes) {
            if slot.is_none() {
                *slot = SLOW.known(&node.server.addr, node.timeout);
            }
        }
    }

    /// Whether the `i`-th node is left out.
    pub fn is_out(&self, i: usize) -> bool {
        self.0.get(i).is_some_and(Option::is_some)
    }

    /// A round of `req` on the nodes that `only` picks and that are not
    /// left out; the votes in `nodes`' order: a failed vote for each one
    /// left out, `Unanswered` for one not picked.
    pub fn round(&mut self, nodes: &[Node], req: &dyn Request, limits: &Limits, until: Until, only: impl Fn(usize) -> bool) -> (Vec<Vote>, Instant) {
        self.0.resize(nodes.len(), None);
        let picked: Vec<usize> = (0..nodes.len()).filter(|&i| self.0[i].is_none() && only(i)).collect();
        let live: Vec<Node> = picked.iter().map(|&i| nodes[i].clone()).collect();
        let (answers, ended) = if live.is_empty() { (Vec::new(), Instant::now()) } else { fan_out(&live, req, limits, until) };
        self.note_failed(nodes, picked.iter().copied(), &answers);
        let mut votes: Vec<Vote> = self.0.iter().map(|g| g.clone().map_or(Vote::Unanswered, Vote::Failed)).collect();
        for (i, vote) in picked.into_iter().zip(answers) {
            votes[i] = vote;
        }
        (votes, ended)
    }

    /// Notes the failed ones of `answers`, the votes of the `nodes` that
    /// `at` names, in order (a round on some of them).
    pub fn note_failed(&mut self, nodes: &[Node], at: impl IntoIterator<Item = usize>, answers: &[Vote]) {
        for (i, vote) in at.into_iter().zip(answers) {
            if let (Some(node), Vote::Failed(e)) = (nodes.get(i), vote) {
                self.note(node, i, e);
            }
        }
    }

    /// Leaves out `node` (the `i`-th) after its step failed with `e`, when
    /// that step may still run late.
    pub fn note(&mut self, node: &Node, i: usize, e: &NodeError) {
        if !matches!(e.cause, Cause::Timeout(_) | Cause::Protocol(_) | Cause::Garbled(_)) {
            return;
        }
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i].get_or_insert_with(|| e.clone());
        if let Cause::Timeout(waited) = e.cause {
            SLOW.remember(&node.server.addr, waited, e.clone());
        }
    }
}
