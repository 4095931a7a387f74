//! Counters of what the locks of this process, and of every process of a
//! PHP-FPM pool, went through: acquisitions (contended or not), timeouts,
//! hand-offs, renewals, lost leases, errors by kind, wait and hold time
//! histograms; per kind of lock and per key pattern (a bounded number of
//! series). The policy calls the hooks below at the one place where each
//! outcome is decided (hold.rs, request_end.rs, watchdog.rs); what they
//! cost is a few relaxed atomic adds.

mod glob;
mod region;
mod text;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub use glob::{Patterns, MAX_PATTERNS};
pub use region::{BUCKETS_MS, BYTES as TABLE_BYTES};
pub use text::{render, snapshot, Hist, SeriesCounts};

use super::kinds::Kind;
use crate::engine::error::Cause;
use crate::engine::features::lease::Patience;
use crate::engine::features::shared::Mode;
use crate::engine::features::waiting::{take_note, HANDED, WAITED};
use crate::engine::round::quorum::Outcome;
use region::{add, bucket_of, SLOTS};

static PATTERNS: OnceLock<Patterns> = OnceLock::new();
static MAPPING: OnceLock<Result<(), String>> = OnceLock::new();

/// Sets the counters up (module startup, before PHP-FPM forks): the key
/// patterns (matched against keys without `prefix`), fixed from now on,
/// and the pool's shared table.
pub fn start(patterns: &str, prefix: &[u8]) {
    let _ = PATTERNS.set(Patterns::parse(patterns, prefix));
    let _ = MAPPING.set(region::map_shared());
}

/// How the counters were set up, for `php --ri`.
pub struct Status {
    /// `Ok`: the counts cover every process forked after startup; `Err`:
    /// why the shared table could not be mapped (or that it never was), and
    /// each process counts for itself.
    pub shared: Result<(), String>,
    pub patterns: Patterns,
}

pub fn status() -> Status {
    let shared = match MAPPING.get() {
        Some(result) => result.clone(),
        None => Err("not set up at startup".into()),
    };
    Status { shared, patterns: PATTERNS.get().cloned().unwrap_or_default() }
}

/// The series of a lock: its kind × the first pattern its key matches.
fn series(kind: &Kind, key: &[u8]) -> usize {
    let k = match kind {
        Kind::Queued(_) => 0,
        Kind::Quorum(_) => 1,
        Kind::Shared(claim) if claim.mode == Mode::Permit => 3,
        Kind::Shared(_) => 2,
    };
    k * SLOTS + PATTERNS.get().map_or(0, |p| p.slot_of(key)).min(SLOTS - 1)
}

fn observe(series: usize, hist: usize, d: Duration) {
    let us = d.as_micros().min(u64::MAX as u128) as u64;
    add(series, hist + bucket_of(us), 1);
    add(series, hist + region::HIST - 1, us);
}

/// Before an acquisition: when it began (and what earlier waits noted is dropped).
pub fn acquiring() -> Instant {
    take_note();
    Instant::now()
}

/// An acquisition of `key` as `kind` that began at `began` ended with `outcome`;
/// when (read once, for the hold time too). A refusal after a wait is a
/// timeout; one without (a single try) is "busy".
pub fn acquired(kind: &Kind, key: &[u8], patience: Patience, outcome: &Outcome, began: Instant) -> Instant {
    let now = Instant::now();
    let s = series(kind, key);
    let note = take_note();
    match outcome {
        Outcome::Confirmed { .. } => {
            add(s, region::ACQUIRED, 1);
            if note & WAITED != 0 {
                add(s, region::CONTENDED, 1);
            }
            if note & HANDED != 0 {
                add(s, region::HANDOFFS, 1);
            }
            observe(s, region::WAIT, now.saturating_duration_since(began));
        }
        Outcome::Refused => {
            let waits = match patience {
                Patience::Until { .. } => true,
                Patience::Attempts { attempts, .. } => attempts > 1,
            };
            add(s, if waits { region::TIMEOUTS } else { region::BUSY }, 1);
        }
        failed => failure(s, failed),
    }
    now
}

/// A release (or the request end's) of a lock held since `taken` ended
/// with `outcome`: given back (its hold time counted), found no longer ours
/// (a lost lease), or failed.
pub fn released(kind: &Kind, key: &[u8], taken: Instant, outcome: &Outcome) {
    let s = series(kind, key);
    match outcome {
        Outcome::Confirmed { .. } => observe(s, region::HOLD, taken.elapsed()),
        Outcome::Refused => add(s, region::LOST, 1),
        failed => failure(s, failed),
    }
}

/// A lock's TTL was extended (by its holder or by its renewals), or the call failed.
pub fn extended(kind: &Kind, key: &[u8], outcome: &Outcome) {
    let s = series(kind, key);
    match outcome {
        Outcome::Confirmed { .. } => add(s, region::RENEWALS, 1),
        Outcome::Refused => add(s, region::LOST, 1),
        failed => failure(s, failed),
    }
}

/// Renewals found a lock lost (gone, capped, or unreachable until its TTL ran out).
pub fn lost(kind: &Kind, key: &[u8]) {
    add(series(kind, key), region::LOST, 1);
}

/// A failed call: one error per server that failed, by its cause.
fn failure(s: usize, outcome: &Outcome) {
    match outcome {
        Outcome::Unreachable(errors) if !errors.is_empty() => errors.iter().for_each(|e| add(s, region::ERRORS + error_kind(&e.cause), 1)),
        Outcome::Unreachable(_) => add(s, region::ERRORS + error_kind(&Cause::Timeout(Duration::ZERO)), 1),
        Outcome::Interrupted => add(s, region::ERRORS + error_kind(&Cause::Interrupted), 1),
        _ => {}
    }
}

/// The index in `ERROR_KINDS` of a cause.
fn error_kind(cause: &Cause) -> usize {
    match cause {
        Cause::Connect(_) => 0,
        Cause::Auth(_) => 1,
        Cause::Timeout(_) => 2,
        Cause::Io(_) => 3,
        Cause::Reply { .. } => 4,
        Cause::Protocol(_) | Cause::Garbled(_) => 5,
        Cause::SameServer(_) => 6,
        Cause::Interrupted => 7,
        Cause::Unresolved(_) => 8,
        Cause::Redirected { .. } => 9,
        Cause::SlotUnstable { .. } => 10,
        Cause::Replicas { .. } => 11,
        Cause::OutlivedByWait { .. } => 12,
    }
}

#[cfg(test)]
mod tests;
