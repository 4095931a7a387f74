//! The round: requests sent to N servers at once, in one poll loop. Every
//! node connects (resolve, TCP or unix, TLS, AUTH/SELECT), writes and reads
//! without blocking, each against its own absolute deadlines: `connect` for
//! opening a connection, `timeout` for the reply from the moment the request
//! is written. A round costs one round trip (the slowest node that counts),
//! not N, and one node that never answers costs at most its own timeouts.
//!
//! The round knows requests and deployments only through its own two small
//! interfaces, `Request` (request.rs) and `Resolver` (resolve.rs).

use std::time::{Duration, Instant};

use crate::engine::error::NodeError;
use crate::engine::net::conn::Limits;
use crate::engine::net::dsn::Server;
use crate::engine::protocol::resp::Reply;

mod answers;
mod connect;
mod ctx;
mod hop;
mod leg;
pub mod quorum;
pub mod redirect;
pub mod request;
pub mod resolve;
mod run;
mod small;

pub use request::Request;
pub use run::STRAGGLER_MIN;
pub use resolve::Resolver;

/// A server and how long to wait for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub server: Server,
    /// For each reply, from the moment its request is written.
    pub timeout: Duration,
    /// For opening a connection: resolving, connecting, TLS and login.
    pub connect: Duration,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Vote {
    Yes,
    No,
    Failed(NodeError),
    /// Still in flight when the outcome was already decided.
    #[default]
    Unanswered,
    /// The reply to a request whose answer is data, not a vote.
    Got(Reply),
}

/// When a round is over (besides every node having answered or failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// As soon as `n` yes votes are in, or can no longer come.
    Quorum(usize),
    /// As `Quorum`, or once `n` nodes have answered (not failed) and the others, which
    /// alone could still make a quorum, have had as long again as those
    /// answers took (at least `STRAGGLER_MIN`, unless each of them came
    /// owing answers it has been silent on for that long: those come
    /// first): a waiter's look, which must
    /// not hold the grants it got for a whole node timeout while a stopped
    /// master says nothing. A straggler's connection is kept: what it runs
    /// late comes before the next step sent on it.
    Look(usize),
    /// As soon as every request is written: nobody waits for the answers.
    Sent,
    /// When every node has answered or failed.
    All,
}

/// One node's part of a round: the requests it gets, in order. On a Redis
/// Cluster they all go to the master of the first request's key: they are
/// for keys of one slot.
pub struct Job<'a> {
    pub node: &'a Node,
    pub reqs: &'a [&'a dyn Request],
}

/// Sends `req` to every node and collects votes `until` the round is over.
/// Returns the votes (in node order) and the instant the round ended.
pub fn fan_out(nodes: &[Node], req: &dyn Request, to: &dyn Resolver, limits: &Limits, until: Until) -> (Vec<Vote>, Instant) {
    let reqs = std::slice::from_ref(&req);
    let (votes, ended) = match nodes {
        [node] => run::run(&[Job { node, reqs }], to, limits, until),
        _ => run::run(&nodes.iter().map(|node| Job { node, reqs }).collect::<Vec<_>>(), to, limits, until),
    };
    (votes.into_iter().map(small::Small::into_first).collect(), ended)
}

/// One request to one node, and its answer.
pub fn ask(node: &Node, req: &dyn Request, to: &dyn Resolver, limits: &Limits) -> Vote {
    fan_out(std::slice::from_ref(node), req, to, limits, Until::All).0.swap_remove(0)
}

/// Several requests per node, all nodes at once; waits for every answer
/// (or each node's deadlines). Returns each node's votes, request by request.
pub fn exchange(jobs: &[Job<'_>], to: &dyn Resolver, limits: &Limits) -> Vec<Vec<Vote>> {
    run::run(jobs, to, limits, Until::All).0.into_iter().map(|votes| votes.to_vec()).collect()
}
