//! The counters as numbers (`snapshot`) and as OpenMetrics text (`render`):
//! counters as `<name>_total`, histograms as cumulative `_bucket{le=…}`,
//! `_sum` and `_count` in seconds, `# EOF` at the end. Only the series that
//! counted something are shown.

use std::fmt::Write;

use super::region::{self, BUCKETS_MS, ERROR_KINDS, FIELDS, HIST, KINDS, SLOTS};
use super::PATTERNS;

/// A histogram: one count per bucket of `BUCKETS_MS` then +Inf (not
/// cumulative), and the sum of the durations in µs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hist {
    pub buckets: Vec<u64>,
    pub sum_us: u64,
}

impl Hist {
    fn of(cells: &[u64]) -> Hist {
        Hist { buckets: cells[..HIST - 1].to_vec(), sum_us: cells[HIST - 1] }
    }

    /// How many durations were counted (the +Inf bucket).
    pub fn count(&self) -> u64 {
        self.buckets.iter().sum()
    }
}

/// One series' counts: a kind of lock × a key pattern ("other": none matched).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeriesCounts {
    pub kind: &'static str,
    pub pattern: String,
    pub acquired: u64,
    pub contended: u64,
    pub timeouts: u64,
    pub busy: u64,
    pub handoffs: u64,
    pub renewals: u64,
    pub lost: u64,
    /// Per `ERROR_KINDS`, those not zero.
    pub errors: Vec<(&'static str, u64)>,
    pub wait: Hist,
    pub hold: Hist,
}

/// The series that counted something, of the pool (`pool`: every process
/// forked after startup; this process' alone if the table is not shared)
/// or of this process.
pub fn snapshot(pool: bool) -> Vec<SeriesCounts> {
    let cells = region::read(pool);
    let patterns = PATTERNS.get().map(|p| p.list.clone()).unwrap_or_default();
    let mut out = Vec::new();
    for (k, kind) in KINDS.iter().enumerate() {
        for slot in 0..SLOTS {
            let c = &cells[(k * SLOTS + slot) * FIELDS..][..FIELDS];
            if c.iter().all(|&v| v == 0) {
                continue;
            }
            let pattern = patterns.get(slot).cloned().unwrap_or_else(|| "other".into());
            let errors = ERROR_KINDS.iter().zip(&c[region::ERRORS..]).filter(|(_, &n)| n > 0).map(|(e, &n)| (*e, n)).collect();
            out.push(SeriesCounts {
                kind,
                pattern,
                acquired: c[region::ACQUIRED],
                contended: c[region::CONTENDED],
                timeouts: c[region::TIMEOUTS],
                busy: c[region::BUSY],
                handoffs: c[region::HANDOFFS],
                renewals: c[region::RENEWALS],
                lost: c[region::LOST],
                errors,
                wait: Hist::of(&c[region::WAIT..]),
                hold: Hist::of(&c[region::HOLD..]),
            });
        }
    }
    out
}

type Counter = (&'static str, &'static str, fn(&SeriesCounts) -> u64);

const COUNTERS: [Counter; 7] = [
    ("acquisitions", "Locks taken.", |s| s.acquired),
    ("contended_acquisitions", "Locks taken after waiting for another holder.", |s| s.contended),
    ("timeouts", "Acquisitions that waited and gave up (the timeout or the retries ran out).", |s| s.timeouts),
    ("busy", "Acquisitions without a wait that found the lock held.", |s| s.busy),
    ("handoffs", "Locks handed by a release to a waiting caller.", |s| s.handoffs),
    ("renewals", "TTL extensions, by extend() or by the renewals of auto_renew.", |s| s.renewals),
    ("lost_leases", "Locks found no longer ours (expired or taken) at a release, extension or renewal.", |s| s.lost),
];

/// The OpenMetrics text of `series`; `shared`: whether they cover the pool.
pub fn render(series: &[SeriesCounts], shared: bool) -> String {
    let mut out = String::with_capacity(256 + series.len() * 2048);
    out.push_str("# TYPE redis_lock_metrics_shared gauge\n");
    out.push_str("# HELP redis_lock_metrics_shared 1 when these counts cover every process of the pool, 0 when only this process.\n");
    let _ = writeln!(out, "redis_lock_metrics_shared {}", u8::from(shared));
    for (name, help, value) in COUNTERS {
        let _ = writeln!(out, "# TYPE redis_lock_{name} counter\n# HELP redis_lock_{name} {help}");
        for s in series {
            let _ = writeln!(out, "redis_lock_{name}_total{{{}}} {}", labels(s), value(s));
        }
    }
    out.push_str("# TYPE redis_lock_errors counter\n# HELP redis_lock_errors Failed calls, one per server that failed, by cause.\n");
    for s in series {
        for (error, n) in &s.errors {
            let _ = writeln!(out, "redis_lock_errors_total{{{},error=\"{error}\"}} {n}", labels(s));
        }
    }
    histogram(&mut out, series, "wait", "Time an acquisition took until the lock was held, waits included.", |s| &s.wait);
    histogram(&mut out, series, "hold", "Time from acquisition to release.", |s| &s.hold);
    out.push_str("# EOF\n");
    out
}

fn histogram(out: &mut String, series: &[SeriesCounts], name: &str, help: &str, hist: fn(&SeriesCounts) -> &Hist) {
    let _ = writeln!(out, "# TYPE redis_lock_{name}_seconds histogram\n# HELP redis_lock_{name}_seconds {help}\n# UNIT redis_lock_{name}_seconds seconds");
    for s in series {
        let (h, l) = (hist(s), labels(s));
        let mut below = 0;
        for (i, n) in h.buckets.iter().enumerate() {
            below += n;
            let le = BUCKETS_MS.get(i).map_or("+Inf".into(), |ms| format!("{:?}", *ms as f64 / 1000.0));
            let _ = writeln!(out, "redis_lock_{name}_seconds_bucket{{{l},le=\"{le}\"}} {below}");
        }
        let _ = writeln!(out, "redis_lock_{name}_seconds_sum{{{l}}} {:?}", h.sum_us as f64 / 1e6);
        let _ = writeln!(out, "redis_lock_{name}_seconds_count{{{l}}} {below}");
    }
}

fn labels(s: &SeriesCounts) -> String {
    format!("kind=\"{}\",pattern=\"{}\"", s.kind, escaped(&s.pattern))
}

/// A label value as OpenMetrics writes it: `\`, `"` and newlines escaped.
fn escaped(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}
