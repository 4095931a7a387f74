//! What the waiters of both queues (the mutex's, `queue/`; the shared
//! locks', `shared/`) share: how long a waiter's place lives (`place_ms`), how long one
//! blocking pop lasts, how often it looks while the key's slot is being
//! migrated, and how a wait ends on a failure: PHP's time limit ends it; a
//! server never reached ends it at once; one that goes away while we wait
//! (a restart) is waited out for one connect and one read timeout, looking
//! again every check interval. Each queue says how to leave (`Leaving`).

use std::time::{Duration, Instant};

use crate::engine::error::{Cause, NodeError};
use crate::engine::net::caps;
use crate::engine::protocol::errors::ErrorKind;
use crate::engine::net::conn::Limits;
use crate::engine::net::wait;
use crate::engine::protocol::encode::resp;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::Form;
use crate::engine::round::quorum::{validity_ms, Outcome};
use crate::engine::round::request::{Request, Verdict};
use crate::engine::round::{Node, Resolver, Vote};
use crate::engine::topology::TOPOLOGY;

use super::ask;

/// What this thread's acquisition went through, for the counters
/// (`policy/metrics`): it waited (looked more than once), it was handed the
/// lock by a release. Set by the waits, taken by the policy.
pub const WAITED: u8 = 1;
pub const HANDED: u8 = 2;

thread_local! {
    static NOTE: std::cell::Cell<u8> = const { std::cell::Cell::new(0) };
}

/// Notes `what` (`WAITED`, `HANDED`) for the acquisition under way.
pub fn note(what: u8) {
    NOTE.with(|n| n.set(n.get() | what));
}

/// What was noted since the last call (and clears it).
pub fn take_note() -> u8 {
    NOTE.with(|n| n.replace(0))
}

/// How long the place of a waiter on `node` for `key` that looks at its queue every
/// `check`: past it, the waiter is taken for dead and passed over. A look
/// comes after a blocking pop whose timeout ends only at a tick of the
/// server's event loop (100 ms at Redis' default hz 10, 1 s at hz 1): a
/// look may come that late, whatever `check` says. The tick is the one of
/// the server the key's requests go to (a Cluster's or Sentinel's master),
/// learned with the first request on a connection to it; a process that has
/// none yet asks first (once), so that its first place is not sized for a
/// faster server than it waits on.
pub fn place_ms(check: Duration, node: &Node, key: &[u8], limits: &Limits) -> i64 {
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

/// While the key's slot is being migrated, a waiter looks at least this often.
pub const MIGRATING_POLL: Duration = Duration::from_millis(20);

/// The timeout (ms) of one blocking pop: a look every `check`, never past
/// `deadline`, at least 1 ms. Rounded up: a pop that ends a little before
/// the deadline would cost one more round for nothing.
pub fn block_ms(check: Duration, deadline: Instant) -> i64 {
    let block = check.min(deadline.saturating_duration_since(Instant::now())).max(Duration::from_millis(1));
    block.as_micros().div_ceil(1000).min(i64::MAX as u128) as i64
}

/// Ours for `ttl_ms` from at the latest when the step that took it was sent.
pub fn confirmed(ttl_ms: i64, sent: Instant) -> Outcome {
    Outcome::Confirmed { validity_ms: validity_ms(ttl_ms, sent.elapsed()) }
}

/// The answer to a single-key "is it still ours (for `ttl_ms`)?" sent at
/// `sent`: 1 is yes.
pub fn held(vote: Vote, ttl_ms: i64, sent: Instant) -> Outcome {
    match vote {
        Vote::Got(Reply::Int(1)) => confirmed(ttl_ms, sent),
        Vote::Failed(e) => Outcome::failed(e),
        _ => Outcome::Refused,
    }
}

/// How a waiter of one queue leaves it.
pub trait Leaving {
    /// Leaves the queue; the lock (or a hold) may have been handed to us
    /// meanwhile: then `Confirmed`, and it is ours.
    fn leave(&mut self) -> Outcome;

    /// After PHP's time limit: gives back what `leave` found handed to us.
    fn give_back(&mut self) {}
}

/// How a wait ends on `why`: leaving the queue where we joined it.
pub fn stop(why: Stop, waiter: &mut impl Leaving) -> Outcome {
    match why {
        Stop::Interrupted => interrupted(waiter),
        Stop::Unreached(e) => Outcome::Unreachable(vec![e]),
        Stop::Unreachable(e) => {
            waiter.leave();
            Outcome::Unreachable(vec![e])
        }
    }
}

/// PHP's time limit: leave the queue (within the usual bounds, not cut short
/// again) and hand control back.
pub fn interrupted(waiter: &mut impl Leaving) -> Outcome {
    let _quiet = wait::Quiet::begin();
    if let Outcome::Confirmed { .. } = waiter.leave() {
        waiter.give_back();
    }
    Outcome::Interrupted
}
