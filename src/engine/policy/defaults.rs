//! What both faces of the engine start from: the PHP extension's INI
//! defaults and the `redis-lock` command line's (one place, so that the
//! operator's tool looks where the application locks), and the node a
//! single-server call talks to.

use std::ffi::CStr;

use crate::engine::net::conn::Limits;
use crate::engine::net::dsn::Server;
use crate::engine::round::Node;

/// `redis_lock.server`'s default, and `redis-lock --server`'s.
pub const DEFAULT_SERVER: &CStr = c"redis://127.0.0.1:6379";

/// `redis_lock.prefix`'s default, and `redis-lock --prefix`'s.
pub const DEFAULT_PREFIX: &CStr = c"lock:";

/// The one node of a single-server call on `server` under `limits`.
pub fn node(server: &Server, limits: &Limits) -> Node {
    Node { server: server.clone(), timeout: limits.read, connect: limits.connect }
}
