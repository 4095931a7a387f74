//! The locks an operator asks about: found on every master with `SCAN …
//! TYPE` (a page of 1,000 buckets at a time, never `KEYS`), then each read
//! whole in one script, pipelined (`batch`). Read only, but for `evict`.
//! The cost is one pass over each master's keyspace per type (strings for
//! mutexes, sorted sets for shared locks), however few keys match.

use crate::engine::features::listing::{describe_reply, is_aux_key, scan_reply, Describe, Evict, LockInfo, Scan};
use crate::engine::error::{Cause, NodeError};
use crate::engine::features::{ask, endpoint_label};
use crate::engine::net::conn::Limits;
use crate::engine::protocol::resp::Reply;
use crate::engine::round::quorum::Failure;
use crate::engine::round::{Node, Vote};
use crate::engine::topology::masters;

use super::batch::Batch;

/// What `list` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Sorted by key.
    pub locks: Vec<LockInfo>,
    /// More keys matched than the limit let in.
    pub truncated: bool,
}

/// The lock keys `prefix` + something matching `pattern` (a `SCAN MATCH`
/// glob) on every master of `node`'s deployment, at most `limit` of them.
pub fn list(node: &Node, prefix: &[u8], pattern: &[u8], limit: usize, limits: &Limits) -> Result<Listing, Failure> {
    let pattern = &glob(prefix, pattern);
    let masters = masters(node, limits).map_err(|e| Failure::Unreachable(vec![NodeError::new(node.server.to_string(), Cause::Unresolved(e))]))?;
    let mut keys = Vec::new();
    let mut truncated = false;
    'masters: for server in masters {
        let master = Node { server, ..node.clone() };
        for kind in [&b"string"[..], b"zset"] {
            let mut cursor = b"0".to_vec();
            loop {
                let page = match ask(&master, &Scan { cursor: &cursor, pattern, kind }, limits) {
                    Vote::Got(reply) => scan_reply(&reply).ok_or(Failure::Unexpected)?,
                    Vote::Failed(e) => return Err(Failure::of(e)),
                    _ => return Err(Failure::Unexpected),
                };
                keys.extend(page.1.into_iter().filter(|k| !is_aux_key(k)));
                // Room for keys that turn out to hold no lock of ours.
                if keys.len() > limit.saturating_mul(2).saturating_add(100) {
                    truncated = true;
                    break 'masters;
                }
                if page.0 == b"0" {
                    break;
                }
                cursor = page.0;
            }
        }
    }
    keys.sort();
    keys.dedup();
    let mut locks = read(node, &keys, limits)?;
    locks.sort_by(|a, b| a.key.cmp(&b.key));
    truncated |= locks.len() > limit;
    locks.truncate(limit);
    Ok(Listing { locks, truncated })
}

/// `pattern` (a glob on keys without `prefix`) as a glob on whole keys: the
/// prefix's own glob characters escaped, so that they match only themselves.
fn glob(prefix: &[u8], pattern: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(prefix.len() + pattern.len());
    for &b in prefix {
        if matches!(b, b'*' | b'?' | b'[' | b']' | b'\\') {
            out.push(b'\\');
        }
        out.push(b);
    }
    out.extend_from_slice(pattern);
    out
}

/// The lock at `key`, `None` when it holds none.
pub fn describe(node: &Node, key: &[u8], limits: &Limits) -> Result<Option<LockInfo>, Failure> {
    Ok(read(node, &[key.to_vec()], limits)?.pop())
}

/// Drops the place of the waiter `token` from `key`'s queue: whether it was there.
pub fn evict(node: &Node, key: &[u8], token: &str, limits: &Limits) -> Result<bool, Failure> {
    match ask(node, &Evict { key, token }, limits) {
        Vote::Got(Reply::Int(n)) => Ok(n == 1),
        Vote::Failed(e) => Err(Failure::of(e)),
        _ => Err(Failure::Unexpected),
    }
}

/// Each key read in one script, all pipelined; the keys that hold no lock
/// (gone since the scan, or of another kind) are left out.
fn read(node: &Node, keys: &[Vec<u8>], limits: &Limits) -> Result<Vec<LockInfo>, Failure> {
    let reqs: Vec<Describe<'_>> = keys.iter().map(|key| Describe { key }).collect();
    let mut batch = Batch::default();
    for (i, req) in reqs.iter().enumerate() {
        batch.add(i, node, req);
    }
    let mut locks = Vec::with_capacity(keys.len());
    for (_, i, vote) in batch.run(limits) {
        match vote {
            Vote::Got(reply) => {
                let at = endpoint_label(node, &keys[i], limits);
                locks.extend(describe_reply(&keys[i], at, &reply));
            }
            Vote::Failed(e) => return Err(Failure::of(e)),
            _ => return Err(Failure::Unexpected),
        }
    }
    Ok(locks)
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn the_prefix_matches_only_itself() {
        assert_eq!(glob(b"lock:", b"orders:*"), b"lock:orders:*".to_vec());
        assert_eq!(glob(b"a*[b]:", b"?"), b"a\\*\\[b\\]:?".to_vec());
        assert_eq!(glob(b"", b"*"), b"*".to_vec());
    }
}
