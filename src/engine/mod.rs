//! The lock algorithm in plain Rust: no PHP types here. Layers, bottom to
//! top; each imports only from the layers below it (docs/architecture.md):
//!
//! - `protocol`: RESP, scripts and their digests, key slots, error kinds (no I/O)
//! - `error`: what failed on one server, as typed causes
//! - `net`: DSNs, dialing, TLS, login, connections, the pool, waits, fork safety
//! - `round`: N requests to N servers under one deadline, redirections,
//!   quorum; its interfaces `Request` and `Resolver`
//! - `topology`: Cluster slot maps and Sentinel masters (the `Resolver`)
//! - `features`: the plain lock, ownership and fences, the queue, replica
//!   acknowledgement, each with its own scripts (the `Request`s)
//! - `policy`: what this process holds, renews and releases when

pub mod protocol;
pub mod error;
pub mod net;
pub mod round;
pub mod topology;
pub mod features;
pub mod policy;

// Former paths, kept until every caller uses the layered ones.
pub use features::{lease, ownership, queue};
pub use net::{conn, dsn as server, process as per_process, threads, wait};
pub use policy::watchdog;

/// Former `engine::held`: the policy's parts under one name.
pub mod held {
    pub use super::features::replicas::Replicas;
    pub use super::policy::hold::*;
    pub use super::policy::registry::{expiry_after, mutex_owner, registered, Held, Owner};
    pub use super::policy::request_end::{forget_all, release_all};
}
pub use protocol::resp;
