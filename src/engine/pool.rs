//! Idle connections of this process, one per server, kept across requests.

use std::collections::HashMap;
use super::conn::Conn;
use super::per_process::PerProcess;
use super::server::Server;

static IDLE: PerProcess<HashMap<Server, Conn>> = PerProcess::new();

/// The idle connection to `server`, if there is one.
pub fn take(server: &Server) -> Option<Conn> {
    IDLE.with(|idle| idle.remove(server))
}

pub fn put(server: &Server, conn: Conn) {
    IDLE.with(|idle| idle.insert(server.clone(), conn));
}

/// Number of idle connections (for tests and `phpinfo()`).
pub fn idle_count() -> usize {
    IDLE.with(|idle| idle.len())
}
