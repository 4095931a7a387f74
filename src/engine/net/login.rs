//! What a new connection sends before its first command: AUTH and SELECT,
//! pipelined in front of it.

use super::conn::{Conn, Expect};
use super::dsn::Server;
use crate::engine::protocol::encode::{format_int, itoa_buf, resp};

/// Queues AUTH and SELECT for `server` on a new connection; returns how
/// many replies they owe.
pub fn log_in(conn: &mut Conn, server: &Server) -> usize {
    let mut owed = 0;
    if let Some(password) = &server.password {
        let mut out = Vec::new();
        match &server.user {
            Some(user) => resp(&mut out, &[b"AUTH", user.as_bytes(), password.as_bytes()]),
            None => resp(&mut out, &[b"AUTH", password.as_bytes()]),
        }
        conn.push(&out, Expect::Auth);
        owed += 1;
    }
    if server.db != 0 {
        let (mut out, mut n) = (Vec::new(), itoa_buf());
        resp(&mut out, &[b"SELECT", format_int(&mut n, i64::from(server.db))]);
        conn.push(&out, Expect::Select);
        owed += 1;
    }
    owed
}
