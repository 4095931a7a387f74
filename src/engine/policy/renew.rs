//! The renewals themselves: the watchdog (watchdog.rs) decides when; this
//! file sets the TTLs. Whatever is due at once goes in one round: the locks
//! on one server without replicas to wait for (mutexes, shared locks) are
//! pipelined, all servers at once; a RedLock quorum or a renewal that waits
//! for replicas has a round of its own. One round trip per lock would renew
//! only a few thousand locks a second, and a process holding more than that
//! per third of their TTL would lose them.

use std::time::{Duration, Instant};

use super::batch::Batch;
use crate::engine::error::{Acked, NodeError};
use super::kinds::{Kind, Parts, Target};
use crate::engine::features::replicas::{replicas_have, Replicas};
use crate::engine::round::quorum::Outcome;
use crate::engine::net::conn::Limits;
use crate::engine::round::{Node, Request, Vote};

/// A lock to keep renewed.
#[derive(Clone, Debug)]
pub struct Renewal {
    pub nodes: Vec<Node>,
    pub key: Vec<u8>,
    pub token: String,
    pub ttl_ms: i64,
    pub limits: Limits,
    /// Renewals end so that the lock expires this long after it was taken.
    pub max_hold: Option<Duration>,
    /// A renewal counts once this many replicas have it (`wait_replicas`).
    pub replicas: Option<Replicas>,
    /// What kind of lock (its kind renews it).
    pub kind: Kind,
}

impl Renewal {
    fn target(&self) -> Target<'_> {
        // A renewal extends by token alone (a shared hold in whatever mode it
        // holds now: kinds/shared.rs), so whose token it is does not matter.
        Target { nodes: &self.nodes, key: &self.key, token: &self.token, for_owner: false }
    }
}

/// What one renewal found.
pub(super) enum Found {
    /// The TTL now runs at least until `good_until`.
    Renewed { good_until: Instant, ttl: Duration },
    Refused,
    Failed(Vec<NodeError>),
    Capped,
}

/// The TTL a renewal sets now: the lock's, cut so that it ends at the cap
/// (`None`: the cap is reached).
fn ttl_now(r: &Renewal, taken: Instant, now: Instant) -> Option<i64> {
    match r.max_hold {
        Some(max_hold) => {
            let left = (taken + max_hold).saturating_duration_since(now).as_millis() as i64;
            (left > 0).then(|| r.ttl_ms.min(left))
        }
        None => Some(r.ttl_ms),
    }
}

/// Whether a renewal can share a pipelined round: one server, no replicas.
fn pipelined(r: &Renewal) -> bool {
    r.nodes.len() == 1 && r.replicas.is_none()
}

/// Renews every lock of `due` (each with when it was taken); one finding each.
pub(super) fn renew_all(due: &[(Renewal, Instant)]) -> Vec<Found> {
    let start = Instant::now();
    let ttls: Vec<Option<i64>> = due.iter().map(|(r, taken)| ttl_now(r, *taken, start)).collect();
    let limits = due.iter().find(|(r, _)| pipelined(r)).map(|(r, _)| r.limits.clone());
    let together = |i: usize| ttls[i].is_some() && pipelined(&due[i].0) && Some(&due[i].0.limits) == limits.as_ref();
    // The requests are the kinds' own (as when one lock is extended).
    let parts: Vec<Parts<'_>> = due.iter().map(|(r, _)| Parts::of(&r.kind, &r.key, &r.token)).collect();
    let reqs: Vec<Option<Box<dyn Request + '_>>> = (0..due.len())
        .map(|i| {
            let (r, ttl_ms) = (&due[i].0, ttls[i]?);
            together(i).then(|| r.kind.ops().renewal_request(r.target(), &parts[i], ttl_ms))
        })
        .collect();
    let mut batch = Batch::default();
    for (i, req) in reqs.iter().enumerate() {
        if let (Some(req), Some(node)) = (req, due[i].0.nodes.first()) {
            batch.add(i, node, req.as_ref());
        }
    }
    let mut found: Vec<Option<Found>> = (0..due.len()).map(|_| None).collect();
    if let Some(limits) = &limits {
        for (_, i, vote) in batch.run(limits) {
            let renewed = |ttl_ms: i64| Found::Renewed { good_until: start + ms(ttl_ms), ttl: ms(ttl_ms) };
            found[i] = Some(match (vote, ttls[i]) {
                (Vote::Failed(e), _) => Found::Failed(vec![e]),
                (Vote::Unanswered, _) => Found::Failed(Vec::new()),
                (vote, Some(ttl_ms)) if due[i].0.kind.ops().renewed(&vote) => renewed(ttl_ms),
                // Said again in a round of its own before it counts: in a
                // pipeline that met a Cluster's ASK, the requests behind it
                // are sent on to the importing master, where a key not yet
                // migrated is missing.
                _ => continue,
            });
        }
    }
    found.into_iter().enumerate().map(|(i, f)| f.unwrap_or_else(|| renew(&due[i].0, due[i].1))).collect()
}

fn ms(ttl_ms: i64) -> Duration {
    Duration::from_millis(ttl_ms.max(0) as u64)
}

/// One renewal in a round of its own.
fn renew(r: &Renewal, taken: Instant) -> Found {
    let start = Instant::now();
    let Some(ttl_ms) = ttl_now(r, taken, start) else { return Found::Capped };
    let ttl = ms(ttl_ms);
    let extended = r.kind.ops().renew(&r.target(), ttl_ms, &r.limits);
    match extended {
        Outcome::Confirmed { .. } => match (r.replicas, r.nodes.first()) {
            // Waited for at most a sixth of the TTL: one thread renews every lock.
            (Some(replicas), Some(node)) => {
                let sixth = Duration::from_millis((ttl_ms / 6).max(1) as u64);
                let replicas = Replicas { within: replicas.within.min(sixth), ..replicas };
                match replicas_have(node, &r.key, &r.token, replicas, Acked::Renewal, &r.limits) {
                    Ok(()) => Found::Renewed { good_until: start + ttl, ttl },
                    Err(e) => Found::Failed(vec![e]),
                }
            }
            _ => Found::Renewed { good_until: start + ttl, ttl },
        },
        Outcome::Refused => Found::Refused,
        Outcome::Unreachable(errors) => Found::Failed(errors),
        Outcome::Interrupted => Found::Failed(Vec::new()),
    }
}
