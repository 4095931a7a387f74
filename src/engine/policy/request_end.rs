//! Request end: whatever the request still holds is released in one
//! concurrent round (after an uncaught exception, `exit()` or a fatal error
//! too), or forgotten.

use super::batch::Batch;
use super::registry::{self, Kind};
use super::watchdog;
use crate::engine::features::owner::{Op, Owned};
use crate::engine::features::queue::{QueueOp, Step};
use crate::engine::features::shared::{self, SharedOp};
use crate::engine::net::conn::Limits;
use crate::engine::protocol::slot::Base;
use crate::engine::round::{Node, Request, Vote};

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
    let bases: Vec<Base<'_>> = locks.iter().map(|l| Base::of(&l.key)).collect();
    let members: Vec<String> = locks
        .iter()
        .map(|l| match &l.kind {
            Kind::Shared(claim) => claim.member(&l.token),
            _ => String::new(),
        })
        .collect();
    let releases: Vec<Release<'_>> = locks
        .iter()
        .zip(&bases)
        .zip(&members)
        .map(|((lock, base), member)| {
            let (key, token) = (&lock.key[..], &lock.token[..]);
            match &lock.kind {
                Kind::Queued(place) => Release::Handoff(Step { op: QueueOp::Handoff { base, expected: &place.expected }, key, token }),
                Kind::Shared(_) => {
                    let op = SharedOp::Release { grant_ms: shared::GRANT_MS, find: false };
                    Release::Shared(shared::Step { op, key, base, member, token, single: false })
                }
                Kind::Quorum => Release::Plain(Owned { op: Op::Release, key, token }),
            }
        })
        .collect();
    let mut batch = Batch::default();
    for (i, (lock, release)) in locks.iter().zip(&releases).enumerate() {
        for node in &lock.nodes {
            let node = Node { server: node.server.clone(), timeout: limits.read, connect: limits.connect };
            batch.add(i, &node, release.request());
        }
    }
    // The waiters that shared releases let in are woken in one more round
    // (a waiter not woken finds its grant at its next look).
    let mut woken: Vec<(usize, usize, Vec<Vec<u8>>)> = Vec::new();
    for (server, i, vote) in batch.run(limits) {
        if let (Kind::Shared(_), Vote::Got(reply)) = (&locks[i].kind, vote) {
            if let Some((_, members)) = shared::verdict(&reply).filter(|(_, m)| !m.is_empty()) {
                woken.push((server, i, members));
            }
        }
    }
    let wakes: Vec<(usize, shared::Step<'_>)> = woken
        .iter()
        .map(|(server, i, members)| {
            let op = SharedOp::Wake { members, grant_ms: shared::GRANT_MS };
            (*server, shared::Step { op, key: &locks[*i].key, base: &bases[*i], member: "", token: "", single: false })
        })
        .collect();
    let mut wake_batch = Batch::default();
    for (i, (server, wake)) in wakes.iter().enumerate() {
        wake_batch.add(i, batch.node(*server), wake);
    }
    wake_batch.run(limits);
}

/// A lock's release: handed to the first waiter where others may wait.
enum Release<'a> {
    Handoff(Step<'a>),
    Shared(shared::Step<'a>),
    Plain(Owned<'a>),
}

impl Release<'_> {
    fn request(&self) -> &dyn Request {
        match self {
            Release::Handoff(step) => step,
            Release::Shared(step) => step,
            Release::Plain(owned) => owned,
        }
    }
}

