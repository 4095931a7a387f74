//! Many requests, each for its own nodes, in one round: every server gets
//! all of its requests pipelined, all servers at once, so the whole costs
//! one round trip (and at most one connect and one read timeout per server)
//! however many locks there are. On a Cluster a pipeline goes to the master
//! of its first key, so there each slot gets its own: thousands of locks
//! under one hash tag are one pipeline, not thousands of connections.

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

    /// Sends everything; returns every answer as (pipeline, request, vote).
    pub fn run(&self, limits: &Limits) -> Vec<(usize, usize, Vote)> {
        if self.servers.is_empty() {
            return Vec::new();
        }
        let jobs: Vec<Job<'_>> = self.servers.iter().map(|(node, reqs, _)| Job { node, reqs }).collect();
        let votes = exchange(&jobs, limits);
        let mut out = Vec::with_capacity(votes.iter().map(Vec::len).sum());
        for (s, (server_votes, (_, _, whose))) in votes.into_iter().zip(&self.servers).enumerate() {
            out.extend(server_votes.into_iter().zip(whose).map(|(vote, &i)| (s, i, vote)));
        }
        out
    }
}
