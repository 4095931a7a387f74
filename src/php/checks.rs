//! User seconds as a `Duration`: negative or not-a-number refused, long ones clamped.

use std::time::Duration;

/// Timeouts longer than this (about 31 years) are as good as forever and are
/// clamped to it, which keeps every `Instant` and poll arithmetic in range.
pub const MAX_SECONDS: f64 = 1e9;

/// A user's number of seconds as a Duration: None when negative or not a
/// number (infinite included), clamped to `MAX_SECONDS`.
pub fn clamped_seconds(secs: f64) -> Option<Duration> {
    if !secs.is_finite() || secs < 0.0 {
        return None;
    }
    Duration::try_from_secs_f64(secs.min(MAX_SECONDS)).ok()
}

/// A timeout given as seconds greater than 0: as `clamped_seconds`, and at
/// least 1 µs (a zero Duration is no timeout at all to the socket calls).
pub fn clamped_timeout(secs: f64) -> Option<Duration> {
    (secs > 0.0).then(|| clamped_seconds(secs)).flatten().map(|d| d.max(Duration::from_micros(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_clamped_never_a_panic() {
        assert_eq!(clamped_seconds(1.5), Some(Duration::from_millis(1500)));
        assert_eq!(clamped_seconds(-0.0), Some(Duration::ZERO));
        assert_eq!(clamped_seconds(1e19), Some(Duration::from_secs(1_000_000_000)));
        assert_eq!(clamped_seconds(f64::MAX), Some(Duration::from_secs(1_000_000_000)));
        for bad in [-1e-9, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(clamped_seconds(bad), None, "{bad}");
            assert_eq!(clamped_timeout(bad), None, "{bad}");
        }
        assert_eq!(clamped_timeout(0.0), None);
        assert_eq!(clamped_timeout(-0.0), None);
        assert_eq!(clamped_timeout(1e-300), Some(Duration::from_micros(1)));
        assert_eq!(clamped_timeout(1e19), Some(Duration::from_secs(1_000_000_000)));
    }
}
