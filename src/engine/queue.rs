//! Waiting without polling (RedisMutexLock with a timeout): a FIFO queue in
//! Redis with direct hand-off.
//!
//! Next to the lock key K live `Q` (the waiters' tokens, in order), `T` (each
//! waiter's lease: it is alive until then), one wake-up list `W` per waiter
//! and one shared wake-up list `N`, all in K's Cluster slot (keys.rs). A
//! waiter joins the queue and blocks on its own `W` and on `N` in the same
//! round trip. A release gives K to the first live waiter for a short
//! provisional grant and wakes only that waiter, which confirms: the lock
//! never falls free while anybody waits, so
//! nobody can jump the queue. A waiter that died is passed over once its
//! lease ran out; one killed after it was woken never confirms, and its
//! grant runs out by itself. Every waiter looks at the queue again at least
//! every check interval (`$sleep`), and takes a lock that fell free while it
//! was first in line.
//!
//! Every key a script touches is declared in KEYS: the releaser names the
//! wake-up list of the waiter it expects first in line (its hint, learnt
//! when it got the lock). When another waiter is first (the lock was taken
//! while nobody waited, or the expected one left), the lock is still handed
//! to it, and its token goes onto `N`: Redis gives it to the waiter blocked
//! there longest, which is the first in line unless it was looking at the
//! queue just then. A waiter that pops another's token wakes that one by its
//! own list.

use std::time::{Duration, Instant};

use super::command::{format_int, itoa_buf, resp_pieces, script_call, Command, Op, Script, Wire};
use super::conn::Limits;
use super::error::Cause;
use super::keys::Base;
use super::lease::{validity_ms, Outcome};
use super::resp::Reply;
use super::round::{ask, exchange, Job, Node, Vote};
use super::wait;

/// How long a hand-off is provisional: a waiter woken but dead never
/// confirms, and the lock falls free after this.
pub const GRANT: Duration = Duration::from_millis(100);

/// Server time in ms; the first live waiter (dropping dead ones on the way,
/// and the leases' key once nobody waits); waiting (again), at the back or
/// the front, with a renewed lease; the lock, if it is `me`'s (then for
/// its whole TTL, returning the waiter behind, '' if none).
macro_rules! prelude {
    () => {
        "\
local function now_ms() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end \
local function live_head(q, t, head) \
  local now \
  while true do \
    head = head or redis.call('LINDEX', q, 0) \
    if not head then redis.call('DEL', t) return false end \
    local lease = redis.call('ZSCORE', t, head) \
    if lease then \
      now = now or now_ms() \
      if tonumber(lease) >= now then return head end \
      redis.call('ZREM', t, head) \
    end \
    redis.call('LPOP', q) \
    head = nil \
  end \
end \
local function wait_again(q, t, me, lease, front) \
  if redis.call('ZADD', t, now_ms() + lease, me) == 1 then \
    if front then redis.call('LPUSH', q, me) else redis.call('RPUSH', q, me) end \
  end \
  if redis.call('PTTL', q) < lease then redis.call('PEXPIRE', q, 2 * lease) redis.call('PEXPIRE', t, 2 * lease) end \
end \
local function mine(k, q, me, ttl) \
  if redis.call('GET', k) ~= me then return nil end \
  redis.call('PEXPIRE', k, ttl) \
  return redis.call('LINDEX', q, 0) or '' \
end "
    };
}

macro_rules! queue_script {
    ($body:literal) => {
        Script::new(concat!(prelude!(), $body))
    };
}

/// Joins the queue, or renews the lease of a waiter already in it; takes the
/// lock when it is free and nobody lives ahead, or when it was handed to
/// us. Taking it leaves `a` alone on our wake-up list, so that the blocking
/// pop sent behind this script returns at once (and so removes the list),
/// and removes our token from `N` (a hand-off found by looking, not by a
/// wake-up). KEYS: K Q T N W(own). ARGV: token ttl lease. Returns the first
/// waiter behind us ('' if none) when we hold the lock, else 0.
static ENQUEUE: Script = queue_script!(
    "\
local k, q, t, n, w, me, ttl, lease = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2], tonumber(ARGV[3]) \
local holder = redis.call('GET', k) \
if not holder then \
  local head = live_head(q, t) \
  if head and head ~= me then wait_again(q, t, me, lease, false) return 0 end \
  redis.call('SET', k, me, 'PX', ttl) \
  if head then redis.call('LPOP', q) redis.call('ZREM', t, me) end \
elseif holder == me then \
  redis.call('PEXPIRE', k, ttl) \
else \
  wait_again(q, t, me, lease, false) \
  return 0 \
end \
redis.call('LREM', n, 0, me) \
redis.call('DEL', w) redis.call('RPUSH', w, 'a') redis.call('PEXPIRE', w, lease) \
return redis.call('LINDEX', q, 0) or ''"
);

/// After a wake-up (a late second one for the same hand-off is dropped with
/// our list): the hand-off becomes ours for the whole TTL, or, when its
/// grant ran out first, we wait again at the front. KEYS: K Q T N W(own).
/// ARGV: token ttl lease. Returns the next waiter ('' if none) or 0.
static CONFIRM: Script = queue_script!(
    "\
redis.call('DEL', KEYS[5]) \
local next = mine(KEYS[1], KEYS[2], ARGV[1], ARGV[2]) \
if next then return next end \
wait_again(KEYS[2], KEYS[3], ARGV[1], tonumber(ARGV[3]), true) \
return 0"
);

/// Gives up waiting: unless the lock was handed to us meanwhile (then it is
/// ours: returns the next waiter or ''), our lease ends and we are passed
/// over. KEYS: K Q T N W(own). ARGV: token ttl.
static LEAVE: Script = queue_script!(
    "\
redis.call('DEL', KEYS[5]) \
local next = mine(KEYS[1], KEYS[2], ARGV[1], ARGV[2]) \
if next then redis.call('LREM', KEYS[4], 0, ARGV[1]) return next end \
redis.call('ZREM', KEYS[3], ARGV[1]) \
live_head(KEYS[2], KEYS[3]) \
return 0"
);

/// Releases our lock: to the first live waiter if there is one (for the
/// grant, waking it by its own list when it is the one we expected, else
/// through `N`), else by deleting it. An empty token releases the lock
/// whoever holds it (a forced release). KEYS: K Q T N [W(expected)].
/// ARGV: token expected grant. Returns 0 (not ours) or 1 (released, or
/// handed and woken).
static HANDOFF: Script = Script::new(concat!(
    // Nobody waits (the usual case): done before the helpers are defined.
    "\
local holder = redis.call('GET', KEYS[1]) \
if not holder or (holder ~= ARGV[1] and ARGV[1] ~= '') then return 0 end \
local head = redis.call('LINDEX', KEYS[2], 0) \
if not head then redis.call('DEL', KEYS[1]) return 1 end ",
    prelude!(),
    "\
head = live_head(KEYS[2], KEYS[3], head) \
if not head then redis.call('DEL', KEYS[1]) return 1 end \
redis.call('LPOP', KEYS[2]) redis.call('ZREM', KEYS[3], head) \
redis.call('SET', KEYS[1], head, 'PX', ARGV[3]) \
local w, wake = KEYS[4], head \
if KEYS[5] and head == ARGV[2] then w, wake = KEYS[5], 'h' end \
redis.call('RPUSH', w, wake) redis.call('PEXPIRE', w, 4 * tonumber(ARGV[3])) \
return 1"
));

/// Wakes, by its own list, the waiter the lock was handed to, whose token
/// another waiter popped from `N`; unless it took the lock meanwhile (then
/// the key's TTL is no longer the grant's, and a wake-up would be left
/// over). KEYS: K W(its). ARGV: its token, grant.
static WAKE: Script = Script::new(
    "\
if redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('PTTL', KEYS[1]) > tonumber(ARGV[2]) then return 0 end \
redis.call('RPUSH', KEYS[2], 'h') redis.call('PEXPIRE', KEYS[2], 4 * tonumber(ARGV[2])) \
return 1"
);

/// One step of waiting in a queue; `base` spells the lock key's queue keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueOp<'a> {
    Enqueue { base: &'a Base<'a>, ttl_ms: i64, lease_ms: i64 },
    /// Blocks on our wake-up list and on `N` (`BLPOP W N`: ours first).
    Wait { base: &'a Base<'a>, timeout_ms: i64, ttl_ms: i64 },
    Confirm { base: &'a Base<'a>, ttl_ms: i64, lease_ms: i64 },
    Leave { base: &'a Base<'a>, ttl_ms: i64 },
    /// The release of a lock that others may wait for.
    Handoff { base: &'a Base<'a>, expected: &'a str },
    Wake { base: &'a Base<'a>, head: &'a str },
}


impl QueueOp<'_> {
    pub fn first_wire(&self) -> Wire {
        match self {
            QueueOp::Wait { .. } => Wire::Plain,
            // Sent ahead of a blocking pop, which would hold back the text
            // sent again after a NOSCRIPT: text at once (it is short).
            QueueOp::Wake { .. } => Wire::Eval,
            _ => Wire::Sha,
        }
    }

    /// What to send behind a step whose reply did not come in time: leaving
    /// the queue (a late join or wait must not keep us in it).
    pub fn cleanup(&self) -> Option<QueueOp<'_>> {
        match *self {
            QueueOp::Enqueue { base, ttl_ms, .. } | QueueOp::Wait { base, ttl_ms, .. } => {
                Some(QueueOp::Leave { base, ttl_ms })
            }
            _ => None,
        }
    }

    /// How long the server may hold the reply back (a blocking pop).
    pub fn blocks_for(&self) -> Duration {
        match *self {
            QueueOp::Wait { timeout_ms, .. } => Duration::from_millis(timeout_ms.max(0) as u64),
            _ => Duration::ZERO,
        }
    }

    pub fn check_reply(&self, reply: &Reply) -> Result<(), String> {
        let fits = match self {
            QueueOp::Wait { .. } => woken(reply).is_some() || *reply == Reply::Nil,
            QueueOp::Wake { .. } | QueueOp::Handoff { .. } => matches!(reply, Reply::Int(0 | 1)),
            _ => matches!(reply, Reply::Int(0 | 1) | Reply::Bulk(_)),
        };
        match fits {
            true => Ok(()),
            false => Err(format!("unexpected reply to a queue step: {reply:?}")),
        }
    }

    pub fn pack_into(&self, key: &[u8], token: &str, wire: Wire, out: &mut Vec<u8>) {
        let (mut a, mut b) = (itoa_buf(), itoa_buf());
        let me = token.as_bytes();
        let script = |s, keys: &[&[&[u8]]], args: &[&[u8]], out: &mut Vec<u8>| script_call(out, s, wire, keys, args);
        match *self {
            QueueOp::Enqueue { base, ttl_ms, lease_ms } | QueueOp::Confirm { base, ttl_ms, lease_ms } => {
                let which = if matches!(self, QueueOp::Enqueue { .. }) { &ENQUEUE } else { &CONFIRM };
                let args = [me, format_int(&mut a, ttl_ms), format_int(&mut b, lease_ms)];
                script(which, &queue_keys(key, base, me).each_ref().map(|k| &k[..]), &args, out);
            }
            QueueOp::Leave { base, ttl_ms } => {
                script(&LEAVE, &queue_keys(key, base, me).each_ref().map(|k| &k[..]), &[me, format_int(&mut a, ttl_ms)], out);
            }
            QueueOp::Wait { base, timeout_ms, .. } => {
                let secs = format!("{}.{:03}", timeout_ms / 1000, timeout_ms % 1000);
                let [.., n, w] = queue_keys(key, base, me);
                resp_pieces(out, &[&[b"BLPOP"], &w, &n, &[secs.as_bytes()]]);
            }
            QueueOp::Handoff { base, expected } => {
                let all = queue_keys(key, base, expected.as_bytes());
                let all = all.each_ref().map(|k| &k[..]);
                // Without a waiter expected, no list of one.
                let keys = if expected.is_empty() { &all[..4] } else { &all[..] };
                let grant = format_int(&mut a, GRANT.as_millis() as i64);
                script(&HANDOFF, keys, &[me, expected.as_bytes(), grant], out);
            }
            QueueOp::Wake { base, head } => {
                let [k, .., w] = queue_keys(key, base, head.as_bytes());
                let grant = format_int(&mut a, GRANT.as_millis() as i64);
                script(&WAKE, &[&k, &w], &[head.as_bytes(), grant], out);
            }
        }
    }
}

/// The keys of lock key `key`'s queue, in the order the scripts name them:
/// K Q T N, and the wake-up list of the waiter holding `token`.
fn queue_keys<'a>(key: &'a [u8], base: &'a Base<'a>, token: &'a [u8]) -> [[&'a [u8]; 5]; 5] {
    let k = [key, b"", b"", b"", b""];
    [k, base.aux(b":q", b""), base.aux(b":t", b""), base.aux(b":n", b""), base.aux(b":w:", token)]
}

/// What the release of a lock taken by a waiter needs: the waiter expected
/// first in line after us ('' if none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub expected: String,
}

/// The lease of a waiter that looks at the queue every `check`.
fn lease_ms(check: Duration) -> i64 {
    (check.as_millis().min(i64::MAX as u128 / 4) as i64) * 2 + 100
}

/// Waits in the queue of `key` on `node` until the lock is ours or
/// `deadline`, looking again at least every `check`. A server that cannot
/// be reached on the first step ends the wait at once; one that goes away
/// while we wait (a restart) is waited out for one connect and read timeout.
pub fn acquire(node: &Node, key: &[u8], token: &str, ttl_ms: i64, deadline: Instant, check: Duration, limits: &Limits) -> (Outcome, Place) {
    let base = Base::of(key);
    let lease_ms = lease_ms(check);
    let outage_budget = limits.connect + limits.read;
    let mut outage_since: Option<Instant> = None;
    let mut reached = false;
    // A wake-up we popped from `N` for another waiter: passed on by its own
    // list in our next write.
    let mut passed_on: Option<String> = None;
    loop {
        let block = check.min(deadline.saturating_duration_since(Instant::now())).max(Duration::from_millis(1));
        // Rounded up: a pop that ends a little before the deadline would
        // cost one more round for nothing.
        let block_ms = block.as_micros().div_ceil(1000).min(i64::MAX as u128) as i64;
        let step = |op| Command { op: Op::Queue(op), key, token };
        let forward = passed_on.take();
        let mut cmds = passing_on(key, token, &base, forward.as_deref());
        let at = cmds.len();
        cmds.push(step(QueueOp::Enqueue { base: &base, ttl_ms, lease_ms }));
        cmds.push(step(QueueOp::Wait { base: &base, timeout_ms: block_ms, ttl_ms }));
        let sent = Instant::now();
        let votes = exchange(&[Job { node, cmds: &cmds }], limits).swap_remove(0);
        let wake = match &votes[at + 1] {
            Vote::Got(reply) => woken(reply),
            _ => None,
        };
        let failure = match (&votes[at], wake) {
            (Vote::Got(Reply::Bulk(next)), _) => return (confirmed(ttl_ms, sent), Place { expected: text(next) }),
            (_, Some(wake)) if wake == b"h" || wake == token.as_bytes() => {
                let sent = Instant::now();
                match ask(node, &step(QueueOp::Confirm { base: &base, ttl_ms, lease_ms }), limits) {
                    Vote::Got(Reply::Bulk(next)) => return (confirmed(ttl_ms, sent), Place { expected: text(&next) }),
                    Vote::Failed(e) => Some(e),
                    _ => None,
                }
            }
            _ => {
                // Another waiter's token from `N` (an `a` of ours left over
                // from a broken round needs nothing).
                passed_on = wake.filter(|w| *w != b"a").map(text);
                votes.iter().find_map(|v| match v {
                    Vote::Failed(e) => Some(e.clone()),
                    _ => None,
                })
            }
        };
        let now = Instant::now();
        // Answers before a failure (we joined, then the server went away
        // while we waited) mean the server was there.
        reached |= votes.iter().any(|v| matches!(v, Vote::Got(_)));
        // PHP's time limit: leave the queue (within the usual bounds, not
        // cut short again) and hand control back.
        let interrupted = |passed_on: Option<String>| {
            let _quiet = wait::Quiet::begin();
            leave(node, key, token, &base, ttl_ms, passed_on.as_deref(), limits);
            (Outcome::Interrupted, Place::default())
        };
        match failure {
            Some(e) if e.cause == Cause::Interrupted => return interrupted(passed_on),
            Some(e) if !reached => return (Outcome::Unreachable(vec![e]), Place::default()),
            Some(e) => {
                let since = *outage_since.get_or_insert(now);
                if now.duration_since(since) >= outage_budget || now >= deadline {
                    leave(node, key, token, &base, ttl_ms, passed_on.as_deref(), limits);
                    return (Outcome::Unreachable(vec![e]), Place::default());
                }
                if wait::sleep_until(deadline.min(now + check)).is_err() {
                    return interrupted(passed_on);
                }
            }
            None => {
                outage_since = None;
                reached = true;
            }
        }
        if Instant::now() >= deadline {
            return leave(node, key, token, &base, ttl_ms, passed_on.as_deref(), limits);
        }
    }
}

/// What a blocking pop (`BLPOP W N`) popped: `a` or `h` from our own list,
/// a waiter's token from `N`.
fn woken(reply: &Reply) -> Option<&[u8]> {
    match reply {
        Reply::Array(pair) => match pair.as_slice() {
            [Reply::Bulk(_), Reply::Bulk(value)] => Some(value),
            _ => None,
        },
        _ => None,
    }
}

/// Ours for `ttl_ms` from at the latest when the step that took it was sent.
fn confirmed(ttl_ms: i64, sent: Instant) -> Outcome {
    Outcome::Confirmed { validity_ms: validity_ms(ttl_ms, sent.elapsed()) }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Leaves the queue; the lock may have been handed to us meanwhile.
/// A wake-up for another waiter that we popped from `N` goes with it.
fn leave(node: &Node, key: &[u8], token: &str, base: &Base<'_>, ttl_ms: i64, passed_on: Option<&str>, limits: &Limits) -> (Outcome, Place) {
    let mut cmds = passing_on(key, token, base, passed_on);
    cmds.push(Command { op: Op::Queue(QueueOp::Leave { base, ttl_ms }), key, token });
    let sent = Instant::now();
    match exchange(&[Job { node, cmds: &cmds }], limits).swap_remove(0).pop() {
        Some(Vote::Got(Reply::Bulk(next))) => (confirmed(ttl_ms, sent), Place { expected: text(&next) }),
        Some(Vote::Failed(e)) => (Outcome::Unreachable(vec![e]), Place::default()),
        _ => (Outcome::Refused, Place::default()),
    }
}

/// The first steps of a write: waking, by its own list, the waiter whose
/// wake-up we popped from `N`, if any.
fn passing_on<'a>(key: &'a [u8], token: &'a str, base: &'a Base<'a>, head: Option<&'a str>) -> Vec<Command<'a>> {
    let mut cmds = Vec::with_capacity(3);
    if let Some(head) = head {
        cmds.push(Command { op: Op::Queue(QueueOp::Wake { base, head }), key, token });
    }
    cmds
}

/// Releases a lock taken on `node`, handing it to the first live waiter.
pub fn release(node: &Node, key: &[u8], token: &str, place: &Place, limits: &Limits) -> Outcome {
    let base = Base::of(key);
    let op = QueueOp::Handoff { base: &base, expected: &place.expected };
    match ask(node, &Command { op: Op::Queue(op), key, token }, limits) {
        Vote::Got(Reply::Int(1)) => Outcome::Confirmed { validity_ms: 0.0 },
        Vote::Failed(e) => Outcome::failed(e),
        _ => Outcome::Refused,
    }
}
