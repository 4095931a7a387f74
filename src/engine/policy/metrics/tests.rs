//! The counters without PHP: the hooks' arithmetic, the series bound, and
//! the OpenMetrics text parsed back.

use std::time::{Duration, Instant};

use super::*;
use crate::engine::error::NodeError;
use crate::engine::features::queue::Hint;
use crate::engine::features::shared::Claim;
use crate::engine::features::waiting::note;

/// Every test sets the same patterns (the first call fixes them) and counts
/// under a pattern of its own, so tests running together do not meet.
const PATTERNS_SETTING: &str = "t-acq:*,t-rel:*,t-err:*,t-text:*";

fn counts(kind: &str, pattern: &str) -> SeriesCounts {
    snapshot(true).into_iter().find(|s| s.kind == kind && s.pattern == pattern).unwrap_or_default()
}

const UNTIL: Patience = Patience::Attempts { attempts: 3, delay: Duration::ZERO };
const ONCE: Patience = Patience::Attempts { attempts: 1, delay: Duration::ZERO };
const CONFIRMED: Outcome = Outcome::Confirmed { validity_ms: 1.0 };

#[test]
fn acquisitions_contention_handoffs_timeouts_and_busy_are_counted_per_kind_and_pattern() {
    start(PATTERNS_SETTING, b"");
    let mutex = Kind::Queued(Hint::default());
    let began = acquiring();
    let now = acquired(&mutex, b"t-acq:1", ONCE, &CONFIRMED, began);
    assert!(now >= began);
    let began = acquiring();
    note(WAITED | HANDED);
    acquired(&mutex, b"t-acq:2", UNTIL, &CONFIRMED, began);
    acquired(&mutex, b"t-acq:3", UNTIL, &Outcome::Refused, acquiring());
    acquired(&mutex, b"t-acq:3", ONCE, &Outcome::Refused, acquiring());
    acquired(&Kind::Shared(Claim::permits(3, 1)), b"t-acq:4", ONCE, &CONFIRMED, acquiring());
    let m = counts("mutex", "t-acq:*");
    assert_eq!((m.acquired, m.contended, m.handoffs, m.timeouts, m.busy), (2, 1, 1, 1, 1));
    assert_eq!(m.wait.count(), 2, "one wait per acquisition");
    assert_eq!(counts("semaphore", "t-acq:*").acquired, 1);
    assert_eq!(counts("read-write", "t-acq:*").acquired, 0);
}

#[test]
fn a_note_left_by_an_earlier_wait_does_not_count_for_the_next_acquisition() {
    start(PATTERNS_SETTING, b"");
    note(WAITED);
    let began = acquiring();
    acquired(&Kind::Shared(Claim::READ), b"t-rel:rw", ONCE, &CONFIRMED, began);
    let rw = counts("read-write", "t-rel:*");
    assert_eq!((rw.acquired, rw.contended), (1, 0));
}

#[test]
fn releases_count_hold_times_and_lost_leases_and_renewals() {
    start(PATTERNS_SETTING, b"");
    let taken = Instant::now() - Duration::from_millis(30);
    let redlock = Kind::Quorum(Default::default());
    released(&redlock, b"t-rel:1", taken, &CONFIRMED);
    released(&redlock, b"t-rel:1", taken, &Outcome::Refused);
    extended(&redlock, b"t-rel:1", &CONFIRMED);
    lost(&redlock, b"t-rel:1");
    let r = counts("redlock", "t-rel:*");
    assert_eq!((r.renewals, r.lost, r.hold.count()), (1, 2, 1));
    // 30 ms falls in (25, 50]: the fifth bucket.
    assert_eq!(r.hold.buckets[4], 1, "{:?}", r.hold);
    assert!(r.hold.sum_us >= 30_000);
}

#[test]
fn errors_are_counted_by_cause_one_per_failed_server() {
    start(PATTERNS_SETTING, b"");
    let e = |cause| NodeError::new("127.0.0.1:1", cause);
    let outcome = Outcome::Unreachable(vec![e(Cause::Connect("refused".into())), e(Cause::Timeout(Duration::from_secs(1)))]);
    let redlock = Kind::Quorum(Default::default());
    acquired(&redlock, b"t-err:1", UNTIL, &outcome, acquiring());
    acquired(&redlock, b"t-err:1", UNTIL, &Outcome::Interrupted, acquiring());
    let r = counts("redlock", "t-err:*");
    assert_eq!(r.errors, vec![("connect", 1), ("timeout", 1), ("interrupted", 1)]);
    assert_eq!(r.acquired, 0);
}

#[test]
fn a_key_matching_no_pattern_is_other() {
    start(PATTERNS_SETTING, b"");
    let before = counts("semaphore", "other").busy;
    acquired(&Kind::Shared(Claim::permits(1, 1)), b"no-pattern-here", ONCE, &Outcome::Refused, acquiring());
    assert_eq!(counts("semaphore", "other").busy, before + 1);
}

/// The text parsed back: each sample `name{labels} value`, buckets
/// cumulative and non-decreasing, `_count` equal to the +Inf bucket, `# EOF` last.
#[test]
fn the_text_is_openmetrics() {
    let mut s = SeriesCounts { kind: "mutex", pattern: "a\"b".into(), acquired: 3, ..Default::default() };
    s.wait = Hist { buckets: vec![2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], sum_us: 12_000_500 };
    s.errors = vec![("timeout", 2)];
    let text = render(&[s], true);
    assert!(text.ends_with("# EOF\n"));
    assert!(text.contains("redis_lock_acquisitions_total{kind=\"mutex\",pattern=\"a\\\"b\"} 3\n"), "{text}");
    assert!(text.contains("redis_lock_errors_total{kind=\"mutex\",pattern=\"a\\\"b\",error=\"timeout\"} 2\n"));
    assert!(text.contains("redis_lock_wait_seconds_bucket{kind=\"mutex\",pattern=\"a\\\"b\",le=\"0.001\"} 2\n"));
    assert!(text.contains("le=\"10.0\"} 3\n") && text.contains("le=\"+Inf\"} 4\n"));
    assert!(text.contains("redis_lock_wait_seconds_count{kind=\"mutex\",pattern=\"a\\\"b\"} 4\n"));
    assert!(text.contains("redis_lock_wait_seconds_sum{kind=\"mutex\",pattern=\"a\\\"b\"} 12.0005\n"));
    let mut last_bucket = 0u64;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (name, value) = line.rsplit_once(' ').expect("name value");
        assert!(value.parse::<f64>().is_ok(), "{line}");
        assert!(name.starts_with("redis_lock_"), "{line}");
        if name.contains("_bucket{") {
            let v: u64 = value.parse().expect("integer bucket");
            assert!(v >= last_bucket || name.contains("le=\"0.001\""), "cumulative: {line}");
            last_bucket = v;
        }
    }
    assert_eq!(text.matches("# EOF").count(), 1);
}

#[test]
fn counts_are_readable_before_any_startup() {
    // Whatever status says, snapshot and render never fail.
    let status = status();
    assert!(status.patterns.list.len() <= MAX_PATTERNS);
    assert!(render(&snapshot(false), false).ends_with("# EOF\n"));
}
