//! The engine's listing, as the commands use it (one place to name it).

pub use redis_lock::engine::policy::{describe, evict, list, ListedHolder as Holder, ListedKind, LockInfo, Waiter};
