//! The listing's replies, decoded: a lock key with its holders and waiters
//! as plain values, and which keys are a lock's own helpers, not locks.

use crate::engine::features::ownership::Holder as Who;
use crate::engine::features::shared::view::{attributes, int};
use crate::engine::features::shared::{token_of, Mode};
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::slot::Base;

/// What kind of lock a key is, as its type and members say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListedKind {
    Mutex,
    ReadWrite,
    Semaphore,
}

impl ListedKind {
    pub fn name(self) -> &'static str {
        match self {
            ListedKind::Mutex => "mutex",
            ListedKind::ReadWrite => "read-write",
            ListedKind::Semaphore => "semaphore",
        }
    }
}

/// One holder of a lock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holder {
    pub token: String,
    pub host: Option<String>,
    pub pid: Option<u32>,
    /// Unix ms when it began to acquire (the holder's clock).
    pub since_ms: Option<u64>,
    pub label: Option<String>,
    /// ms left of its hold (-1: no expiry).
    pub ttl_ms: Option<i64>,
    /// "read" or "write" for a read/write lock.
    pub mode: Option<&'static str>,
    pub weight: Option<u32>,
    pub limit: Option<u32>,
}

/// One waiter in a lock's queue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Waiter {
    pub token: String,
    pub host: Option<String>,
    pub pid: Option<u32>,
    pub label: Option<String>,
    /// Server time now minus the time its token says it began (two clocks).
    pub waited_ms: Option<i64>,
    /// ms left of its place; 0 or less: dead, passed over at the next hand-off.
    pub place_ms: i64,
    pub mode: Option<&'static str>,
}

/// A lock key as it is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockInfo {
    /// The whole Redis key.
    pub key: Vec<u8>,
    pub kind: ListedKind,
    /// The server that answered, `host:port`.
    pub node: String,
    /// The key's ms left (-1: no expiry).
    pub ttl_ms: Option<i64>,
    /// The holder's fencing token, if it asked for one.
    pub fence: Option<u64>,
    pub holders: Vec<Holder>,
    /// First in line first; at most `MAX_WAITERS`.
    pub waiters: Vec<Waiter>,
    /// How many wait in all (live or not yet passed over).
    pub queued: u64,
}

/// Whether `key` is a helper key of some lock (its fence record, its
/// waiters' places, RedLock's queue) rather than a lock: such keys have a string or sorted
/// set type too, so `SCAN … TYPE` alone does not tell them apart.
pub fn is_aux_key(key: &[u8]) -> bool {
    [&b":f"[..], b":t", b":st", b":rq", b":rt"].iter().any(|suffix| {
        key.strip_suffix(*suffix).is_some_and(|lock| {
            let base = Base::of(lock);
            base.aux(suffix, b"").concat() == key
        })
    })
}

/// A page of `SCAN`: the next cursor and the keys.
pub fn scan_reply(reply: &Reply) -> Option<(Vec<u8>, Vec<Vec<u8>>)> {
    let Reply::Array(parts) = reply else { return None };
    let [Reply::Bulk(cursor), Reply::Array(keys)] = &parts[..] else { return None };
    let keys = keys.iter().map(|k| if let Reply::Bulk(k) = k { Some(k.clone()) } else { None }).collect::<Option<Vec<_>>>()?;
    Some((cursor.clone(), keys))
}

fn text(r: &Reply) -> Option<&[u8]> {
    if let Reply::Bulk(b) = r { Some(b) } else { None }
}

/// A holder as its token says (host, pid, since, label), with `ttl_ms`.
fn holder(token: &[u8], ttl_ms: Option<i64>) -> Holder {
    let who = Who::of(token);
    Holder {
        token: String::from_utf8_lossy(token).into_owned(),
        host: who.host,
        pid: who.pid.and_then(|p| u32::try_from(p).ok()),
        since_ms: who.since_ms.and_then(|s| u64::try_from(s).ok()),
        label: who.label,
        ttl_ms,
        ..Holder::default()
    }
}

/// A read/write lock's mode; none for a semaphore's permits.
fn mode_of(mode: Mode) -> Option<&'static str> {
    (mode != Mode::Permit).then(|| mode.name())
}

/// A waiter from its token (or member) and its place deadline.
fn waiter(now: i64, entry: &[u8], place: &Reply, shared: bool) -> Option<Waiter> {
    let (token, mode) = if shared { (token_of(entry), attributes(entry).and_then(|a| mode_of(a.0))) } else { (entry, None) };
    let h = holder(token, None);
    let place_ms = int(place).map_or(0, |deadline| deadline - now);
    let waited_ms = h.since_ms.and_then(|since| i64::try_from(since).ok()).map(|since| now - since);
    Some(Waiter { token: h.token, host: h.host, pid: h.pid, label: h.label, waited_ms, place_ms, mode })
}

/// The waiters at the end of a reply (pairs), then their count.
fn waiters(now: i64, tail: &[Reply], shared: bool) -> Option<(Vec<Waiter>, u64)> {
    let (count, pairs) = tail.split_last()?;
    let list = pairs.chunks(2).map(|p| waiter(now, text(p.first()?)?, p.get(1)?, shared)).collect::<Option<Vec<_>>>()?;
    Some((list, u64::try_from(int(count)?).unwrap_or(0)))
}

/// `Describe`'s reply: `None` when the key holds no lock (gone, of another
/// type, or a sorted set that is not one of ours).
pub fn describe_reply(key: &[u8], node: String, reply: &Reply) -> Option<LockInfo> {
    let Reply::Array(items) = reply else { return None };
    let kind = text(items.first()?)?;
    let now = int(items.get(1)?)?;
    let pttl = int(items.get(2)?)?;
    let ttl_ms = (pttl != -2).then_some(pttl);
    match kind {
        b"string" => {
            let value = text(items.get(4)?)?;
            let unmarked = value.strip_suffix(b"\0q").unwrap_or(value);
            let fence = text(items.get(3)?).and_then(|f| std::str::from_utf8(f).ok()?.parse().ok());
            let (waiters, queued) = waiters(now, &items[5..], false)?;
            let holders = vec![holder(unmarked, ttl_ms)];
            Some(LockInfo { key: key.to_vec(), kind: ListedKind::Mutex, node, ttl_ms, fence, holders, waiters, queued })
        }
        b"zset" => {
            let Reply::Array(holds) = items.get(3)? else { return None };
            let mut holders = Vec::new();
            let mut kind = None;
            for pair in holds.chunks(2) {
                let member = text(pair.first()?)?;
                let (mode, limit, weight) = attributes(member)?;
                kind = kind.or(Some(if mode == Mode::Permit { ListedKind::Semaphore } else { ListedKind::ReadWrite }));
                let permits = mode == Mode::Permit;
                holders.push(Holder {
                    mode: mode_of(mode),
                    weight: permits.then_some(weight),
                    limit: permits.then_some(limit),
                    ..holder(token_of(member), Some(int(pair.get(1)?)? - now))
                });
            }
            let (waiters, queued) = waiters(now, &items[4..], true)?;
            // A set with no live hold is ours only while somebody waits in its queue.
            let kind = kind.or_else(|| waiters.first().map(|w| if w.mode.is_some() { ListedKind::ReadWrite } else { ListedKind::Semaphore }))?;
            Some(LockInfo { key: key.to_vec(), kind, node, ttl_ms, fence: None, holders, waiters, queued })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bulk(s: &[u8]) -> Reply {
        Reply::Bulk(s.to_vec())
    }

    const T1: &[u8] = b"0123456789abcdef0123456789abcdef:web-1:42:1700000000000";
    const T2: &[u8] = b"0123456789abcdef0123456789abcdee:web-2__req-7:43:1700000000500";

    #[test]
    fn a_mutex_with_its_marked_value_fence_and_waiters() {
        let mut marked = T1.to_vec();
        marked.extend_from_slice(b"\0q");
        let reply = Reply::Array(vec![
            bulk(b"string"),
            bulk(b"1700000001000"),
            bulk(b"1500"),
            bulk(b"99"),
            bulk(&marked),
            bulk(T2),
            bulk(b"1700000001200"),
            bulk(b"dead"),
            bulk(b""),
            Reply::Int(2),
        ]);
        let info = describe_reply(b"lock:a", "n:1".into(), &reply).unwrap();
        assert_eq!((info.kind, info.ttl_ms, info.fence, info.queued), (ListedKind::Mutex, Some(1500), Some(99), 2));
        let h = &info.holders[0];
        assert_eq!((h.token.as_bytes(), h.host.as_deref(), h.pid, h.since_ms, h.label.as_deref()), (T1, Some("web-1"), Some(42), Some(1_700_000_000_000), None));
        let w = &info.waiters[0];
        assert_eq!((w.label.as_deref(), w.waited_ms, w.place_ms, w.pid), (Some("req-7"), Some(500), 200, Some(43)));
        assert_eq!((info.waiters[1].place_ms, info.waiters[1].host.as_deref()), (0, None));
    }

    #[test]
    fn shared_locks_by_their_members_and_other_sets_not_at_all() {
        let member = |m: &str| [m.as_bytes(), b"|", T1].concat();
        let reply = Reply::Array(vec![
            bulk(b"zset"),
            bulk(b"1700000001000"),
            bulk(b"-1"),
            Reply::Array(vec![bulk(&member("s3:2")), bulk(b"1700000002000")]),
            bulk(&member("s3:1")),
            bulk(b"1700000001100"),
            Reply::Int(1),
        ]);
        let info = describe_reply(b"lock:s", "n:1".into(), &reply).unwrap();
        assert_eq!(info.kind, ListedKind::Semaphore);
        assert_eq!((info.holders[0].limit, info.holders[0].weight, info.holders[0].ttl_ms), (Some(3), Some(2), Some(1000)));
        let rw = Reply::Array(vec![bulk(b"zset"), bulk(b"1"), bulk(b"5"), Reply::Array(vec![bulk(&member("r0:1")), bulk(b"6")]), Reply::Int(0)]);
        assert_eq!(describe_reply(b"k", String::new(), &rw).unwrap().holders[0].mode, Some("read"));
        let foreign = Reply::Array(vec![bulk(b"zset"), bulk(b"1"), bulk(b"5"), Reply::Array(vec![bulk(b"x"), bulk(b"6")]), Reply::Int(0)]);
        assert_eq!(describe_reply(b"k", String::new(), &foreign), None);
        assert_eq!(describe_reply(b"k", String::new(), &Reply::Array(vec![bulk(b"none")])), None);
    }

    #[test]
    fn helper_keys_are_not_locks() {
        for aux in [&b"{lock:a}:f"[..], b"{lock:a}:t", b"lock:{7}:st", b"lock:{7}:f", b"{invoice:42}:rq", b"{invoice:42}:rt"] {
            assert!(is_aux_key(aux), "{aux:?}");
        }
        for lock in [&b"lock:a"[..], b"lock:a:f", b"lock:t", b"{x}"] {
            assert!(!is_aux_key(lock), "{lock:?}");
        }
    }
}
