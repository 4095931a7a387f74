//! A Sentinel-managed master: named by the sentinels, verified with `ROLE`.

use super::probe::{probe, shown, Probe};
use super::Known;
use crate::engine::error::{Cause, NodeError};
use crate::engine::net::conn::Limits;
use crate::engine::net::dsn::{Addr, Sentinels, Server};
use crate::engine::net::wait;
use crate::engine::protocol::errors::ErrorKind;
use crate::engine::protocol::resp::{printable, Reply};
use crate::engine::round::{Node, Vote};

/// The master the sentinels name, verified with `ROLE` (unless it is the
/// `current` one, still named): the first sentinel whose answer checks out
/// decides.
pub fn master(node: &Node, sentinels: &Sentinels, current: Option<&Addr>, limits: &Limits) -> Result<Known, String> {
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
            Vote::Failed(NodeError { cause: Cause::Reply { kind: ErrorKind::UnknownCommand, text: e }, .. }) => {
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
        if wait::interrupted() {
            break;
        }
    }
    Err(format!("no sentinel named a master of {name} that answers as one: {}", why.join("; ")))
}

