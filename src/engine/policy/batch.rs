//! Many requests, each for its own nodes, in one round: every server gets
//! all of its requests pipelined, all servers at once, so the whole costs
//! one round trip (and at most one connect and one read timeout per server)
//! however many locks there are. On a Cluster each key is its own job: keys
//! may live on different masters.

use crate::engine::features::exchange;
use crate::engine::net::conn::Limits;
use crate::engine::round::{Job, Node, Request, Vote};

#[derive(Default)]
pub(super) struct Batch<'a> {
    /// Per server: its node, the requests pipelined to it, and whose they are.
    servers: Vec<(Node, Vec<&'a dyn Request>, Vec<usize>)>,
    /// The servers that take requests for any key (not a Cluster's), few.
    direct: Vec<usize>,
}

impl<'a> Batch<'a> {
    /// Adds request `i` for `node`; returns the server it goes to.
    pub fn add(&mut self, i: usize, node: &Node, req: &'a dyn Request) -> usize {
        let routed = node.server.is_routed();
        let known = self.direct.iter().copied().find(|&s| !routed && self.servers[s].0.server == node.server);
        match known {
            Some(s) => {
                self.servers[s].1.push(req);
                self.servers[s].2.push(i);
                s
            }
            None => {
                self.servers.push((node.clone(), vec![req], vec![i]));
                if !routed {
                    self.direct.push(self.servers.len() - 1);
                }
                self.servers.len() - 1
            }
        }
    }

    pub fn node(&self, server: usize) -> &Node {
        &self.servers[server].0
    }

    /// Sends everything; returns every answer as (server, request, vote).
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
