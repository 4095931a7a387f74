//! The quorum round (Redis' distributed-lock algorithm): acquire, release and
//! extend a key on N nodes. A single-server mutex is the same with N = 1.

use std::time::{Duration, Instant};

use rand::Rng;

use super::command::{Command, Op};
use super::conn::Limits;
use super::error::{Cause, NodeError};
use super::round::{fan_out, Node, Vote};

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

/// A fresh random token (uuid v4: 122 bits from the operating system).
pub fn new_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// The outcome of one round.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub votes: Vec<Vote>,
    /// Milliseconds the result stays valid; only meaningful when `held`.
    pub validity_ms: f64,
    pub held: bool,
}

impl Round {
    pub fn yes(&self) -> usize {
        self.votes.iter().filter(|v| **v == Vote::Yes).count()
    }

    pub fn failures(&self) -> Vec<NodeError> {
        self.votes
            .iter()
            .filter_map(|v| match v {
                Vote::Failed(e) => Some(e.clone()),
                _ => None,
            })
            .collect()
    }

    /// Too many nodes failed for a quorum to be possible: an outage, not
    /// contention. (Nodes not waited for count as reachable.)
    pub fn unreachable(&self) -> bool {
        let failed = self.votes.iter().filter(|v| matches!(v, Vote::Failed(_))).count();
        self.votes.len() - failed < quorum(self.votes.len())
    }
}

/// When to give up on a lock that others hold.
#[derive(Clone, Copy, Debug)]
pub enum Patience {
    /// Retry until `deadline`, pausing `pause` between attempts but never past
    /// the deadline. An outage ends the wait at once.
    Until { deadline: Instant, pause: Duration },
    /// `attempts` rounds in total with a random pause in `[delay/2, delay]`
    /// between them, none after the last.
    Attempts { attempts: u32, delay: Duration },
}

/// What `acquire` ended with.
#[derive(Clone, Debug, PartialEq)]
pub enum Acquired {
    Held { validity_ms: f64 },
    /// Others hold it (the last round is kept for the record).
    Busy(Round),
    /// Too few nodes could be reached on the last attempt.
    Unreachable(Vec<NodeError>),
}

/// One key on a set of nodes, owned through one token.
pub struct Lease<'a> {
    pub nodes: &'a [Node],
    pub key: &'a [u8],
    pub token: &'a str,
}

impl Lease<'_> {
    fn command(&self, op: Op) -> Command<'_> {
        Command { op, key: self.key, token: self.token }
    }

    /// One acquisition round. After a failed round, whatever of ours may be
    /// on a node is released: where the node said yes, waiting for the
    /// answer (so nothing is left when this returns); where its answer was
    /// not waited for or the connection broke after sending, sent without
    /// waiting (on the same connection, behind the SET, where there is one).
    /// A late node already got its release pipelined when it was abandoned;
    /// refusals, connection failures and error replies set nothing.
    pub fn try_acquire(&self, ttl_ms: i64, limits: &Limits) -> Round {
        let round = self.confirm(Op::Acquire { ttl_ms }, ttl_ms, limits);
        if !round.held {
            let pick = |wanted: fn(&Vote) -> bool| -> Vec<Node> {
                self.nodes.iter().zip(&round.votes).filter(|(_, v)| wanted(v)).map(|(n, _)| n.clone()).collect()
            };
            let said_yes = pick(|v| *v == Vote::Yes);
            let in_doubt = pick(|v| match v {
                Vote::Unanswered => true,
                Vote::Failed(e) => matches!(e.cause, Cause::Io(_) | Cause::Protocol(_)),
                _ => false,
            });
            let release = self.command(Op::Release);
            if !said_yes.is_empty() {
                fan_out(&said_yes, &release, limits, |_| false);
            }
            if !in_doubt.is_empty() {
                fan_out(&in_doubt, &release, limits, |_| true);
            }
        }
        round
    }

    /// Acquisition rounds until the lock is held or `patience` runs out.
    pub fn acquire(&self, ttl_ms: i64, patience: Patience, limits: &Limits) -> Acquired {
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let round = self.try_acquire(ttl_ms, limits);
            if round.held {
                return Acquired::Held { validity_ms: round.validity_ms };
            }
            let pause = match patience {
                Patience::Until { .. } if round.unreachable() => None,
                Patience::Until { deadline, pause } => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    (!left.is_zero()).then(|| pause.min(left))
                }
                Patience::Attempts { attempts, delay } => (attempt < attempts).then(|| {
                    let ms = delay.as_millis() as u64;
                    Duration::from_millis(rand::rng().random_range(ms / 2..=ms))
                }),
            };
            match pause {
                Some(pause) => std::thread::sleep(pause),
                None if round.unreachable() => return Acquired::Unreachable(round.failures()),
                None => return Acquired::Busy(round),
            }
        }
    }

    /// Owner-checked delete, sent to every node; `held` when a majority deleted
    /// our token (the other replies are then not waited for).
    pub fn release(&self, limits: &Limits) -> Round {
        self.confirm(Op::Release, 0, limits)
    }

    /// Owner-checked new TTL on every node; held when a majority confirms in time.
    pub fn extend(&self, ttl_ms: i64, limits: &Limits) -> Round {
        self.confirm(Op::Extend { ttl_ms }, ttl_ms, limits)
    }

    /// A round that counts a quorum of yes votes (within the validity, for a
    /// TTL) as success, and stops waiting as soon as the outcome is certain.
    fn confirm(&self, op: Op, ttl_ms: i64, limits: &Limits) -> Round {
        let start = Instant::now();
        let need = quorum(self.nodes.len());
        let (votes, ended) = fan_out(self.nodes, &self.command(op), limits, |t| {
            t.yes >= need || t.yes + t.pending < need
        });
        let yes = votes.iter().filter(|v| **v == Vote::Yes).count();
        let (validity_ms, in_time) = match op {
            Op::Release => (0.0, true),
            _ => {
                let v = validity_ms(ttl_ms, ended.duration_since(start));
                (v, v > 0.0)
            }
        };
        Round { votes, validity_ms, held: yes >= need && in_time }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn tokens_are_fresh_and_long() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
    }
}
