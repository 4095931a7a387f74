//! The engine's listing, as the commands use it (one place to name it).

pub use crate::listing_stub::{describe, evict, list, Holder, ListedKind, LockInfo, Waiter};
