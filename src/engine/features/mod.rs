//! The features: what a lock is made of in Redis. Each owns its scripts,
//! its requests (the round's `Request`) and the decoding of their replies,
//! and reaches the servers through the round bound to this process'
//! topology (below). A new feature is a new module here.

pub mod lease;
pub mod listing;
pub mod owner;
pub mod ownership;
pub mod fair_quorum;
pub mod gone;
pub mod key_types;
pub mod queue;
pub mod waiting;
pub mod replicas;
pub mod shared;
pub mod token;

use std::time::Instant;

use crate::engine::net::conn::Limits;
use crate::engine::round::{self, Job, Node, Request, Until, Vote};
use crate::engine::topology::TOPOLOGY;

/// `round::fan_out` on this process' deployments.
pub fn fan_out(nodes: &[Node], req: &dyn Request, limits: &Limits, until: Until) -> (Vec<Vote>, Instant) {
    round::fan_out(nodes, req, &TOPOLOGY, limits, until)
}

/// `round::ask` on this process' deployments.
pub fn ask(node: &Node, req: &dyn Request, limits: &Limits) -> Vote {
    round::ask(node, req, &TOPOLOGY, limits)
}

/// `round::exchange` on this process' deployments.
pub fn exchange(jobs: &[Job<'_>], limits: &Limits) -> Vec<Vec<Vote>> {
    round::exchange(jobs, &TOPOLOGY, limits)
}

/// The server `key`'s requests go to on `node` (on a Sentinel or Cluster,
/// the one it names), for messages.
pub fn endpoint_label(node: &Node, key: &[u8], limits: &Limits) -> String {
    use crate::engine::round::Resolver;
    TOPOLOGY.endpoint(node, key, limits).map_or_else(|_| node.server.to_string(), |s| s.to_string())
}
