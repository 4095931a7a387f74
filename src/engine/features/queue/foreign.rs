//! Waiting behind a holder that will not wake us: a value that is not a
//! token of ours (a hand-rolled `SET NX` lock, Laravel's or symfony's own
//! lock, a key of another type) is released by a plain `DEL` or its TTL,
//! and no hand-off follows. The first waiter in line then looks again on a
//! short interval that grows while the same holder stays (from 1 ms, twice
//! as long each look, at most the caller's own look interval), starts
//! short again when a new holder took the key (its TTL went up), and never
//! sleeps past the holder's expiry. Only the first in line does so: the
//! others could not take the lock anyway.

use std::time::Duration;

/// The first look again behind a new foreign holder.
const FIRST: Duration = Duration::from_millis(1);

/// The state of one wait behind foreign holders.
#[derive(Debug, Default)]
pub struct Foreign {
    /// The interval of the last look again, if the last look saw a foreign holder.
    interval: Option<Duration>,
    /// The holder's TTL at the last look (ms; -1: none).
    pttl: i64,
}

impl Foreign {
    /// After a look: `reply` is ENQUEUE's integer (-2 - PTTL behind a
    /// foreign holder, else 0). Returns how long to sleep before looking
    /// again, or None to wait as usual (blocking for a wake-up).
    pub fn after(&mut self, reply: Option<i64>, check: Duration) -> Option<Duration> {
        let pttl = match reply {
            Some(r) if r <= -1 => -2 - r.max(i64::MIN + 2),
            _ => {
                self.interval = None;
                return None;
            }
        };
        let interval = match self.interval {
            Some(last) if pttl <= self.pttl || pttl < 0 => (last * 2).min(check).max(FIRST),
            _ => FIRST,
        };
        self.interval = Some(interval);
        self.pttl = pttl;
        // Just after the holder's TTL runs out (Redis expires a key when it
        // is next read, so the next look finds it free).
        let expiry = u64::try_from(pttl).ok().map(|ms| Duration::from_millis(ms + 1));
        Some(expiry.map_or(interval, |e| interval.min(e)))
    }

    /// Whether the next look goes without the blocking pop.
    pub fn polling(&self) -> bool {
        self.interval.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECK: Duration = Duration::from_millis(100);
    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn a_holder_of_ours_is_waited_for_as_usual() {
        let mut f = Foreign::default();
        assert_eq!(f.after(Some(0), CHECK), None);
        assert_eq!(f.after(None, CHECK), None);
        assert!(!f.polling());
    }

    #[test]
    fn the_same_foreign_holder_is_looked_at_on_a_growing_interval_up_to_check() {
        let mut f = Foreign::default();
        let looks: Vec<_> = [20_000, 19_999, 19_990, 19_980, 19_950, 19_900, 19_800, 19_700, 19_600]
            .iter()
            .map(|p| f.after(Some(-2 - p), CHECK).unwrap())
            .collect();
        assert_eq!(looks, [MS(1), MS(2), MS(4), MS(8), MS(16), MS(32), MS(64), MS(100), MS(100)]);
        assert!(f.polling());
    }

    #[test]
    fn a_new_holder_starts_the_interval_again() {
        let mut f = Foreign::default();
        for p in [20_000, 19_990, 19_980, 19_970] {
            f.after(Some(-2 - p), CHECK);
        }
        assert_eq!(f.after(Some(-2 - 20_000), CHECK), Some(MS(1)));
    }

    #[test]
    fn never_past_the_holders_expiry_and_a_holder_without_ttl_is_polled() {
        let mut f = Foreign::default();
        for p in [5_000, 4_990, 4_980, 4_970, 4_960, 4_950, 4_940] {
            f.after(Some(-2 - p), CHECK);
        }
        assert_eq!(f.after(Some(-2 - 3), CHECK), Some(MS(4)));
        let mut g = Foreign::default();
        assert_eq!(g.after(Some(-1), CHECK), Some(MS(1)));
        assert_eq!(g.after(Some(-1), CHECK), Some(MS(2)));
        assert_eq!(g.after(Some(i64::MIN), CHECK).map(|d| d <= CHECK), Some(true));
    }

    #[test]
    fn back_to_waiting_when_the_holder_is_ours_again() {
        let mut f = Foreign::default();
        f.after(Some(-2 - 100), CHECK);
        assert_eq!(f.after(Some(0), CHECK), None);
        assert!(!f.polling());
        assert_eq!(f.after(Some(-2 - 90), CHECK), Some(MS(1)));
    }
}
