//! Idle connections of this process, kept across requests. A connection is
//! defined by its server and, for TLS, the CA it was verified with: after
//! `redis_lock.tls_ca_file` changes, a TLS connection is opened anew.
//! A short list: an application talks to a handful of servers.

use std::path::PathBuf;

use super::conn::{Conn, Limits};
use super::per_process::PerProcess;
use super::server::Server;

#[derive(Clone, PartialEq, Eq)]
struct Key {
    server: Server,
    ca: Option<PathBuf>,
}

impl Key {
    fn new(server: &Server, limits: &Limits) -> Self {
        Self { server: server.clone(), ca: if server.tls { limits.tls_ca_file.clone() } else { None } }
    }
}

static IDLE: PerProcess<Vec<(Key, Conn)>> = PerProcess::new();

/// The idle connection to `server` opened under the same TLS settings, if any.
pub fn take(server: &Server, limits: &Limits) -> Option<Conn> {
    let key = Key::new(server, limits);
    IDLE.with(|idle| {
        let i = idle.iter().position(|(k, _)| *k == key)?;
        Some(idle.swap_remove(i).1)
    })
}

pub fn put(server: &Server, limits: &Limits, conn: Conn) {
    let key = Key::new(server, limits);
    IDLE.with(|idle| match idle.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = conn,
        None => idle.push((key, conn)),
    });
}
