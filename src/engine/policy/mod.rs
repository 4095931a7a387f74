//! The policy: which locks this process holds, what is renewed, and what
//! is released when (at release, at request end, after a fork). Every PHP
//! class goes through here; no class decides it on its own. Its interface
//! to the PHP faces is re-exported here.

mod batch;
mod defaults;
pub mod hold;
mod kinds;
mod listing;
mod metrics;
pub mod registry;
mod renew;
pub mod request_end;
mod scope;
pub mod watchdog;

pub use defaults::{node, DEFAULT_PREFIX, DEFAULT_SERVER};
pub use hold::*;
pub use registry::{expiry_after, held_here, mutex_handle, registered, registered_on, shared_handle, Held, Kind, Handle};
pub use metrics::{
    render as metrics_text, snapshot as metrics_snapshot, start as start_metrics, status as metrics_status, Hist, SeriesCounts,
    BUCKETS_MS, MAX_PATTERNS, TABLE_BYTES as METRICS_TABLE_BYTES,
};
pub use request_end::{forget_all, release_all};
pub use listing::{describe, evict, list, Listing};
pub use crate::engine::features::listing::{Holder as ListedHolder, ListedKind, LockInfo, Waiter};
pub use scope::{begin_scope, end_scope, ScopeEnd};
pub use watchdog::shutdown as shutdown_renewals;

// The rest of the engine as the PHP faces see it: `src/php` names nothing of
// the engine but `engine::policy` (tests/layers.rs holds it to that).
pub use crate::engine::error::{list as failures_text, INTERRUPTED};
pub use crate::engine::features::lease::Patience;
pub use crate::engine::features::ownership::Holder;
pub use crate::engine::features::replicas::Replicas;
pub use crate::engine::features::shared::{Claim, Holds, Mode, Take};
pub use crate::engine::features::token::{label_of, label_or, new_owner, new_token, set_label, MAX_LABEL};
pub use crate::engine::net::conn::Limits;
pub use crate::engine::net::dsn::{parse_port, redact, Server, MAX_REPLICAS, NUL_BYTES};
pub use crate::engine::net::wait::{set_interrupt_check, set_quiet};
pub use crate::engine::protocol::resp::printable;
pub use crate::engine::round::quorum::{node_timeout, quorum, Failure, Outcome};
pub use crate::engine::round::Node;
