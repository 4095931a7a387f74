//! What a round's votes mean (Redis' distributed-lock algorithm): a quorum
//! of yes votes, in time where a TTL was set. A single server is the same
//! with N = 1.

use std::time::Duration;

use super::Vote;
use crate::engine::error::{Cause, NodeError};

/// Votes needed out of `n`.
pub fn quorum(n: usize) -> usize {
    n / 2 + 1
}

/// Clock drift allowance for a TTL: 1 % plus 2 ms.
pub fn drift_ms(ttl_ms: i64) -> f64 {
    ttl_ms as f64 * 0.01 + 2.0
}

/// How long the lock is still ours after a round that took `elapsed`.
pub fn validity_ms(ttl_ms: i64, elapsed: Duration) -> f64 {
    ttl_ms as f64 - elapsed.as_secs_f64() * 1000.0 - drift_ms(ttl_ms)
}

/// The reply timeout of a node that has none of its own: small next to the
/// TTL (a tenth of it, at least 10 ms) and never above `cap`.
pub fn node_timeout(ttl_ms: i64, cap: Duration) -> Duration {
    Duration::from_millis((ttl_ms / 10).max(10) as u64).min(cap)
}

/// How a round ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A quorum confirmed (in time, where a TTL was set).
    Confirmed { validity_ms: f64 },
    /// Enough nodes answered, and too few of them said yes: somebody else
    /// holds the lock, or it is no longer ours.
    Refused,
    /// Too many nodes failed for a quorum: an outage, not an answer.
    Unreachable(Vec<NodeError>),
    /// PHP's time limit fired during the round.
    Interrupted,
}

impl Outcome {
    /// How a call that failed on `e` ended: PHP's time limit, or an outage.
    pub fn failed(e: NodeError) -> Self {
        Failure::of(e).into()
    }
}

/// Why a call that needed an answer (a fence, an inspection, a count of
/// replicas) got none: the error half of a call whose success is not an
/// `Outcome`.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// Too many nodes failed: an outage.
    Unreachable(Vec<NodeError>),
    /// PHP's time limit fired.
    Interrupted,
    /// The server answered something the call cannot read.
    Unexpected,
}

impl Failure {
    /// How a call that failed on `e` ended: PHP's time limit, or an outage.
    pub fn of(e: NodeError) -> Self {
        match e.cause {
            Cause::Interrupted => Failure::Interrupted,
            _ => Failure::Unreachable(vec![e]),
        }
    }
}

/// A round that could not be answered (an answer it cannot read is no yes).
impl From<Failure> for Outcome {
    fn from(f: Failure) -> Self {
        match f {
            Failure::Unreachable(errors) => Outcome::Unreachable(errors),
            Failure::Interrupted => Outcome::Interrupted,
            Failure::Unexpected => Outcome::Refused,
        }
    }
}

/// The outcome of one round, with each node's vote.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub votes: Vec<Vote>,
    pub outcome: Outcome,
}

impl Round {
    pub fn held(&self) -> bool {
        matches!(self.outcome, Outcome::Confirmed { .. })
    }

    /// Milliseconds the lock stays ours (0 unless confirmed with a TTL).
    pub fn validity_ms(&self) -> f64 {
        match self.outcome {
            Outcome::Confirmed { validity_ms } => validity_ms,
            _ => 0.0,
        }
    }

    pub fn yes(&self) -> usize {
        self.votes.iter().filter(|v| **v == Vote::Yes).count()
    }

    pub fn failures(&self) -> Vec<NodeError> {
        failures(&self.votes)
    }
}

pub fn failures(votes: &[Vote]) -> Vec<NodeError> {
    votes
        .iter()
        .filter_map(|v| match v {
            Vote::Failed(e) => Some(e.clone()),
            _ => None,
        })
        .collect()
}

/// What a round's votes mean, for a request that sets a TTL of `ttl_ms`
/// (confirmed only while valid) or none (a release: `None`).
pub fn decide(votes: &[Vote], ttl_ms: Option<i64>, elapsed: Duration) -> Outcome {
    let need = quorum(votes.len());
    let yes = votes.iter().filter(|v| **v == Vote::Yes).count();
    let failures = failures(votes);
    let validity = ttl_ms.map_or(0.0, |ttl| validity_ms(ttl, elapsed));
    if yes >= need && (ttl_ms.is_none() || validity > 0.0) {
        Outcome::Confirmed { validity_ms: validity }
    } else if failures.iter().any(|e| e.cause == Cause::Interrupted) {
        Outcome::Interrupted
    } else if votes.len() - failures.len() < need {
        Outcome::Unreachable(failures)
    } else {
        Outcome::Refused
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_name_what_happened() {
        let failed = || Vote::Failed(NodeError::new("h:1", Cause::Timeout(Duration::from_millis(5))));
        let ttl = Some(10_000);
        let fast = Duration::from_millis(1);
        assert!(matches!(decide(&[Vote::Yes, Vote::Yes, failed()], ttl, fast), Outcome::Confirmed { .. }));
        assert_eq!(decide(&[Vote::Yes, Vote::No, Vote::No], ttl, fast), Outcome::Refused);
        assert_eq!(decide(&[Vote::Yes, Vote::Yes], ttl, Duration::from_secs(11)), Outcome::Refused);
        assert!(matches!(decide(&[Vote::Yes, failed(), failed()], ttl, fast), Outcome::Unreachable(e) if e.len() == 2));
        assert_eq!(decide(&[Vote::Yes, Vote::Unanswered, Vote::No], None, fast), Outcome::Refused);
    }

    #[test]
    fn quorum_is_an_integer_majority() {
        let want = [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (7, 4)];
        for (n, q) in want {
            assert_eq!(quorum(n), q, "n = {n}");
        }
    }

    #[test]
    fn validity_subtracts_elapsed_time_and_drift() {
        assert_eq!(drift_ms(10_000), 102.0);
        assert_eq!(validity_ms(10_000, Duration::from_millis(50)), 10_000.0 - 50.0 - 102.0);
        assert!(validity_ms(100, Duration::from_millis(99)) < 0.0);
    }

    #[test]
    fn default_node_timeouts_are_small_next_to_the_ttl() {
        let cap = Duration::from_secs(1);
        assert_eq!(node_timeout(1_000, cap), Duration::from_millis(100));
        assert_eq!(node_timeout(50, cap), Duration::from_millis(10));
        assert_eq!(node_timeout(60_000, cap), cap);
    }
}
