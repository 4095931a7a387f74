//! What to do after an error reply that may send a request elsewhere, as a
//! pure decision (no sockets): redirections (`MOVED`, `ASK`), a slot being
//! migrated or a cluster electing (`TRYAGAIN`, `CLUSTERDOWN`), a Sentinel
//! master demoted (`READONLY`, `UNBLOCKED`).

use std::time::{Duration, Instant};

use super::request::Unstable;
use crate::engine::error::Cause;
use crate::engine::net::dsn::{Addr, Route};
use crate::engine::protocol::errors::ErrorKind;
use crate::engine::protocol::resp::printable;
use crate::engine::protocol::slot::SLOTS;

/// Redirections and new look-ups one node's requests may take.
pub const MAX_HOPS: u32 = 5;

/// What a server's error reply means for where the request goes next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Redirect {
    /// `MOVED`: the slot's master is `to` now.
    Moved { slot: u16, to: Addr },
    /// `ASK`: this once, at `to` (after `ASKING`).
    Ask { to: Addr },
    /// `TRYAGAIN`, `CLUSTERDOWN`: the same place, a moment later.
    Later,
    /// `READONLY`, `UNBLOCKED` on a Sentinel deployment: the master changed.
    Elsewhere,
}

/// The redirection an error reply `msg` from `at` asks for on a deployment
/// of kind `route`; `None`: the error stands.
pub fn classify(route: &Route, msg: &[u8], at: &Addr) -> Option<Redirect> {
    let kind = ErrorKind::of(msg);
    match route {
        Route::Direct => None,
        Route::Cluster(_) => match kind {
            ErrorKind::Moved => redirection(msg, at).map(|(slot, to)| Redirect::Moved { slot, to }),
            ErrorKind::Ask => redirection(msg, at).map(|(_, to)| Redirect::Ask { to }),
            ErrorKind::TryAgain | ErrorKind::ClusterDown => Some(Redirect::Later),
            _ => None,
        },
        Route::Sentinel(_) => matches!(kind, ErrorKind::Readonly | ErrorKind::Unblocked).then_some(Redirect::Elsewhere),
    }
}

/// How far a node's requests went so far.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Redirections and new look-ups so far.
    pub hops: u32,
    /// Retries after `TRYAGAIN` so far, and until when they may go on.
    pub retries: u32,
    pub retry_until: Instant,
}

/// What the node does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Go { to: Addr, asking: bool },
    /// Ask the same place again at this instant.
    Pause(Instant),
    /// Learn the deployment again and go where it says.
    LookAgain,
    Fail(Cause),
}

/// The next step after `redirect` (the error reply `msg`), within `budget`.
pub fn decide(redirect: &Redirect, msg: &[u8], budget: &Budget, unstable: Unstable, now: Instant) -> Step {
    match redirect {
        Redirect::Later if unstable == Unstable::Report && ErrorKind::of(msg) == ErrorKind::TryAgain => {
            Step::Fail(Cause::SlotUnstable { retries: budget.retries, last: printable(msg) })
        }
        Redirect::Later => {
            let at = now + pause(budget.retries);
            match at > budget.retry_until {
                true => Step::Fail(Cause::SlotUnstable { retries: budget.retries, last: printable(msg) }),
                false => Step::Pause(at),
            }
        }
        _ if budget.hops >= MAX_HOPS => Step::Fail(Cause::Redirected { hops: MAX_HOPS, last: printable(msg) }),
        Redirect::Moved { to, .. } => Step::Go { to: to.clone(), asking: false },
        Redirect::Ask { to } => Step::Go { to: to.clone(), asking: true },
        Redirect::Elsewhere => Step::LookAgain,
    }
}

/// How long to wait before asking again after `TRYAGAIN` when `n` retries
/// were made: 5 ms, doubling up to 80 ms.
pub fn pause(n: u32) -> Duration {
    Duration::from_millis(5 << n.min(4))
}

/// `MOVED 3999 127.0.0.1:6381` (or `ASK …`): the slot and the node. An
/// empty host means the host the reply came from.
fn redirection(msg: &[u8], at: &Addr) -> Option<(u16, Addr)> {
    let text = std::str::from_utf8(msg).ok()?;
    let mut words = text.split(' ').skip(1);
    let slot: u16 = words.next()?.parse().ok().filter(|&s| usize::from(s) < SLOTS)?;
    let (host, port) = words.next()?.rsplit_once(':')?;
    let port: u16 = port.parse().ok().filter(|&p| p > 0)?;
    let host = match host.trim_start_matches('[').trim_end_matches(']') {
        "" => match at {
            Addr::Tcp { host, .. } => host.clone(),
            Addr::Unix(_) => return None,
        },
        host => host.to_owned(),
    };
    Some((slot, Addr::Tcp { host, port }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tcp(host: &str, port: u16) -> Addr {
        Addr::Tcp { host: host.into(), port }
    }

    #[test]
    fn redirections_name_the_slot_and_node() {
        let at = tcp("10.0.0.9", 7000);
        assert_eq!(redirection(b"MOVED 3999 127.0.0.1:6381", &at), Some((3999, tcp("127.0.0.1", 6381))));
        assert_eq!(redirection(b"ASK 0 :7002", &at), Some((0, tcp("10.0.0.9", 7002))));
        assert_eq!(redirection(b"MOVED 1 [::1]:7002", &at), Some((1, tcp("::1", 7002))));
        for bad in [&b"MOVED 16384 h:1"[..], b"MOVED x h:1", b"MOVED 1 h", b"MOVED 1 h:0", b"MOVED", b"MOVED 1 h:99999"] {
            assert_eq!(redirection(bad, &at), None, "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn each_deployment_follows_only_its_own_redirections() {
        let at = tcp("h", 1);
        let cluster = Route::Cluster(vec![at.clone()].into());
        assert_eq!(classify(&Route::Direct, b"MOVED 1 h:2", &at), None);
        assert_eq!(classify(&cluster, b"MOVED 1 h:2", &at), Some(Redirect::Moved { slot: 1, to: tcp("h", 2) }));
        assert_eq!(classify(&cluster, b"ASK 1 h:2", &at), Some(Redirect::Ask { to: tcp("h", 2) }));
        assert_eq!(classify(&cluster, b"TRYAGAIN Multiple keys", &at), Some(Redirect::Later));
        assert_eq!(classify(&cluster, b"CLUSTERDOWN The cluster is down", &at), Some(Redirect::Later));
        assert_eq!(classify(&cluster, b"READONLY You can't write against a read only replica.", &at), None);
        assert_eq!(classify(&cluster, b"MOVED garbage", &at), None);
    }

    #[test]
    fn budgets_end_redirections_and_retries_with_typed_causes() {
        let now = Instant::now();
        let fresh = Budget { hops: 0, retries: 0, retry_until: now + Duration::from_secs(2) };
        let moved = Redirect::Moved { slot: 1, to: tcp("h", 2) };
        assert_eq!(decide(&moved, b"MOVED 1 h:2", &fresh, Unstable::WaitOut, now), Step::Go { to: tcp("h", 2), asking: false });
        assert_eq!(decide(&Redirect::Ask { to: tcp("h", 2) }, b"ASK 1 h:2", &fresh, Unstable::WaitOut, now), Step::Go { to: tcp("h", 2), asking: true });
        let spent = Budget { hops: MAX_HOPS, ..fresh };
        let Step::Fail(cause) = decide(&moved, b"MOVED 1 h:2", &spent, Unstable::WaitOut, now) else { panic!("not failed") };
        assert_eq!(cause.to_string(), "still redirected after 5 redirections (MOVED 1 h:2)");
        assert_eq!(decide(&Redirect::Later, b"TRYAGAIN x", &fresh, Unstable::WaitOut, now), Step::Pause(now + Duration::from_millis(5)));
        let late = Budget { retries: 27, retry_until: now, ..fresh };
        let Step::Fail(cause) = decide(&Redirect::Later, b"TRYAGAIN x", &late, Unstable::WaitOut, now) else { panic!("not failed") };
        assert_eq!(cause.to_string(), "still told to try again after 27 retries (TRYAGAIN x)");
        assert!(matches!(decide(&Redirect::Later, b"TRYAGAIN x", &fresh, Unstable::Report, now), Step::Fail(Cause::SlotUnstable { .. })));
        // An election is waited out even by a request with a single-key way.
        assert!(matches!(decide(&Redirect::Later, b"CLUSTERDOWN x", &fresh, Unstable::Report, now), Step::Pause(_)));
        assert_eq!(decide(&Redirect::Elsewhere, b"READONLY", &fresh, Unstable::WaitOut, now), Step::LookAgain);
        assert_eq!((pause(0), pause(4), pause(30)), (Duration::from_millis(5), Duration::from_millis(80), Duration::from_millis(80)));
    }
}
