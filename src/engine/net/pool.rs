//! Idle connections of this process, kept across requests. A connection is
//! defined by its server and, for TLS, the CA it was verified with: after
//! `redis_lock.tls_ca_file` changes, a TLS connection is opened anew.
//! A short list: an application talks to a handful of servers. The
//! watchdog thread has connections of its own.

use std::path::PathBuf;

use super::conn::{Conn, Limits};
use super::process::{is_background, PerProcess};
use super::dsn::Server;

struct Key {
    server: Server,
    ca: Option<PathBuf>,
    /// The watchdog thread keeps connections of its own.
    background: bool,
}

impl Key {
    fn is(&self, server: &Server, limits: &Limits) -> bool {
        self.server == *server && self.ca.as_ref() == ca(server, limits) && self.background == is_background()
    }
}

fn ca<'l>(server: &Server, limits: &'l Limits) -> Option<&'l PathBuf> {
    limits.tls_ca_file.as_ref().filter(|_| server.tls)
}

static IDLE: PerProcess<Vec<(Key, Conn)>> = PerProcess::new();

/// The idle connection to `server` opened under the same TLS settings, if any.
pub fn take(server: &Server, limits: &Limits) -> Option<Conn> {
    IDLE.with(|idle| {
        let i = idle.iter().position(|(k, _)| k.is(server, limits))?;
        Some(idle.swap_remove(i).1)
    })
}

pub fn put(server: &Server, limits: &Limits, conn: Conn) {
    IDLE.with(|idle| match idle.iter_mut().find(|(k, _)| k.is(server, limits)) {
        Some(slot) => slot.1 = conn,
        None => idle.push((Key { server: server.clone(), ca: ca(server, limits).cloned(), background: is_background() }, conn)),
    });
}
