//! RedLock: one key on N independent nodes, each call one quorum round
//! (`features::lease`).

use super::{Kind, LockKind, Parts, Target};
use crate::engine::features::lease::{Lease, Patience};
use crate::engine::features::owner::{Op, Owned};
use crate::engine::features::ownership::{Ask, Question};
use crate::engine::features::ask;
use crate::engine::net::conn::Limits;
use crate::engine::protocol::resp::Reply;
use crate::engine::round::quorum::Outcome;
use crate::engine::round::{Request, Vote};

pub struct Quorum;

/// The plain key's lease (RedLock's, and the mutex's outside its queue).
pub(super) fn lease<'a>(at: &Target<'a>) -> Lease<'a> {
    Lease { nodes: at.nodes, key: at.key, token: at.token, refresh_own: at.for_owner }
}

/// Whether our token still holds the plain key on its (single) node,
/// its TTL raised to at least `ttl_ms` when > 0.
pub(super) fn still_mine(at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome {
    let Some(node) = at.node() else { return Outcome::Refused };
    match ask(node, &Question { ask: Ask::StillMine { ttl_ms }, key: at.key, token: at.token }, limits) {
        Vote::Got(Reply::Int(1)) => Outcome::Confirmed { validity_ms: ttl_ms as f64 },
        Vote::Failed(e) => Outcome::failed(e),
        _ => Outcome::Refused,
    }
}

impl LockKind for Quorum {
    fn acquire(&self, at: &Target<'_>, ttl_ms: i64, patience: Patience, limits: &Limits) -> (Outcome, Kind) {
        (lease(at).acquire(ttl_ms, patience, limits), Kind::Quorum)
    }

    fn release(&self, at: &Target<'_>, limits: &Limits) -> Outcome {
        lease(at).release(limits).outcome
    }

    fn set_ttl(&self, at: &Target<'_>, ttl_ms: i64, _raise: bool, limits: &Limits) -> Outcome {
        lease(at).extend(ttl_ms, limits).outcome
    }

    fn still_mine(&self, at: &Target<'_>, ttl_ms: i64, limits: &Limits) -> Outcome {
        still_mine(at, ttl_ms, limits)
    }

    fn release_request<'a>(&'a self, at: Target<'a>, _parts: &'a Parts<'a>) -> Box<dyn Request + 'a> {
        Box::new(Owned { op: Op::Release, key: at.key, token: at.token })
    }

    fn renewal_request<'a>(&'a self, at: Target<'a>, _parts: &'a Parts<'a>, ttl_ms: i64) -> Box<dyn Request + 'a> {
        Box::new(lease(&at).extension(ttl_ms))
    }
}
