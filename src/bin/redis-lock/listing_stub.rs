//! Stand-in for the engine's listing (contract signatures) until it lands on main; deleted at merge.
#![allow(dead_code)]

use redis_lock::engine::policy::{Failure, Limits, Node};

pub struct Listing { pub locks: Vec<LockInfo>, pub truncated: bool }
#[derive(Clone)]
pub struct LockInfo { pub key: Vec<u8>, pub kind: ListedKind, pub node: String, pub ttl_ms: Option<i64>,
                      pub fence: Option<u64>, pub holders: Vec<Holder>, pub waiters: Vec<Waiter> }
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ListedKind { Mutex, ReadWrite, Semaphore }
impl ListedKind {
    pub fn name(&self) -> &'static str {
        match self { ListedKind::Mutex => "mutex", ListedKind::ReadWrite => "read-write", ListedKind::Semaphore => "semaphore" }
    }
}
#[derive(Clone)]
pub struct Holder { pub token: String, pub host: Option<String>, pub pid: Option<u32>, pub since_ms: Option<u64>,
                    pub label: Option<String>, pub ttl_ms: Option<i64>, pub mode: Option<&'static str>,
                    pub weight: Option<u32>, pub limit: Option<u32> }
#[derive(Clone)]
pub struct Waiter { pub token: String, pub host: Option<String>, pub pid: Option<u32>, pub label: Option<String>,
                    pub waited_ms: Option<i64>, pub place_ms: i64, pub mode: Option<&'static str> }
pub fn list(_node: &Node, _pattern: &[u8], _limit: usize, _limits: &Limits) -> Result<Listing, Failure> {
    Err(Failure::Unexpected)
}
pub fn describe(_node: &Node, _key: &[u8], _limits: &Limits) -> Result<Option<LockInfo>, Failure> {
    Err(Failure::Unexpected)
}
pub fn evict(_node: &Node, _key: &[u8], _token: &str, _limits: &Limits) -> Result<bool, Failure> {
    Err(Failure::Unexpected)
}
