//! Request end: whatever the request still holds is released in one
//! concurrent round (after an uncaught exception, `exit()` or a fatal error
//! too), or forgotten.

use std::sync::Arc;

use super::batch::Batch;
use super::kinds::Parts;
use super::metrics;
use super::registry::{self, Held};
use super::watchdog;
use crate::engine::features::waiting::single_key_only;
use crate::engine::net::conn::Limits;
use crate::engine::round::quorum::{quorum, Outcome};
use crate::engine::round::{Node, Vote};

/// Forgets every registered lock without releasing it.
pub fn forget_all() {
    watchdog::stop_all();
    registry::clear();
}

/// Releases every lock still held, in one round (`release_together`). The
/// registry is empty afterwards and every scope closed (the request that
/// owned them ended).
pub fn release_all(limits: &Limits) {
    watchdog::stop_all();
    release_together(&registry::take_request_locks(), limits);
}

/// Releases `locks` in one round: every server gets the releases of all its
/// locks pipelined, all servers at once, so the whole costs at most one
/// connect and one read timeout however many locks there are. Each release
/// is its kind's own (`kinds/`). Whether each release was answered by a
/// majority of its nodes (given back, or found no longer ours: either way
/// the lock is not ours now; else it ends with its TTL).
pub(super) fn release_together(locks: &[Arc<Held>], limits: &Limits) -> Vec<bool> {
    if locks.is_empty() {
        return Vec::new();
    }
    let parts: Vec<Parts<'_>> = locks.iter().map(|l| Parts::of(&l.kind, &l.key, &l.token)).collect();
    let releases: Vec<_> = locks.iter().zip(&parts).map(|(lock, parts)| lock.kind.ops().release_request(lock.target(), parts)).collect();
    let mut batch = Batch::default();
    for (i, (lock, release)) in locks.iter().zip(&releases).enumerate() {
        for node in &lock.nodes {
            let node = Node { server: node.server.clone(), timeout: limits.read, connect: limits.connect };
            batch.add(i, &node, release.as_ref());
        }
    }
    // The waiters that a release let in (shared locks) are woken in one more
    // round (a waiter not woken finds its grant at its next look).
    let mut answered = vec![0usize; locks.len()];
    let mut woken: Vec<(usize, usize, Vec<Vec<u8>>)> = Vec::new();
    // Where a release failed only for naming the queue's keys: the
    // single-key way, in one more round.
    let mut single = Vec::new();
    for (server, i, vote) in batch.run(limits) {
        if matches!(vote, Vote::Yes | Vote::No | Vote::Got(_)) {
            answered[i] += 1;
        }
        if matches!(&vote, Vote::Failed(e) if single_key_only(&e.cause)) {
            single.push((server, i));
        }
        if let Vote::Got(reply) = vote {
            let members = locks[i].kind.ops().let_in_by(&reply);
            if !members.is_empty() {
                woken.push((server, i, members));
            }
        }
    }
    let wakes: Vec<_> = woken
        .iter()
        .filter_map(|(server, i, members)| Some((*server, locks[*i].kind.ops().wake_request(&locks[*i].key, &parts[*i], members)?)))
        .collect();
    let mut wake_batch = Batch::default();
    for (i, (server, wake)) in wakes.iter().enumerate() {
        wake_batch.add(i, batch.node(*server), wake.as_ref());
    }
    wake_batch.run(limits);
    let plain: Vec<_> = single.iter().map(|&(_, i)| locks[i].kind.ops().single_key_release_request(locks[i].target(), &parts[i])).collect();
    let mut plain_batch = Batch::default();
    for (&(server, i), release) in single.iter().zip(&plain) {
        plain_batch.add(i, batch.node(server), release.as_ref());
    }
    for (_, i, vote) in plain_batch.run(limits) {
        if matches!(vote, Vote::Yes | Vote::No | Vote::Got(_)) {
            answered[i] += 1;
        }
    }
    let done: Vec<bool> = locks.iter().zip(answered).map(|(lock, n)| n >= quorum(lock.nodes.len())).collect();
    // Counted as given back (a release among many says no more).
    for (lock, _) in locks.iter().zip(&done).filter(|(_, done)| **done) {
        metrics::released(&lock.kind, &lock.key, lock.taken, &Outcome::Confirmed { validity_ms: 0.0 });
    }
    done
}
