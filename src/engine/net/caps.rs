//! What each server said it has (`INFO server`), remembered per process: a
//! new connection to it (after a reconnect, in a forked child) starts with
//! its native commands instead of learning them again first. A server that
//! refuses one later (replaced by an older version, an ACL) is corrected
//! here by the connection that was refused.

use super::dsn::Server;
use super::process::PerProcess;
use crate::engine::protocol::server_info::Caps;

/// Servers remembered at most (a process rarely talks to more).
const MAX: usize = 64;

static KNOWN: PerProcess<Vec<(Server, Caps)>> = PerProcess::new();

pub fn remembered(server: &Server) -> Option<Caps> {
    KNOWN.with(|known| known.iter().find(|(s, _)| s == server).map(|(_, caps)| *caps))
}

pub fn remember(server: &Server, caps: Caps) {
    KNOWN.with(|known| {
        known.retain(|(s, _)| s != server);
        if known.len() >= MAX {
            known.remove(0);
        }
        known.push((server.clone(), caps));
    });
}
