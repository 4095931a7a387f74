//! Where a key's commands go on a Redis Cluster or a Sentinel-managed master.
//! What a process learned (the slot map, the master's address) is kept per
//! process and learned again when a server says it moved (`MOVED`), that it
//! is a replica now (`READONLY`), or cannot be reached. A Sentinel's answer
//! is also asked again every second: after a failover the former master
//! takes writes until the sentinels reconfigure it, seconds later, and a
//! process that kept using it meanwhile would hold locks nobody else sees.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use super::command::{Command, Op};
use super::conn::Limits;
use super::error::{Cause, NodeError};
use super::keys;
use super::per_process::PerProcess;
use super::pool;
use super::resp::{printable, Reply};
use super::round::{ask, Node, Vote};
use super::server::{Addr, Route, Sentinels, Server};

const SLOTS: usize = 16384;
const NOBODY: u16 = u16::MAX;

/// The questions asked to learn a deployment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe<'a> {
    /// `CLUSTER SLOTS`.
    ClusterSlots,
    /// `SENTINEL GET-MASTER-ADDR-BY-NAME name`.
    MasterOf(&'a str),
    /// `ROLE`.
    Role,
}

impl Probe<'_> {
    pub fn pack_into(&self, out: &mut Vec<u8>) {
        use super::command::resp;
        match self {
            Probe::ClusterSlots => resp(out, &[b"CLUSTER", b"SLOTS"]),
            Probe::MasterOf(name) => resp(out, &[b"SENTINEL", b"GET-MASTER-ADDR-BY-NAME", name.as_bytes()]),
            Probe::Role => resp(out, &[b"ROLE"]),
        }
    }
}

/// What a process knows of one deployment.
#[derive(Clone, Debug)]
enum Known {
    /// Each slot's master, as an index into `masters` (`NOBODY`: unserved).
    Slots { masters: Vec<Addr>, slots: Vec<u16> },
    Master(Addr),
}

struct Entry {
    of: Server,
    known: Known,
    /// To be learned again at the next look-up (kept meanwhile: better
    /// than nothing if it cannot be).
    stale: bool,
    /// When it was last learned (or asked for in vain).
    learned: Instant,
}

/// How long a Sentinel's answer is used before the sentinels are asked again.
const SENTINEL_RECHECK: Duration = Duration::from_secs(1);

impl Entry {
    fn due(&self) -> bool {
        self.stale || (matches!(self.known, Known::Master(_)) && self.learned.elapsed() >= SENTINEL_RECHECK)
    }
}

static KNOWN: PerProcess<Vec<Entry>> = PerProcess::new();

/// The server that commands for `key` go to on `node`'s deployment (the
/// node's own server when it is a plain one). Learns the deployment first
/// when this process does not know it yet, within the node's timeouts.
pub fn endpoint<'n>(node: &'n Node, key: &[u8], limits: &Limits) -> Result<Cow<'n, Server>, String> {
    let server = &node.server;
    if !server.is_routed() {
        return Ok(Cow::Borrowed(server));
    }
    let slot = keys::slot(key);
    // The common case: known, and only the address is copied out.
    let cached = KNOWN.with(|known| {
        let entry = known.iter().find(|e| e.of == *server)?;
        Some((entry.known.addr_for(slot), entry.due()))
    });
    let addr = match cached {
        Some((addr, false)) => addr,
        Some((addr, true)) => learn(node, limits).map_or(addr, |known| known.addr_for(slot)),
        None => learn(node, limits)?.addr_for(slot),
    };
    match addr {
        Some(addr) => Ok(Cow::Owned(server.at(addr))),
        None => {
            forget(server);
            Err(format!("no master serves slot {slot} (the cluster is down, or being set up)"))
        }
    }
}

impl Known {
    /// The master for `slot`'s keys.
    fn addr_for(&self, slot: u16) -> Option<Addr> {
        match self {
            Known::Master(addr) => Some(addr.clone()),
            Known::Slots { masters, slots } => slots.get(usize::from(slot)).and_then(|&i| masters.get(usize::from(i))).cloned(),
        }
    }
}

/// What a server's error reply means for where to send the command next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// `MOVED`: the slot's master is this one now (the map is learned again).
    Moved(Addr),
    /// `ASK`: this once, at this node (after `ASKING`).
    Ask(Addr),
    /// `TRYAGAIN`, `CLUSTERDOWN`: the same place, a moment later.
    Later,
    /// `READONLY`, `UNBLOCKED`: the master changed; ask the sentinels again.
    Elsewhere,
}

/// How to go on after the error reply `msg` from `at`, for `server`'s
/// deployment; `None`: the error stands.
pub fn after_error(server: &Server, msg: &[u8], at: &Addr) -> Option<Next> {
    match &server.route {
        Route::Direct => None,
        Route::Cluster(_) => {
            let word = msg.split(|&b| b == b' ').next().unwrap_or_default();
            match word {
                b"MOVED" | b"ASK" => {
                    let (slot, addr) = redirection(msg, at)?;
                    if word == b"ASK" {
                        return Some(Next::Ask(addr));
                    }
                    moved(server, slot, &addr);
                    Some(Next::Moved(addr))
                }
                b"TRYAGAIN" | b"CLUSTERDOWN" => Some(Next::Later),
                _ => None,
            }
        }
        Route::Sentinel(_) if msg.starts_with(b"READONLY") || msg.starts_with(b"UNBLOCKED") => {
            forget(server);
            Some(Next::Elsewhere)
        }
        Route::Sentinel(_) => None,
    }
}

/// `MOVED 3999 127.0.0.1:6381` (or `ASK …`): the slot and the node. An
/// empty host means the host the reply came from.
fn redirection(msg: &[u8], at: &Addr) -> Option<(u16, Addr)> {
    let text = std::str::from_utf8(msg).ok()?;
    let mut words = text.split(' ').skip(1);
    let slot: u16 = words.next()?.parse().ok().filter(|&s| usize::from(s) < SLOTS)?;
    let (host, port) = words.next()?.rsplit_once(':')?;
    let port: u16 = port.parse().ok().filter(|&p| p > 0)?;
    let host = match host.trim_start_matches('[').trim_end_matches(']') {
        "" => match at {
            Addr::Tcp { host, .. } => host.clone(),
            Addr::Unix(_) => return None,
        },
        host => host.to_owned(),
    };
    Some((slot, Addr::Tcp { host, port }))
}

/// Where `addr` is in `masters`, added at the end if it is not there.
fn index_of(masters: &mut Vec<Addr>, addr: &Addr) -> usize {
    masters.iter().position(|m| m == addr).unwrap_or_else(|| {
        masters.push(addr.clone());
        masters.len() - 1
    })
}

/// The slot's master is `addr` now; the whole map is learned again at the
/// next look-up (a failover moves every slot of a master at once).
fn moved(server: &Server, slot: u16, addr: &Addr) {
    KNOWN.with(|known| {
        let Some(entry) = known.iter_mut().find(|e| e.of == *server) else { return };
        if let Known::Slots { masters, slots } = &mut entry.known {
            if let (Some(s), Ok(i)) = (slots.get_mut(usize::from(slot)), u16::try_from(index_of(masters, addr))) {
                *s = i;
            }
        }
        entry.stale = true;
    });
}

/// What this process knows of `server`'s deployment is in doubt: it is
/// learned again at the next look-up.
pub fn forget(server: &Server) {
    KNOWN.with(|known| known.iter_mut().filter(|e| e.of == *server).for_each(|e| e.stale = true));
}

/// Asks the deployment where things are, and keeps the answer.
fn learn(node: &Node, limits: &Limits) -> Result<Known, String> {
    let previous = KNOWN.with(|known| known.iter().find(|e| e.of == node.server).map(|e| e.known.clone()));
    let known: Result<Known, String> = match (&node.server.route, &previous) {
        (Route::Direct, _) => Err("not a deployment".into()),
        // The masters known so far first: seeds may be gone.
        (Route::Cluster(seeds), Some(Known::Slots { masters, .. })) => slot_map(node, seeds, masters, limits),
        (Route::Cluster(seeds), _) => slot_map(node, seeds, &[], limits),
        (Route::Sentinel(sentinels), Some(Known::Master(current))) => master(node, sentinels, Some(current), limits),
        (Route::Sentinel(sentinels), _) => master(node, sentinels, None, limits),
    };
    KNOWN.with(|all| match known {
        Ok(ref known) => {
            all.retain(|e| e.of != node.server);
            all.push(Entry { of: node.server.clone(), known: known.clone(), stale: false, learned: Instant::now() });
        }
        // Not asked again before the next recheck, unless something fails.
        Err(_) => all.iter_mut().filter(|e| e.of == node.server).for_each(|e| e.learned = Instant::now()),
    });
    known
}

/// One question to the server at `server`, within `node`'s timeouts. A
/// sentinel's connection is closed afterwards: every worker of every host
/// would otherwise keep one open to it for nothing.
fn probe(node: &Node, server: Server, probe: Probe<'_>, limits: &Limits) -> Vote {
    let node = Node { server, timeout: node.timeout, connect: node.connect };
    let vote = ask(&node, &Command { op: Op::Probe(probe), key: b"", token: "" }, limits);
    if let Probe::MasterOf(_) = probe {
        drop(pool::take(&node.server, limits));
    }
    vote
}

/// The slot map, from the masters known so far, then the seeds, until one
/// answers.
fn slot_map(node: &Node, seeds: &[Addr], masters: &[Addr], limits: &Limits) -> Result<Known, String> {
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
            Vote::Failed(NodeError { cause: Cause::Reply(e), .. }) if e.contains("cluster support disabled") => {
                why.push(format!("{addr} is not a cluster node ({e})"));
            }
            Vote::Failed(e) => why.push(e.to_string()),
            other => why.push(format!("{addr}: unexpected answer {other:?}")),
        }
        if super::wait::interrupted() {
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

/// The master the sentinels name, verified with `ROLE` (unless it is the
/// `current` one, still named): the first sentinel whose answer checks out
/// decides.
fn master(node: &Node, sentinels: &Sentinels, current: Option<&Addr>, limits: &Limits) -> Result<Known, String> {
    let name = sentinels.master.as_str();
    let mut why = Vec::new();
    for addr in &sentinels.addrs {
        let sentinel = Server { user: sentinels.user.clone(), password: sentinels.password.clone(), db: 0, ..node.server.at(addr.clone()) };
        let master = match probe(node, sentinel, Probe::MasterOf(name), limits) {
            Vote::Got(Reply::Nil) => {
                why.push(format!("{addr} knows no master named {name}"));
                continue;
            }
            Vote::Got(Reply::Array(a)) => match (a.first(), a.get(1)) {
                (Some(Reply::Bulk(host)), Some(Reply::Bulk(port))) => {
                    match std::str::from_utf8(port).ok().and_then(|p| p.parse::<u16>().ok()).filter(|&p| p > 0) {
                        Some(port) => Addr::Tcp { host: String::from_utf8_lossy(host).into_owned(), port },
                        None => {
                            why.push(format!("{addr} named the master at port {}", printable(port)));
                            continue;
                        }
                    }
                }
                _ => {
                    why.push(format!("{addr}: malformed answer {}", shown(&Reply::Array(a))));
                    continue;
                }
            },
            Vote::Failed(NodeError { cause: Cause::Reply(e), .. }) if e.contains("unknown command") => {
                why.push(format!("{addr} is not a sentinel ({e})"));
                continue;
            }
            Vote::Failed(e) => {
                why.push(e.to_string());
                continue;
            }
            other => {
                why.push(format!("{addr}: unexpected answer {other:?}"));
                continue;
            }
        };
        if current == Some(&master) {
            return Ok(Known::Master(master));
        }
        match probe(node, node.server.at(master.clone()), Probe::Role, limits) {
            Vote::Got(Reply::Array(role)) if matches!(role.first(), Some(Reply::Bulk(r)) if r == b"master") => {
                return Ok(Known::Master(master));
            }
            Vote::Got(Reply::Array(role)) if matches!(role.first(), Some(Reply::Bulk(_))) => {
                why.push(format!("{addr} names {master} as the master of {name}, but it is not one now (a failover is under way)"));
            }
            Vote::Failed(e) => why.push(format!("{addr} names {master} as the master of {name}: {e}")),
            other => why.push(format!("{master}: unexpected answer to ROLE {other:?}")),
        }
        if super::wait::interrupted() {
            break;
        }
    }
    Err(format!("no sentinel named a master of {name} that answers as one: {}", why.join("; ")))
}

/// A reply for an error message, short.
fn shown(reply: &Reply) -> String {
    let text = format!("{reply:?}");
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// How long to wait before asking again after `TRYAGAIN` when `n` retries
/// were made: 5 ms, doubling up to 80 ms.
pub fn pause(n: u32) -> Duration {
    Duration::from_millis(5 << n.min(4))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tcp(host: &str, port: u16) -> Addr {
        Addr::Tcp { host: host.into(), port }
    }

    #[test]
    fn redirections_name_the_slot_and_node() {
        let at = tcp("10.0.0.9", 7000);
        assert_eq!(redirection(b"MOVED 3999 127.0.0.1:6381", &at), Some((3999, tcp("127.0.0.1", 6381))));
        assert_eq!(redirection(b"ASK 0 :7002", &at), Some((0, tcp("10.0.0.9", 7002))));
        assert_eq!(redirection(b"MOVED 1 [::1]:7002", &at), Some((1, tcp("::1", 7002))));
        for bad in [&b"MOVED 16384 h:1"[..], b"MOVED x h:1", b"MOVED 1 h", b"MOVED 1 h:0", b"MOVED", b"MOVED 1 h:99999"] {
            assert_eq!(redirection(bad, &at), None, "{}", String::from_utf8_lossy(bad));
        }
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
