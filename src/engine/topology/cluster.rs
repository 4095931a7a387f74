//! A Redis Cluster's slot map, learned with `CLUSTER SLOTS`.

use super::probe::{probe, shown, Probe};
use super::Known;
use crate::engine::error::{Cause, NodeError};
use crate::engine::net::conn::Limits;
use crate::engine::net::dsn::Addr;
use crate::engine::net::wait;
use crate::engine::protocol::errors::ErrorKind;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::slot::SLOTS;
use crate::engine::round::{Node, Vote};

/// A slot no master serves.
const NOBODY: u16 = u16::MAX;

/// Where `addr` is in `masters`, added at the end if it is not there.
pub fn index_of(masters: &mut Vec<Addr>, addr: &Addr) -> usize {
    masters.iter().position(|m| m == addr).unwrap_or_else(|| {
        masters.push(addr.clone());
        masters.len() - 1
    })
}

/// The slot map, from the masters known so far, then the seeds, until one
/// answers.
pub fn slot_map(node: &Node, seeds: &[Addr], masters: &[Addr], limits: &Limits) -> Result<Known, String> {
    let mut asked: Vec<&Addr> = masters.iter().collect();
    for seed in seeds {
        if !asked.contains(&seed) {
            asked.push(seed);
        }
    }
    let mut why = Vec::new();
    for addr in asked {
        match probe(node, node.server.at(addr.clone()), Probe::ClusterSlots, limits) {
            Vote::Got(reply) => match parse_slots(&reply, addr) {
                Ok(known) => return Ok(known),
                Err(e) => why.push(format!("{addr}: {e}")),
            },
            Vote::Failed(NodeError { cause: Cause::Reply { kind: ErrorKind::ClusterDisabled, text: e }, .. }) => {
                why.push(format!("{addr} is not a cluster node ({e})"));
            }
            Vote::Failed(e) => why.push(e.to_string()),
            other => why.push(format!("{addr}: unexpected answer {other:?}")),
        }
        if wait::interrupted() {
            break;
        }
    }
    Err(format!("the slot map could not be learned: {}", why.join("; ")))
}

/// `CLUSTER SLOTS`: `[[start, end, [host, port, …], replicas…], …]`.
fn parse_slots(reply: &Reply, asked: &Addr) -> Result<Known, String> {
    let Reply::Array(ranges) = reply else { return Err("CLUSTER SLOTS did not answer with an array".into()) };
    let mut masters: Vec<Addr> = Vec::new();
    let mut slots = vec![NOBODY; SLOTS];
    for range in ranges {
        let bad = || format!("malformed CLUSTER SLOTS entry {}", shown(range));
        let Reply::Array(parts) = range else { return Err(bad()) };
        let (Some(Reply::Int(start)), Some(Reply::Int(end)), Some(Reply::Array(master))) = (parts.first(), parts.get(1), parts.get(2)) else {
            return Err(bad());
        };
        let (Some(Reply::Bulk(host)), Some(Reply::Int(port))) = (master.first(), master.get(1)) else { return Err(bad()) };
        let port = u16::try_from(*port).ok().filter(|&p| p > 0).ok_or_else(bad)?;
        // An empty or unknown host is the one asked.
        let host = match (String::from_utf8_lossy(host).into_owned(), asked) {
            (h, Addr::Tcp { host, .. }) if h.is_empty() || h == "?" => host.clone(),
            (h, _) => h,
        };
        let i = index_of(&mut masters, &Addr::Tcp { host, port });
        let (Ok(start), Ok(end), Ok(i)) = (usize::try_from(*start), usize::try_from(*end), u16::try_from(i)) else { return Err(bad()) };
        if start > end || end >= SLOTS {
            return Err(bad());
        }
        slots[start..=end].fill(i);
    }
    if masters.is_empty() {
        return Err("no slot is served (the cluster is not set up)".into());
    }
    Ok(Known::Slots { masters, slots })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tcp(host: &str, port: u16) -> Addr {
        Addr::Tcp { host: host.into(), port }
    }

    #[test]
    fn slot_maps_are_read_from_cluster_slots() {
        let node = |host: &str, port| Reply::Array(vec![Reply::Bulk(host.into()), Reply::Int(port), Reply::Bulk(b"id".to_vec())]);
        let range = |a, b, master| Reply::Array(vec![Reply::Int(a), Reply::Int(b), master, node("r", 1)]);
        let reply = Reply::Array(vec![range(0, 5460, node("a", 7000)), range(5461, 16383, node("", 7001))]);
        let Ok(Known::Slots { masters, slots }) = parse_slots(&reply, &tcp("seed", 1)) else { panic!("not parsed") };
        assert_eq!(masters, [tcp("a", 7000), tcp("seed", 7001)]);
        assert_eq!((slots[0], slots[5460], slots[5461], slots[16383]), (0, 0, 1, 1));
        for bad in [
            Reply::Array(vec![range(5, 4, node("a", 1))]),
            Reply::Array(vec![range(0, 16384, node("a", 1))]),
            Reply::Array(vec![range(0, 1, node("a", 0))]),
            Reply::Array(vec![Reply::Int(1)]),
            Reply::Array(vec![]),
            Reply::Bulk(vec![]),
        ] {
            assert!(parse_slots(&bad, &tcp("seed", 1)).is_err(), "{bad:?}");
        }
    }
}
