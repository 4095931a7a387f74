//! What an operator sees: the locks under a pattern, each with its holders
//! and its waiters in line. Read only: `SCAN … TYPE` finds the keys (never
//! `KEYS`, which blocks the server), one script per key reads it whole
//! (`scripts.rs`), and the replies are decoded here into plain values.
//! The one write is `evict`: a dead waiter's place, dropped from its queue.

mod scripts;
mod view;

pub use scripts::{Describe, Evict, Scan, MAX_WAITERS};
pub use view::{describe_reply, is_aux_key, scan_reply, Holder, ListedKind, LockInfo, Waiter};
