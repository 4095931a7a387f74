//! `redis_lock_metrics()` and `redis_lock_metrics_array()`: the counters of
//! `engine::policy::metrics` as OpenMetrics text and as a PHP array.

use ext_php_rs::boxed::ZBox;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, Zval};

use super::errors::{Fail, Result};
use crate::engine::policy::{metrics_snapshot, metrics_status, metrics_text, Hist, SeriesCounts, BUCKETS_MS};

/// The OpenMetrics text of the pool's counts (this process' where the
/// shared table could not be mapped).
#[php_function]
pub fn redis_lock_metrics() -> String {
    let shared = metrics_status().shared.is_ok();
    metrics_text(&metrics_snapshot(true), shared)
}

/// The raw numbers, of the pool and of this process (shape: the stub).
#[php_function]
pub fn redis_lock_metrics_array() -> Result<ZBox<ZendHashTable>> {
    let mut array = ZendHashTable::new();
    array.insert("shared", metrics_status().shared.is_ok()).map_err(built)?;
    let buckets: Vec<i64> = BUCKETS_MS.iter().map(|&ms| ms as i64).collect();
    array.insert("buckets_ms", buckets).map_err(built)?;
    array.insert("pool", list(&metrics_snapshot(true))?).map_err(built)?;
    array.insert("process", list(&metrics_snapshot(false))?).map_err(built)?;
    Ok(array)
}

/// `redis_lock_metrics()`, for the module's registration.
pub fn text_function() -> ext_php_rs::builders::FunctionBuilder<'static> {
    wrap_function!(redis_lock_metrics)
}

/// `redis_lock_metrics_array()`, for the module's registration.
pub fn array_function() -> ext_php_rs::builders::FunctionBuilder<'static> {
    wrap_function!(redis_lock_metrics_array)
}

fn built(e: ext_php_rs::error::Error) -> Fail {
    Fail::Value(format!("cannot build the metrics array: {e}"))
}

fn zval_of(table: ZBox<ZendHashTable>) -> Zval {
    let mut zval = Zval::new();
    zval.set_hashtable(table);
    zval
}

fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn list(series: &[SeriesCounts]) -> Result<Zval> {
    let mut out = ZendHashTable::new();
    for s in series {
        let mut a = ZendHashTable::new();
        a.insert("kind", s.kind).map_err(built)?;
        a.insert("pattern", s.pattern.as_str()).map_err(built)?;
        let counts = [
            ("acquisitions", s.acquired),
            ("contended", s.contended),
            ("timeouts", s.timeouts),
            ("busy", s.busy),
            ("handoffs", s.handoffs),
            ("renewals", s.renewals),
            ("lost_leases", s.lost),
        ];
        for (name, n) in counts {
            a.insert(name, int(n)).map_err(built)?;
        }
        let mut errors = ZendHashTable::new();
        for (error, n) in &s.errors {
            errors.insert(*error, int(*n)).map_err(built)?;
        }
        a.insert("errors", zval_of(errors)).map_err(built)?;
        a.insert("wait", hist(&s.wait)?).map_err(built)?;
        a.insert("hold", hist(&s.hold)?).map_err(built)?;
        out.push(zval_of(a)).map_err(built)?;
    }
    Ok(zval_of(out))
}

fn hist(h: &Hist) -> Result<Zval> {
    let mut a = ZendHashTable::new();
    let buckets: Vec<i64> = h.buckets.iter().map(|&n| int(n)).collect();
    a.insert("buckets", buckets).map_err(built)?;
    a.insert("sum_ms", h.sum_us as f64 / 1000.0).map_err(built)?;
    a.insert("count", int(h.count())).map_err(built)?;
    Ok(zval_of(a))
}
