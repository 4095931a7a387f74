//! How a wait in a queue (the mutex's, the shared lock's) ends on a failure:
//! PHP's time limit ends it; a server never reached ends it at once; one that
//! goes away while we wait (a restart) is waited out for one connect and one
//! read timeout, looking again every check interval.

use std::time::{Duration, Instant};

use crate::engine::error::{Cause, NodeError};
use crate::engine::net::caps;
use crate::engine::protocol::errors::ErrorKind;
use crate::engine::net::conn::Limits;
use crate::engine::net::wait;
use crate::engine::protocol::encode::resp;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::Form;
use crate::engine::round::request::{Request, Verdict};
use crate::engine::round::{Node, Resolver};
use crate::engine::topology::TOPOLOGY;

use super::ask;

/// The lease of a waiter on `node` for `key` that looks at its queue every
/// `check`: past it, the waiter is taken for dead and passed over. A look
/// comes after a blocking pop whose timeout ends only at a tick of the
/// server's event loop (100 ms at Redis' default hz 10, 1 s at hz 1): a
/// look may come that late, whatever `check` says. The tick is the one of
/// the server the key's requests go to (a Cluster's or Sentinel's master),
/// learned with the first request on a connection to it; a process that has
/// none yet asks first (once), so that its first place is not sized for a
/// faster server than it waits on.
pub fn lease_ms(check: Duration, node: &Node, key: &[u8], limits: &Limits) -> i64 {
    let known = || TOPOLOGY.endpoint(node, key, limits).ok().and_then(|server| caps::remembered(&server));
    let caps = known().or_else(|| {
        ask(node, &Ping(key), limits);
        known()
    });
    let tick = caps.unwrap_or_default().tick();
    (check.max(tick).as_millis().min(i64::MAX as u128 / 4) as i64) * 2 + 100
}

/// `PING`, routed by a key: on a new connection it goes behind the
/// `INFO server` that tells the server's tick.
struct Ping<'a>(&'a [u8]);

impl Request for Ping<'_> {
    fn key(&self) -> &[u8] {
        self.0
    }

    fn first_form(&self) -> Form {
        Form::Plain
    }

    fn encode(&self, _form: Form, out: &mut Vec<u8>) {
        resp(out, &[b"PING"]);
    }

    fn classify(&self, _form: Form, _reply: &Reply) -> Verdict {
        Verdict::Data
    }
}

/// Whether a multi-key step failed only for naming the queue's keys: their
/// slot is being migrated, or an ACL user's key patterns cover the lock key
/// but not its queue's (`~lock:*`). The single-key way still works.
pub fn single_key_only(cause: &Cause) -> bool {
    matches!(cause, Cause::SlotUnstable { .. } | Cause::Reply { kind: ErrorKind::NoPerm, .. })
}

/// Why a wait ends on a failure.
pub enum Stop {
    Interrupted,
    /// Never reached: nothing to leave.
    Unreached(NodeError),
    /// Gone while we waited: we leave the queue (best effort).
    Unreachable(NodeError),
}

/// A waiter's view of its server's outages.
pub struct Outage {
    reached: bool,
    since: Option<Instant>,
    budget: Duration,
}

impl Outage {
    pub fn new(limits: &Limits) -> Self {
        Outage { reached: false, since: None, budget: limits.connect + limits.read }
    }

    /// The server answered something.
    pub fn reached(&mut self) {
        self.reached = true;
    }

    /// A step went through: any outage is over.
    pub fn over(&mut self) {
        self.reached = true;
        self.since = None;
    }

    /// A step failed with `e`: `Ok` after pausing `check` (the wait goes on),
    /// or why it ends.
    pub fn failed(&mut self, e: NodeError, deadline: Instant, check: Duration) -> Result<(), Stop> {
        let now = Instant::now();
        if e.cause == Cause::Interrupted {
            return Err(Stop::Interrupted);
        }
        if !self.reached {
            return Err(Stop::Unreached(e));
        }
        let since = *self.since.get_or_insert(now);
        if now.duration_since(since) >= self.budget || now >= deadline {
            return Err(Stop::Unreachable(e));
        }
        wait::sleep_until(deadline.min(now + check)).map_err(|_| Stop::Interrupted)
    }
}
