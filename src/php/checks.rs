//! Every check of an argument's value, and the clamping of user seconds to a `Duration`.

use std::time::Duration;

use super::errors::{Fail, Result};

/// Largest `$lockSecond` whose milliseconds Redis can still add to its clock.
pub const MAX_LOCK_SECONDS: i64 = i64::MAX / 1000 / 2;

/// Below this a lock could never be valid: the drift allowance alone is 2 ms.
pub const MIN_TTL_MS: i64 = 3;
/// Largest TTL (ms) that Redis can still add to its clock.
pub const MAX_TTL_MS: i64 = i64::MAX / 2;

/// Owner tokens longer than this are refused: they travel in every waiter's key.
const MAX_OWNER_BYTES: usize = 1024;

/// Timeouts longer than this (about 31 years) are as good as forever and are
/// clamped to it, which keeps every `Instant` and poll arithmetic in range.
pub const MAX_SECONDS: f64 = 1e9;

/// Keys or resources longer than this are refused: a waiter's wake-up comes
/// back with its list's name (the key and a suffix), and replies are capped.
pub const MAX_KEY_BYTES: usize = 1024 * 1024;

/// A key or resource (always argument #1): not empty, at most `MAX_KEY_BYTES`.
pub fn check_key(key: &[u8]) -> Result<&[u8]> {
    if key.is_empty() {
        return Err(Fail::Arg(1, "must not be empty".into()));
    }
    if key.len() > MAX_KEY_BYTES {
        return Err(Fail::Arg(1, format!("must be at most {MAX_KEY_BYTES} bytes long")));
    }
    Ok(key)
}

/// A `$timeout` in seconds: finite and not negative.
pub fn check_timeout(num: u32, timeout: f64) -> Result<()> {
    if !timeout.is_finite() {
        return Err(Fail::Arg(num, "must be a finite number".into()));
    }
    if timeout < 0.0 {
        return Err(Fail::Arg(num, "must be greater than or equal to 0".into()));
    }
    Ok(())
}

/// An int (`$sleep`, `$retryDelay`) that must not be below 0.
pub fn not_negative(num: u32, value: i64) -> Result<()> {
    if value < 0 {
        return Err(Fail::Arg(num, "must be greater than or equal to 0".into()));
    }
    Ok(())
}

/// A `$lockSecond`: from 1 to `MAX_LOCK_SECONDS`.
pub fn check_lock_seconds(num: u32, lock_second: i64) -> Result<()> {
    if !(1..=MAX_LOCK_SECONDS).contains(&lock_second) {
        return Err(Fail::Arg(num, format!("must be between 1 and {MAX_LOCK_SECONDS}")));
    }
    Ok(())
}

/// A `$retryCount`: from 1 to `u32::MAX`.
pub fn check_retry_count(num: u32, count: i64) -> Result<u32> {
    match u32::try_from(count) {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(Fail::Arg(num, format!("must be between 1 and {}", u32::MAX))),
    }
}

/// A `$limit` or `$weight` of permits: from 1 to `u32::MAX`.
pub fn check_limit(num: u32, n: i64) -> Result<u32> {
    match u32::try_from(n) {
        Ok(n) if n >= 1 => Ok(n),
        _ if n < 1 => Err(Fail::Arg(num, "must be greater than 0".into())),
        _ => Err(Fail::Arg(num, format!("must be less than or equal to {}", u32::MAX))),
    }
}

/// A TTL in milliseconds: from `MIN_TTL_MS` to `MAX_TTL_MS`.
pub fn check_ttl(num: u32, ttl: i64) -> Result<()> {
    if (MIN_TTL_MS..=MAX_TTL_MS).contains(&ttl) {
        Ok(())
    } else {
        Err(Fail::Arg(num, format!("must be between {MIN_TTL_MS} and {MAX_TTL_MS}")))
    }
}

/// An owner token: non-empty UTF-8 of at most MAX_OWNER_BYTES.
pub fn owner_token(num: u32, owner: &[u8]) -> Result<String> {
    if owner.is_empty() {
        return Err(Fail::Arg(num, "must not be empty".into()));
    }
    if owner.len() > MAX_OWNER_BYTES {
        return Err(Fail::Arg(num, format!("must be at most {MAX_OWNER_BYTES} bytes long")));
    }
    // (A NUL could make one token read as another's with a waiter's mark.)
    if owner.contains(&0) {
        return Err(Fail::Arg(num, "must not contain any null bytes".into()));
    }
    String::from_utf8(owner.to_vec()).map_err(|_| Fail::Arg(num, "must be valid UTF-8".into()))
}

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
