//! Request end: whatever the request still holds is released in one
//! concurrent round (after an uncaught exception, `exit()` or a fatal error
//! too), or forgotten.

use super::registry;
use super::watchdog;
use crate::engine::features::exchange;
use crate::engine::features::owner::{Op, Owned};
use crate::engine::features::queue::{QueueOp, Step};
use crate::engine::net::conn::Limits;
use crate::engine::protocol::slot::Base;
use crate::engine::round::{Job, Node, Request};

/// Forgets every registered lock without releasing it.
pub fn forget_all() {
    watchdog::stop_all();
    registry::clear();
}

/// Releases every lock still held, in one round: every server gets the
/// releases of all its locks pipelined, all servers at once, so the whole
/// costs at most one connect and one read timeout however many locks there
/// are. The registry is empty afterwards (the request that owned them ended).
pub fn release_all(limits: &Limits) {
    watchdog::stop_all();
    let locks = registry::take_request_locks();
    if locks.is_empty() {
        return;
    }
    let bases: Vec<Option<Base<'_>>> = locks.iter().map(|l| l.place.as_ref().map(|_| Base::of(&l.key))).collect();
    let releases: Vec<Release<'_>> = locks
        .iter()
        .zip(&bases)
        .map(|(lock, base)| {
            let (key, token) = (&lock.key[..], &lock.token[..]);
            match (&lock.place, base) {
                (Some(place), Some(base)) => Release::Handoff(Step { op: QueueOp::Handoff { base, expected: &place.expected }, key, token }),
                _ => Release::Plain(Owned { op: Op::Release, key, token }),
            }
        })
        .collect();
    let mut per_server: Vec<(Node, Vec<&dyn Request>)> = Vec::new();
    for (lock, release) in locks.iter().zip(&releases) {
        let cmd = release.request();
        for node in &lock.nodes {
            // On a Cluster, each key may live on another master: its own job.
            match per_server.iter_mut().find(|(n, _)| n.server == node.server && !n.server.is_routed()) {
                Some((_, cmds)) => cmds.push(cmd),
                None => {
                    let node = Node { server: node.server.clone(), timeout: limits.read, connect: limits.connect };
                    per_server.push((node, vec![cmd]));
                }
            }
        }
    }
    let jobs: Vec<Job<'_>> = per_server.iter().map(|(node, reqs)| Job { node, reqs }).collect();
    exchange(&jobs, limits);
}

/// A lock's release: handed to the first waiter where others may wait.
enum Release<'a> {
    Handoff(Step<'a>),
    Plain(Owned<'a>),
}

impl Release<'_> {
    fn request(&self) -> &dyn Request {
        match self {
            Release::Handoff(step) => step,
            Release::Plain(owned) => owned,
        }
    }
}

