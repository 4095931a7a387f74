//! The topology layer: where a key's requests go on a Redis Cluster or a
//! Sentinel-managed master (the round's `Resolver`).
//! What a process learned (the slot map, the master's address) is kept per
//! process and learned again when a server says it moved (`MOVED`), that it
//! is a replica now (`READONLY`), or cannot be reached. A Sentinel's answer
//! is also asked again every second: after a failover the former master
//! takes writes until the sentinels reconfigure it, seconds later, and a
//! process that kept using it meanwhile would hold locks nobody else sees.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use crate::engine::error::Cause;
use crate::engine::net::conn::Limits;
use crate::engine::net::dsn::{Addr, Route, Server};
use crate::engine::net::process::PerProcess;
use crate::engine::protocol::slot;
use crate::engine::round::{Node, Resolver};

mod cluster;
mod probe;
mod sentinel;

/// The deployments this process knows, as the round's resolver.
pub struct Topology;

pub static TOPOLOGY: Topology = Topology;

impl Resolver for Topology {
    fn endpoint<'n>(&self, node: &'n Node, key: &[u8], limits: &Limits) -> Result<Cow<'n, Server>, Cause> {
        endpoint(node, key, limits).map_err(Cause::Unresolved)
    }

    fn forget(&self, server: &Server) {
        forget(server);
    }

    fn moved(&self, server: &Server, slot: u16, to: &Addr) {
        moved(server, slot, to);
    }

    fn migrating(&self, server: &Server, key: &[u8]) {
        let slot = slot::slot(key);
        KNOWN.with(|known| {
            let Some(entry) = known.iter_mut().find(|e| e.of == *server) else { return };
            entry.migrating.retain(|(s, at)| *s != slot && at.elapsed() < MIGRATING_SEEN);
            entry.migrating.push((slot, Instant::now()));
        });
    }
}

/// How long a slot counts as being migrated after this process last saw a
/// sign of it (`ASK`, `TRYAGAIN`): its queue's multi-key scripts would only
/// be told to try again meanwhile.
const MIGRATING_SEEN: Duration = Duration::from_millis(250);

/// Whether `key`'s slot on `server`'s deployment was seen being migrated
/// within the last `MIGRATING_SEEN`.
pub fn migrating(server: &Server, key: &[u8]) -> bool {
    if !server.is_routed() {
        return false;
    }
    let slot = slot::slot(key);
    KNOWN.with(|known| {
        known.iter().find(|e| e.of == *server).is_some_and(|e| e.migrating.iter().any(|(s, at)| *s == slot && at.elapsed() < MIGRATING_SEEN))
    })
}

/// Every master of `node`'s deployment, each as a server of its own (a
/// plain server is its own master): what a question about all keys, such
/// as `SCAN`, must ask one by one.
pub fn masters(node: &Node, limits: &Limits) -> Result<Vec<Server>, String> {
    let server = &node.server;
    if !server.is_routed() {
        return Ok(vec![server.clone()]);
    }
    let known = match KNOWN.with(|known| known.iter().find(|e| e.of == *server && !e.due()).map(|e| e.known.clone())) {
        Some(known) => known,
        None => learn(node, limits)?,
    };
    Ok(match known {
        Known::Master(addr) => vec![server.at(addr)],
        // Only those that serve a slot now (a former master stays in the list).
        Known::Slots { masters, slots } => masters
            .into_iter()
            .enumerate()
            .filter(|(i, _)| slots.iter().any(|&s| usize::from(s) == *i))
            .map(|(_, addr)| server.at(addr))
            .collect(),
    })
}

/// What a process knows of one deployment.
#[derive(Clone, Debug)]
pub(crate) enum Known {
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
    /// Slots seen being migrated, and when.
    migrating: Vec<(u16, Instant)>,
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
fn endpoint<'n>(node: &'n Node, key: &[u8], limits: &Limits) -> Result<Cow<'n, Server>, String> {
    let server = &node.server;
    if !server.is_routed() {
        return Ok(Cow::Borrowed(server));
    }
    let slot = slot::slot(key);
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

/// The slot's master is `addr` now; the whole map is learned again at the
/// next look-up (a failover moves every slot of a master at once).
fn moved(server: &Server, slot: u16, addr: &Addr) {
    KNOWN.with(|known| {
        let Some(entry) = known.iter_mut().find(|e| e.of == *server) else { return };
        // The migration of the slot is over.
        entry.migrating.retain(|(s, _)| *s != slot);
        if let Known::Slots { masters, slots } = &mut entry.known {
            if let (Some(s), Ok(i)) = (slots.get_mut(usize::from(slot)), u16::try_from(cluster::index_of(masters, addr))) {
                *s = i;
            }
        }
        entry.stale = true;
    });
}

/// What this process knows of `server`'s deployment is in doubt: it is
/// learned again at the next look-up.
fn forget(server: &Server) {
    KNOWN.with(|known| known.iter_mut().filter(|e| e.of == *server).for_each(|e| e.stale = true));
}

/// Asks the deployment where things are, and keeps the answer.
fn learn(node: &Node, limits: &Limits) -> Result<Known, String> {
    let previous = KNOWN.with(|known| known.iter().find(|e| e.of == node.server).map(|e| e.known.clone()));
    let known: Result<Known, String> = match (&node.server.route, &previous) {
        (Route::Direct, _) => Err("not a deployment".into()),
        // The masters known so far first: seeds may be gone.
        (Route::Cluster(seeds), Some(Known::Slots { masters, .. })) => cluster::slot_map(node, seeds, masters, limits),
        (Route::Cluster(seeds), _) => cluster::slot_map(node, seeds, &[], limits),
        (Route::Sentinel(sentinels), Some(Known::Master(current))) => sentinel::master(node, sentinels, Some(current), limits),
        (Route::Sentinel(sentinels), _) => sentinel::master(node, sentinels, None, limits),
    };
    KNOWN.with(|all| match known {
        Ok(ref known) => {
            let migrating = all.iter().find(|e| e.of == node.server).map(|e| e.migrating.clone()).unwrap_or_default();
            all.retain(|e| e.of != node.server);
            all.push(Entry { of: node.server.clone(), known: known.clone(), stale: false, learned: Instant::now(), migrating });
        }
        // Not asked again before the next recheck, unless something fails.
        Err(_) => all.iter_mut().filter(|e| e.of == node.server).for_each(|e| e.learned = Instant::now()),
    });
    known
}

