//! Errors of the engine: what went wrong with one Redis server.

use std::fmt;

use super::protocol::errors::ErrorKind;

/// What failed when talking to one server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// TCP/unix connect or TLS handshake failed.
    Connect(String),
    /// AUTH or SELECT was refused.
    Auth(String),
    /// No (complete) reply before the deadline.
    Timeout(std::time::Duration),
    /// The connection broke while a command was in flight.
    Io(Broken),
    /// The server answered with an error reply (its text, tokens masked).
    Reply { kind: ErrorKind, text: String },
    /// The server answered something this client does not understand.
    Protocol(String),
    /// An answer owed to an earlier step, read before this one was sent,
    /// made no sense: this step was not sent, and the earlier ones may
    /// still run.
    Garbled(String),
    /// The node is the same Redis server as an earlier one (it may not vote twice).
    SameServer(String),
    /// The host asked for control back (PHP's time limit fired).
    Interrupted,
    /// Where the key's server is could not be learned (a Cluster's slot
    /// map, a Sentinel's master).
    Unresolved(String),
    /// Still redirected (`MOVED`, `ASK`) after `hops` redirections.
    Redirected { hops: u32, last: String },
    /// The key's slot is being migrated (`TRYAGAIN`: the request's keys are
    /// split between two nodes) or the cluster is electing (`CLUSTERDOWN`),
    /// still after `retries` retries.
    SlotUnstable { retries: u32, last: String },
    /// Fewer replicas than asked for had the lock (or its extension) in
    /// time; a new lock was released then, an extended one is still held.
    Replicas { acked: i64, wanted: i64, within: std::time::Duration, what: Acked },
    /// The replicas acknowledged a new lock only after its TTL ran out.
    OutlivedByWait { waited: std::time::Duration },
}

/// How a connection broke while a command was in flight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Broken {
    /// The server closed it.
    Closed,
    /// A read or write failed: the system's kind of error and its words.
    Failed { kind: std::io::ErrorKind, text: String },
    /// The connection a lock's commands are bound to (the one it was taken
    /// on, for `WAIT`) is gone: they cannot go on another.
    BoundGone,
    /// The round ended without an answer to `WAIT`.
    NoWaitAnswer,
}

impl From<&std::io::Error> for Broken {
    fn from(e: &std::io::Error) -> Self {
        Broken::Failed { kind: e.kind(), text: e.to_string() }
    }
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Broken::Closed => f.write_str("closed by the server"),
            Broken::Failed { text, .. } => f.write_str(text),
            Broken::BoundGone => f.write_str("the connection the lock was taken on is gone"),
            Broken::NoWaitAnswer => f.write_str("no answer to WAIT"),
        }
    }
}

/// What too few replicas acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acked {
    /// A new lock (it was released).
    Lock,
    /// An extension (the lock is still held).
    Extension,
    /// A fencing token (the lock is still held).
    Fence,
    /// A renewal (by the renewal thread).
    Renewal,
}

/// A failure of one server, named as `host:port` (or the unix socket path).
/// Never carries a password: only the label and the cause are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeError {
    pub server: String,
    pub cause: Cause,
}

impl NodeError {
    pub fn new(server: impl Into<String>, cause: Cause) -> Self {
        Self { server: server.into(), cause }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Connect(e) => write!(f, "cannot connect: {e}"),
            Cause::Auth(e) => write!(f, "authentication failed: {e}"),
            Cause::Timeout(t) => write!(f, "no reply within {} s", t.as_secs_f64()),
            Cause::Io(e) => write!(f, "connection lost: {e}"),
            Cause::Reply { kind: ErrorKind::Moved | ErrorKind::Ask, text: e } => write!(
                f,
                "the key belongs to another node of a Redis Cluster ({e}); name the cluster with a redis-cluster:// DSN"
            ),
            Cause::Reply { kind: ErrorKind::Readonly, text: e } => write!(
                f,
                "the server is a read-only replica ({e}); name the master, or its sentinels with a redis-sentinel:// DSN"
            ),
            Cause::Unresolved(e) => f.write_str(e),
            Cause::Redirected { hops, last } => write!(f, "still redirected after {hops} redirections ({last})"),
            Cause::SlotUnstable { retries, last } => write!(f, "still told to try again after {retries} retries ({last})"),
            Cause::Reply { text, .. } => write!(f, "error reply: {text}"),
            Cause::Protocol(e) => write!(f, "protocol error: {e}; connection dropped"),
            Cause::Garbled(e) => write!(f, "protocol error in the answer to an earlier command: {e}; connection dropped"),
            Cause::SameServer(other) => write!(f, "same Redis server as {other} (not counted twice)"),
            Cause::Interrupted => f.write_str(INTERRUPTED),
            Cause::OutlivedByWait { waited } => write!(
                f,
                "the lock's TTL ran out while its replicas were awaited ({:.3} s), so it may be another owner's by now; it was not taken",
                waited.as_secs_f64()
            ),
            Cause::Replicas { acked, wanted, within, what } => {
                let (noun, so) = match what {
                    Acked::Lock => ("lock", "so it was released"),
                    Acked::Extension => ("extension", "so a failover may undo it (the lock is still held, with the new TTL on the master)"),
                    Acked::Fence => ("fencing token", "so a failover may issue a smaller one (the lock is still held)"),
                    Acked::Renewal => ("renewal", "so a failover may undo it"),
                };
                let secs = within.as_secs_f64();
                write!(f, "the {noun} reached {acked} of the {wanted} replicas redis_lock.wait_replicas asks for within {secs} s, {so}")
            }
        }
    }
}

impl fmt::Display for NodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Redis at {}: {}", self.server, self.cause)
    }
}

impl std::error::Error for NodeError {}

/// Why a call gave up when PHP's own time limit fired.
pub const INTERRUPTED: &str = "interrupted by PHP's time limit (max_execution_time)";

/// Several failures in one line, as a RedLock exception lists them.
pub fn list(errors: &[NodeError]) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_connection_keeps_its_kind() {
        let e = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        let cause = Cause::Io(Broken::from(&e));
        assert!(matches!(&cause, Cause::Io(Broken::Failed { kind: std::io::ErrorKind::ConnectionReset, .. })), "{cause:?}");
        assert_eq!(cause.to_string(), format!("connection lost: {e}"));
        assert_eq!(Cause::Io(Broken::Closed).to_string(), "connection lost: closed by the server");
        assert_ne!(Cause::Io(Broken::Closed), Cause::Io(Broken::BoundGone), "told apart by type, not by wording");
    }
}
