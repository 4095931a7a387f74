//! Idle connections of this process, one per server, kept across requests.

use std::collections::HashMap;
use std::time::Duration;

use super::conn::Conn;
use super::per_process::PerProcess;
use super::server::Server;

static IDLE: PerProcess<HashMap<Server, Conn>> = PerProcess::new();

/// An idle connection to `server`, if one is ready for a new command.
pub fn take(server: &Server, timeout: Duration) -> Option<Conn> {
    let mut conn = IDLE.with(|idle| idle.remove(server))?;
    conn.drain(timeout).then_some(conn)
}

pub fn put(server: &Server, conn: Conn) {
    IDLE.with(|idle| idle.insert(server.clone(), conn));
}

/// Number of idle connections (for tests and `phpinfo()`).
pub fn idle_count() -> usize {
    IDLE.with(|idle| idle.len())
}
