//! A process' short memory of servers that failed in a way that costs time
//! (a connect or a reply that timed out): for a while, a call need not pay
//! that time again to learn the same. A failure is only taken as known by
//! calls that would not wait longer than the attempt that failed did: one
//! impatient caller (a node with a 1 ms timeout) does not make a server look
//! failed to patient ones.

use std::time::{Duration, Instant};

use super::dsn::Addr;
use super::process::PerProcess;

struct Entry<T> {
    addr: Addr,
    until: Instant,
    /// How long the failed attempt waited.
    waited: Duration,
    what: T,
}

pub struct Recall<T> {
    lasts: Duration,
    entries: PerProcess<Vec<Entry<T>>>,
}

impl<T: Clone> Recall<T> {
    pub const fn new(lasts: Duration) -> Self {
        Self { lasts, entries: PerProcess::new() }
    }

    /// How long a failure is remembered.
    pub fn lasts(&self) -> Duration {
        self.lasts
    }

    /// `addr` failed (`what`) after waiting `waited`.
    pub fn remember(&self, addr: &Addr, waited: Duration, what: T) {
        let now = Instant::now();
        self.entries.with(|entries| {
            entries.retain(|e| e.addr != *addr && e.until > now);
            entries.push(Entry { addr: addr.clone(), until: now + self.lasts, waited, what });
        });
    }

    /// What `addr` failed with, for a caller that would wait `patience`, if
    /// an attempt at least as patient failed a moment ago.
    pub fn known(&self, addr: &Addr, patience: Duration) -> Option<T> {
        let now = Instant::now();
        self.entries.with(|entries| {
            entries.retain(|e| e.until > now);
            entries.iter().find(|e| e.addr == *addr && e.waited >= patience).map(|e| e.what.clone())
        })
    }

    pub fn forget(&self, addr: &Addr) {
        self.entries.with(|entries| entries.retain(|e| e.addr != *addr));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(port: u16) -> Addr {
        Addr::Tcp { host: "127.0.0.1".into(), port }
    }

    #[test]
    fn a_failure_is_known_to_callers_no_more_patient_than_the_attempt() {
        static R: Recall<&str> = Recall::new(Duration::from_secs(60));
        R.remember(&at(1), Duration::from_millis(300), "slow");
        assert_eq!(R.known(&at(1), Duration::from_millis(300)), Some("slow"));
        assert_eq!(R.known(&at(1), Duration::from_millis(100)), Some("slow"));
        assert_eq!(R.known(&at(1), Duration::from_millis(301)), None);
        assert_eq!(R.known(&at(2), Duration::ZERO), None);
        R.forget(&at(1));
        assert_eq!(R.known(&at(1), Duration::ZERO), None);
    }

    #[test]
    fn a_failure_is_forgotten_after_a_while_and_a_new_one_replaces_the_old() {
        static R: Recall<u8> = Recall::new(Duration::from_millis(30));
        R.remember(&at(1), Duration::from_secs(1), 1);
        R.remember(&at(1), Duration::from_secs(1), 2);
        assert_eq!(R.known(&at(1), Duration::ZERO), Some(2));
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(R.known(&at(1), Duration::ZERO), None);
    }
}
