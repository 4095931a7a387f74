//! The quorum round (Redis' distributed-lock algorithm): acquire, release and
//! extend a key on N nodes. A single-server mutex is the same with N = 1.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::command::{Command, Op};
use super::conn::Limits;
use super::error::{Cause, NodeError};
use super::per_process::PerProcess;
use super::round::{fan_out, Node, Until, Vote};
use super::wait;

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

/// This process' cryptographic generator (ChaCha12), seeded from the
/// operating system, and seeded anew in a forked child: parent and child
/// never draw the same tokens or delays. One system call per process
/// instead of one per token.
static RNG: PerProcess<Option<StdRng>> = PerProcess::new();

fn random<T>(draw: impl FnOnce(&mut StdRng) -> T) -> Option<T> {
    RNG.with(|rng| {
        if rng.is_none() {
            *rng = StdRng::try_from_os_rng().ok();
        }
        rng.as_mut().map(draw)
    })
}

/// A fresh token: 128 random bits as 32 hex digits (the secret part), then
/// who is acquiring: `<hex>:<host>:<pid>:<since ms>`, so that anybody
/// looking at the key can tell who holds it and since when.
pub fn new_token() -> String {
    let random = match random(|rng| rng.random::<u128>()) {
        Some(bits) => format!("{bits:032x}"),
        // No generator (the OS refused a seed): straight from the OS.
        None => uuid::Uuid::new_v4().simple().to_string(),
    };
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    format!("{random}:{}:{}:{since}", host(), super::per_process::pid())
}

/// This host's name, with only `[A-Za-z0-9._-]` kept (`_` for the rest, at
/// most 64 characters): it must never split a token or a hash tag.
fn host() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
        let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
        let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        let name: String = buf[..if ok { len } else { 0 }]
            .iter()
            .take(64)
            .map(|&b| if b.is_ascii_alphanumeric() || b"._-".contains(&b) { b as char } else { '_' })
            .collect();
        if name.is_empty() { "unknown".to_owned() } else { name }
    })
}

/// A random pause in `[delay/2, delay]`.
pub fn jitter(delay: Duration) -> Duration {
    let ms = delay.as_millis().min(u64::MAX as u128) as u64;
    let draw = random(|rng| rng.random_range(0..=ms - ms / 2)).unwrap_or(0);
    Duration::from_millis(ms / 2 + draw)
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
        match e.cause {
            Cause::Interrupted => Outcome::Interrupted,
            _ => Outcome::Unreachable(vec![e]),
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

fn failures(votes: &[Vote]) -> Vec<NodeError> {
    votes
        .iter()
        .filter_map(|v| match v {
            Vote::Failed(e) => Some(e.clone()),
            _ => None,
        })
        .collect()
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

/// One key on a set of nodes, owned through one token.
pub struct Lease<'a> {
    pub nodes: &'a [Node],
    pub key: &'a [u8],
    pub token: &'a str,
    /// A key that already holds our token counts as taken (and gets the new
    /// TTL): for tokens the caller chose, which another process may hold.
    pub refresh_own: bool,
}

impl<'a> Lease<'a> {
    /// The lease of a token of our own making (nobody else holds it).
    pub fn new(nodes: &'a [Node], key: &'a [u8], token: &'a str) -> Self {
        Lease { nodes, key, token, refresh_own: false }
    }
}

impl Lease<'_> {
    fn command(&self, op: Op<'static>) -> Command<'_> {
        Command { op, key: self.key, token: self.token }
    }

    /// One acquisition round. After a failed round, whatever of ours may be
    /// on a node is released: where the node said yes, waiting for the
    /// answer (so nothing is left when this returns); where its answer was
    /// not waited for or the connection broke after sending, sent without
    /// waiting. A late node already got its release pipelined when it was
    /// abandoned; refusals, connection failures and error replies set nothing.
    pub fn try_acquire(&self, ttl_ms: i64, limits: &Limits) -> Round {
        let op = if self.refresh_own { Op::AcquireOrRefresh { ttl_ms } } else { Op::Acquire { ttl_ms } };
        let round = self.confirm(op, ttl_ms, limits);
        if !matches!(round.outcome, Outcome::Confirmed { .. }) {
            let pick = |wanted: fn(&Vote) -> bool| -> Vec<Node> {
                self.nodes.iter().zip(&round.votes).filter(|(_, v)| wanted(v)).map(|(n, _)| n.clone()).collect()
            };
            let said_yes = pick(|v| *v == Vote::Yes);
            let in_doubt = pick(|v| match v {
                Vote::Unanswered => true,
                // An alias's SET may be the one that ran on its server.
                Vote::Failed(e) => matches!(e.cause, Cause::Io(_) | Cause::Protocol(_) | Cause::SameServer(_)),
                _ => false,
            });
            let release = self.command(Op::Release);
            if !said_yes.is_empty() {
                fan_out(&said_yes, &release, limits, Until::All);
            }
            if !in_doubt.is_empty() {
                fan_out(&in_doubt, &release, limits, Until::Sent);
            }
        }
        round
    }

    /// Acquisition rounds until the lock is held or `patience` runs out.
    pub fn acquire(&self, ttl_ms: i64, patience: Patience, limits: &Limits) -> Outcome {
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let outcome = self.try_acquire(ttl_ms, limits).outcome;
            let resume_at = match (&outcome, patience) {
                (Outcome::Refused, Patience::Until { deadline, pause }) => {
                    let now = Instant::now();
                    (now < deadline).then(|| now.checked_add(pause).map_or(deadline, |t| t.min(deadline)))
                }
                (Outcome::Refused | Outcome::Unreachable(_), Patience::Attempts { attempts, delay }) => {
                    (attempt < attempts).then(|| Instant::now() + jitter(delay))
                }
                _ => None,
            };
            match resume_at {
                None => return outcome,
                Some(at) => {
                    if wait::sleep_until(at).is_err() {
                        return Outcome::Interrupted;
                    }
                }
            }
        }
    }

    /// Owner-checked delete, sent to every node; confirmed when a majority
    /// deleted our token (the other replies are then not waited for).
    pub fn release(&self, limits: &Limits) -> Round {
        self.confirm(Op::Release, 0, limits)
    }

    /// Owner-checked new TTL on every node; confirmed when a majority
    /// confirms in time.
    pub fn extend(&self, ttl_ms: i64, limits: &Limits) -> Round {
        self.confirm(Op::Extend { ttl_ms }, ttl_ms, limits)
    }

    /// A round that counts a quorum of yes votes (within the validity, for a
    /// TTL) as success, and stops waiting as soon as the outcome is certain.
    fn confirm(&self, op: Op<'static>, ttl_ms: i64, limits: &Limits) -> Round {
        let start = Instant::now();
        let need = quorum(self.nodes.len());
        let (votes, ended) = fan_out(self.nodes, &self.command(op), limits, Until::Quorum(need));
        let outcome = decide(&votes, op, ttl_ms, ended.duration_since(start));
        Round { votes, outcome }
    }
}

/// What a round's votes mean.
fn decide(votes: &[Vote], op: Op<'_>, ttl_ms: i64, elapsed: Duration) -> Outcome {
    let need = quorum(votes.len());
    let yes = votes.iter().filter(|v| **v == Vote::Yes).count();
    let failures = failures(votes);
    let validity = match op {
        Op::Release => 0.0,
        _ => validity_ms(ttl_ms, elapsed),
    };
    if yes >= need && (op == Op::Release || validity > 0.0) {
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
        let holder = super::super::ownership::Holder::of(a.as_bytes());
        assert_eq!(holder.pid, Some(i64::from(std::process::id())));
        assert!(a[..32].bytes().all(|c| c.is_ascii_hexdigit()) && a.as_bytes()[32] == b':');
    }

    #[test]
    fn jitter_stays_in_range_and_differs_after_fork() {
        for delay in [0, 1, 2, 200] {
            let d = Duration::from_millis(delay);
            for _ in 0..200 {
                let j = jitter(d);
                assert!(j >= Duration::from_millis(delay / 2) && j <= d, "{j:?} for {d:?}");
            }
        }
        // A forked child draws from the OS, not from a copy of our state.
        let mut fds = [0; 2];
        // SAFETY: plain pipe/fork/write/_exit; the child touches nothing else.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            let pid = libc::fork();
            if pid == 0 {
                let draws: Vec<u8> = (0..16).map(|_| jitter(Duration::from_millis(255)).as_millis() as u8).collect();
                libc::write(fds[1], draws.as_ptr().cast(), draws.len());
                libc::_exit(0);
            }
            let mine: Vec<u8> = (0..16).map(|_| jitter(Duration::from_millis(255)).as_millis() as u8).collect();
            let mut theirs = [0u8; 16];
            libc::read(fds[0], theirs.as_mut_ptr().cast(), 16);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            assert_ne!(mine, theirs.to_vec());
        }
    }

    #[test]
    fn outcomes_name_what_happened() {
        let failed = || Vote::Failed(NodeError::new("h:1", Cause::Timeout(Duration::from_millis(5))));
        let acquire = Op::Acquire { ttl_ms: 10_000 };
        let fast = Duration::from_millis(1);
        assert!(matches!(decide(&[Vote::Yes, Vote::Yes, failed()], acquire, 10_000, fast), Outcome::Confirmed { .. }));
        assert_eq!(decide(&[Vote::Yes, Vote::No, Vote::No], acquire, 10_000, fast), Outcome::Refused);
        assert_eq!(decide(&[Vote::Yes, Vote::Yes], acquire, 10_000, Duration::from_secs(11)), Outcome::Refused);
        assert!(matches!(decide(&[Vote::Yes, failed(), failed()], acquire, 10_000, fast), Outcome::Unreachable(e) if e.len() == 2));
        assert_eq!(decide(&[Vote::Yes, Vote::Unanswered, Vote::No], Op::Release, 0, fast), Outcome::Refused);
    }
}
