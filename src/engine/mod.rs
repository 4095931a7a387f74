//! The lock algorithm in plain Rust: no PHP types here. Layers, bottom to
//! top; each imports only from the layers below it (docs/architecture.md):
//!
//! - `protocol`: RESP, scripts and their digests, key slots, error kinds (no I/O)
//! - `error`: what failed on one server, as typed causes
//! - `net`: DSNs, dialing, TLS, login, connections, the pool, waits, fork safety
//! - `round`: N requests to N servers under one deadline, redirections,
//!   quorum; its interfaces `Request` and `Resolver`
//! - `topology`: Cluster slot maps and Sentinel masters (the `Resolver`)
//! - `features`: the plain lock (`owner`), the N-node quorum (`lease`),
//!   ownership and fences, the mutex's queue (`queue/`), the shared locks
//!   (`shared/`), what both queues' waiters share (`waiting`: a place's lease, pops, how a wait ends), replica
//!   acknowledgement, tokens; each with its own scripts (the `Request`s)
//! - `policy`: what this process holds, renews and releases when

pub mod protocol;
pub mod error;
pub mod net;
pub mod round;
pub mod topology;
pub mod features;
pub mod policy;
