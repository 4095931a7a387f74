//! Many requests, each for its own nodes, in few rounds: every server gets
//! its requests pipelined, a thousand at a time, all servers at once, so the
//! whole costs one round trip per thousand locks (a server that does not
//! answer: one connect and one read timeout, however many locks there are).
//! On a Cluster a pipeline goes to the master of its first key, so there
//! each slot gets its own: thousands of locks under one hash tag are one
//! pipeline, not thousands of connections.

use std::collections::HashMap;

use crate::engine::features::exchange;
use crate::engine::net::conn::Limits;
use crate::engine::net::dsn::{Route, Server};
use crate::engine::protocol::slot::slot;
use crate::engine::round::{Job, Node, Request, Vote};

#[derive(Default)]
pub(super) struct Batch<'a> {
    /// Per pipeline: its node, its requests, and whose they are.
    servers: Vec<(Node, Vec<&'a dyn Request>, Vec<usize>)>,
    /// The servers seen (few), and the pipeline of each (server, Cluster slot).
    seen: Vec<Server>,
    pipelines: HashMap<(usize, Option<u16>), usize>,
}

impl<'a> Batch<'a> {
    /// Adds request `i` for `node`; returns the pipeline it goes in.
    pub fn add(&mut self, i: usize, node: &Node, req: &'a dyn Request) -> usize {
        let server = match self.seen.iter().position(|s| *s == node.server) {
            Some(s) => s,
            None => {
                self.seen.push(node.server.clone());
                self.seen.len() - 1
            }
        };
        let slot = matches!(node.server.route, Route::Cluster(_)).then(|| slot(req.key()));
        let next = self.servers.len();
        let s = *self.pipelines.entry((server, slot)).or_insert(next);
        if s == next {
            self.servers.push((node.clone(), Vec::new(), Vec::new()));
        }
        self.servers[s].1.push(req);
        self.servers[s].2.push(i);
        s
    }

    pub fn node(&self, server: usize) -> &Node {
        &self.servers[server].0
    }

    /// Sends everything, `CHUNK` requests per pipeline at a time (all
    /// pipelines at once); returns every answer as (pipeline, request, vote).
    /// A pipeline whose every request of a chunk failed (a server down or
    /// silent) is not sent the rest: they fail the same way.
    pub fn run(&self, limits: &Limits) -> Vec<(usize, usize, Vote)> {
        let mut out = Vec::with_capacity(self.servers.iter().map(|(_, reqs, _)| reqs.len()).sum());
        let mut gave_up: Vec<Option<Vote>> = vec![None; self.servers.len()];
        let mut from = 0;
        while self.servers.iter().any(|(_, reqs, _)| from < reqs.len()) {
            let mut jobs = Vec::new();
            let mut sent = Vec::new();
            for (s, (node, reqs, whose)) in self.servers.iter().enumerate() {
                let to = reqs.len().min(from + CHUNK);
                if from >= to {
                    continue;
                }
                match &gave_up[s] {
                    Some(vote) => out.extend(whose[from..to].iter().map(|&i| (s, i, vote.clone()))),
                    None => {
                        jobs.push(Job { node, reqs: &reqs[from..to] });
                        sent.push((s, &whose[from..to]));
                    }
                }
            }
            if !jobs.is_empty() {
                for (votes, (s, whose)) in exchange(&jobs, limits).into_iter().zip(sent) {
                    if votes.iter().all(|v| matches!(v, Vote::Failed(_))) {
                        gave_up[s] = votes.first().cloned();
                    }
                    out.extend(votes.into_iter().zip(whose).map(|(vote, &i)| (s, i, vote)));
                }
            }
            from += CHUNK;
        }
        out
    }
}

/// Requests per pipeline at a time, and renewals per watchdog turn (the
/// rest go in the next turn, at once): what a server answers well within
/// one read timeout even when the host is starved of CPU (a pipeline of
/// 25,000 at once was not all written within it).
pub(super) const CHUNK: usize = 1000;
