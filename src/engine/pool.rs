//! Idle connections of this process, one per server, kept across requests.
//! A short list: an application talks to a handful of servers.

use super::conn::Conn;
use super::per_process::PerProcess;
use super::server::Server;

static IDLE: PerProcess<Vec<(Server, Conn)>> = PerProcess::new();

/// The idle connection to `server`, if there is one.
pub fn take(server: &Server) -> Option<Conn> {
    IDLE.with(|idle| {
        let i = idle.iter().position(|(s, _)| s == server)?;
        Some(idle.swap_remove(i).1)
    })
}

pub fn put(server: &Server, conn: Conn) {
    IDLE.with(|idle| match idle.iter_mut().find(|(s, _)| s == server) {
        Some(slot) => slot.1 = conn,
        None => idle.push((server.clone(), conn)),
    });
}
