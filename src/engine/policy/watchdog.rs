//! Lease renewal (`redis_lock.auto_renew`): while this process holds a lock
//! taken with renewal on, one background thread sets its TTL again every
//! third of it, by the same owner-checked quorum round as `extend()`. The
//! TTL then only says how long a dead holder keeps the lock.
//!
//! A renewal that is refused (another owner took it, or it had expired),
//! or that cannot reach a quorum before the TTL ran out, marks the lock lost;
//! so does reaching the cap (`redis_lock.max_hold`), after which the lock is
//! left to expire. The holder learns it at its next release or extension
//! (`held.rs`), never later than that.
//!
//! One thread per process, started with the first renewed lock (never at
//! module startup), parked while nothing is due, joined at module shutdown.
//! It works only on Rust data, with connections of its own; the time limit
//! of PHP's thread never cuts its waits short. A forked child inherits no
//! renewals and no thread (its state starts afresh, `per_process.rs`).

use std::collections::HashMap;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

pub use super::renew::Renewal;
use super::batch::CHUNK;
use super::renew::{renew_all, Found};
use super::metrics;
use crate::engine::round::quorum::Outcome;
use crate::engine::error::{self, Cause, NodeError};
use crate::engine::features::owner;
use crate::engine::net::process::{set_background, PerProcess};
use crate::engine::net::threads;

/// Why a renewed lock is no longer ours.
#[derive(Clone, Debug, PartialEq)]
pub enum Lost {
    /// A renewal found another token, or no key: `after` it was taken.
    Refused { after: Duration },
    /// No quorum could be reached before the TTL ran out.
    Unreachable(Vec<NodeError>),
    /// Held for `max_hold`: renewals stopped and the TTL ran out.
    Capped { max_hold: Duration },
    /// The renewal thread could not be started.
    NoThread(String),
}

impl std::fmt::Display for Lost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lost::Refused { after } => write!(
                f,
                "another owner took it or it expired (found at a renewal {:.1} s after it was taken)",
                after.as_secs_f64()
            ),
            Lost::Unreachable(errors) if errors.is_empty() => f.write_str("Redis could not be reached to renew it before its TTL ran out"),
            Lost::Unreachable(errors) if errors.iter().all(|e| matches!(e.cause, Cause::Replicas { .. })) => {
                write!(f, "no renewal reached enough replicas before its TTL ran out: {}", error::list(errors))
            }
            Lost::Unreachable(errors) => {
                write!(f, "Redis could not be reached to renew it before its TTL ran out: {}", error::list(errors))
            }
            Lost::Capped { max_hold } => write!(
                f,
                "it was held for redis_lock.max_hold ({} s), so renewals stopped and it expired",
                max_hold.as_secs_f64()
            ),
            Lost::NoThread(why) => write!(f, "its renewal thread could not be started: {why}"),
        }
    }
}

struct Entry {
    id: u64,
    renewal: Renewal,
    taken: Instant,
    /// When the next renewal is due.
    due: Instant,
    /// Until when the last confirmed TTL surely runs.
    good_until: Instant,
    lost: Option<Lost>,
    /// Errors of the renewals failing since the last confirmed one.
    failing: Vec<NodeError>,
}

#[derive(Default)]
struct Table {
    entries: HashMap<u64, Entry>,
    next_id: u64,
    thread: Option<JoinHandle<()>>,
    stop: bool,
}

static TABLE: PerProcess<Table> = PerProcess::new();

/// Renews `renewal` from now on (its lock was just taken); returns its id.
pub fn start(renewal: Renewal) -> u64 {
    // The thread's script digest is computed here: a fork must never copy it half made.
    owner::prepare_extend();
    let now = Instant::now();
    let ttl = Duration::from_millis(renewal.ttl_ms.max(1) as u64);
    let (id, thread) = TABLE.with(|t| {
        t.next_id += 1;
        let id = t.next_id;
        t.entries.insert(id, Entry {
            id,
            due: now + ttl / 3,
            good_until: now + ttl,
            taken: now,
            renewal,
            lost: None,
            failing: Vec::new(),
        });
        t.stop = false;
        if t.thread.is_none() {
            match threads::spawn("rl-renew", run) {
                Ok(handle) => t.thread = Some(handle),
                Err(e) => {
                    if let Some(entry) = t.entries.get_mut(&id) {
                        entry.lost = Some(Lost::NoThread(e.to_string()));
                    }
                }
            }
        }
        (id, t.thread.as_ref().map(|h| h.thread().clone()))
    });
    if let Some(thread) = thread {
        thread.unpark();
    }
    id
}

/// Stops renewing `id`; says whether it was lost meanwhile.
pub fn stop(id: u64) -> Option<Lost> {
    TABLE.with(|t| t.entries.remove(&id)?.lost)
}

/// Whether `id` was lost (it stays renewed or lost until `stop`).
pub fn lost(id: u64) -> Option<Lost> {
    TABLE.with(|t| t.entries.get(&id).and_then(|e| e.lost.clone()))
}

/// Renews `id` with a new TTL, just set, from now on (after an extension).
pub fn set_ttl(id: u64, ttl_ms: i64) {
    change_ttl(id, ttl_ms, false);
}

/// Renews `id` with at least `ttl_ms`, just made sure of (after a re-entry).
pub fn raise_ttl(id: u64, ttl_ms: i64) {
    change_ttl(id, ttl_ms, true);
}

fn change_ttl(id: u64, ttl_ms: i64, raise_only: bool) {
    let now = Instant::now();
    TABLE.with(|t| {
        let Some(e) = t.entries.get_mut(&id).filter(|e| e.lost.is_none()) else { return };
        if raise_only && ttl_ms <= e.renewal.ttl_ms {
            return;
        }
        let ttl = Duration::from_millis(ttl_ms.max(1) as u64);
        e.renewal.ttl_ms = ttl_ms;
        e.good_until = now + ttl;
        e.due = e.due.min(now + ttl / 3);
        if let Some(max_hold) = e.renewal.max_hold {
            e.due = e.due.min(e.taken + max_hold);
        }
    });
}

/// Stops every renewal (the request that held them ended).
pub fn stop_all() {
    TABLE.with(|t| t.entries.clear());
}

/// Ends the thread and waits for it (module shutdown).
pub fn shutdown() {
    let handle = TABLE.with(|t| {
        t.stop = true;
        t.entries.clear();
        t.thread.take()
    });
    if let Some(handle) = handle {
        handle.thread().unpark();
        let _ = handle.join();
    }
}

/// A TTL set in whole milliseconds may end this much before the cap.
const CAP_SLACK: Duration = Duration::from_millis(1);

enum Next {
    Stop,
    Park(Option<Duration>),
    /// These (ids, and what to renew) are due.
    Renew(Vec<u64>, Vec<(Renewal, Instant)>),
}

fn run() {
    set_background();
    loop {
        let now = Instant::now();
        let next = TABLE.with(|t| {
            if t.stop {
                return Next::Stop;
            }
            let (mut ids, mut due) = (Vec::new(), Vec::new());
            for e in t.entries.values_mut() {
                if e.lost.is_some() || e.due > now || due.len() >= CHUNK {
                    continue;
                }
                if e.renewal.max_hold.is_some_and(|m| now + CAP_SLACK >= e.taken + m) {
                    // At the cap: no more renewals; lost once its TTL ran out.
                    apply(e, Found::Capped);
                } else {
                    // Not due again until this renewal reported back.
                    e.due = now + Duration::from_secs(3600);
                    ids.push(e.id);
                    due.push((e.renewal.clone(), e.taken));
                }
            }
            if !due.is_empty() {
                return Next::Renew(ids, due);
            }
            let first = t.entries.values().filter(|e| e.lost.is_none()).map(|e| e.due).min();
            Next::Park(first.map(|d| d.saturating_duration_since(now)))
        });
        match next {
            Next::Stop => return,
            Next::Park(Some(d)) => thread::park_timeout(d),
            Next::Park(None) => thread::park(),
            Next::Renew(ids, due) => {
                let found = std::panic::catch_unwind(|| renew_all(&due));
                TABLE.with(|t| {
                    let found = found.into_iter().flatten().map(Some).chain(std::iter::repeat_with(|| None));
                    for (id, f) in ids.iter().zip(found) {
                        if let Some(e) = t.entries.get_mut(id) {
                            // A renewal that never reported back is tried again soon.
                            apply(e, f.unwrap_or(Found::Failed(Vec::new())));
                        }
                    }
                });
            }
        }
    }
}

fn apply(e: &mut Entry, result: Found) {
    let now = Instant::now();
    let (kind, key) = (&e.renewal.kind, &e.renewal.key);
    match &result {
        Found::Renewed { .. } => metrics::extended(kind, key, &Outcome::Confirmed { validity_ms: 0.0 }),
        Found::Failed(errors) => metrics::extended(kind, key, &Outcome::Unreachable(errors.clone())),
        _ => {}
    }
    let was_lost = e.lost.is_some();
    apply_found(e, result, now);
    if !was_lost && e.lost.is_some() {
        metrics::lost(&e.renewal.kind, &e.renewal.key);
    }
}

fn apply_found(e: &mut Entry, result: Found, now: Instant) {
    match result {
        Found::Renewed { good_until, ttl } => {
            e.good_until = good_until;
            e.failing.clear();
            e.due = now + ttl / 3;
            if let Some(max_hold) = e.renewal.max_hold {
                let cap = e.taken + max_hold;
                // Renewed up to the cap: nothing more until then.
                e.due = if good_until + CAP_SLACK >= cap { cap } else { e.due.min(cap) };
            }
        }
        Found::Refused => e.lost = Some(Lost::Refused { after: now.saturating_duration_since(e.taken) }),
        Found::Capped if now + CAP_SLACK >= e.good_until => {
            e.lost = Some(Lost::Capped { max_hold: e.renewal.max_hold.unwrap_or_default() });
        }
        // Extended past the cap by its holder: lost when that TTL ran out.
        Found::Capped => e.due = e.good_until,
        Found::Failed(errors) => {
            e.failing = errors;
            if now >= e.good_until {
                e.lost = Some(Lost::Unreachable(std::mem::take(&mut e.failing)));
            } else {
                // Again soon, and once more right when the TTL runs out.
                let ttl = Duration::from_millis(e.renewal.ttl_ms.max(1) as u64);
                let retry = (ttl / 10).clamp(Duration::from_millis(10), Duration::from_millis(500));
                e.due = (now + retry).min(e.good_until);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::policy::kinds::Kind;
    use crate::engine::net::conn::Limits;

    fn entry(ttl_ms: i64, max_hold: Option<Duration>) -> Entry {
        let now = Instant::now();
        let renewal =
            Renewal { nodes: vec![], key: b"k".to_vec(), token: "t".into(), ttl_ms, limits: Limits::default(), max_hold, replicas: None, kind: Kind::Quorum(Default::default()) };
        let ttl = Duration::from_millis(ttl_ms as u64);
        Entry { id: 1, renewal, taken: now, due: now + ttl / 3, good_until: now + ttl, lost: None, failing: vec![] }
    }

    #[test]
    fn renewals_stop_at_the_cap_and_the_lock_is_lost_when_its_ttl_ran_out() {
        let mut e = entry(900, Some(Duration::from_millis(1000)));
        let cap = e.taken + Duration::from_millis(1000);
        // A renewal that reaches the cap: nothing more is due before it.
        apply(&mut e, Found::Renewed { good_until: cap, ttl: Duration::from_millis(900) });
        assert_eq!(e.due, cap);
        // At the cap with TTL still running (extended by its holder): lost when it runs out.
        e.good_until = Instant::now() + Duration::from_secs(5);
        apply(&mut e, Found::Capped);
        assert!(e.lost.is_none());
        assert_eq!(e.due, e.good_until);
        e.good_until = Instant::now();
        apply(&mut e, Found::Capped);
        assert_eq!(e.lost, Some(Lost::Capped { max_hold: Duration::from_millis(1000) }));
    }

    #[test]
    fn failed_renewals_retry_until_the_ttl_ran_out() {
        let mut e = entry(1000, None);
        apply(&mut e, Found::Failed(vec![]));
        assert!(e.lost.is_none() && e.due <= e.good_until, "retried within the TTL");
        e.good_until = Instant::now();
        apply(&mut e, Found::Failed(vec![]));
        assert_eq!(e.lost, Some(Lost::Unreachable(vec![])));
        let mut e = entry(1000, None);
        apply(&mut e, Found::Refused);
        assert!(matches!(e.lost, Some(Lost::Refused { .. })));
        assert!(e.lost.unwrap().to_string().contains("another owner took it or it expired"));
    }
}
