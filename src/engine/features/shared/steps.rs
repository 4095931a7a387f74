//! The shared lock's steps as requests: taking (or joining the queue), the
//! blocking pop, leaving, releasing, extending, looking, waking.

use std::time::Duration;

use super::scripts::{EXTEND, INSPECT, LEAVE, RELEASE, TAKE, WAKE};
use super::token_of;
use crate::engine::protocol::encode::{format_int, itoa_buf, resp_pieces};
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::{script_call, Form};
use crate::engine::protocol::slot::Base;
use crate::engine::round::request::{data_if, Request, Unstable, Verdict};

/// How a take goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TakeHow {
    /// Join the queue when busy.
    pub join: bool,
    /// Join at its front (our grant ran out before we confirmed it).
    pub front: bool,
    /// The token may hold in another mode (an owner token; an upgrade or
    /// downgrade of our own hold).
    pub owner: bool,
    /// A blocking pop follows in the same round trip: a take ends it at once.
    pub pop_follows: bool,
}

/// One step on a shared lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedOp<'a> {
    Take { ttl_ms: i64, place_ms: i64, grant_ms: i64, how: TakeHow },
    /// Blocks on our wake-up list.
    Wait { timeout_ms: i64, ttl_ms: i64, grant_ms: i64 },
    /// `back`: a hold handed to us meanwhile is given back (a clean-up
    /// whose reply nobody reads), else it is ours.
    Leave { ttl_ms: i64, grant_ms: i64, back: bool },
    /// `find`: the member may be in another mode (look it up by token).
    Release { grant_ms: i64, find: bool },
    Extend { ttl_ms: i64, raise: bool, find: bool },
    Inspect,
    /// Wakes the waiters let in with these members.
    Wake { members: &'a [Vec<u8>], grant_ms: i64 },
}

/// A step on the shared lock `key` for the hold `member` of `token`;
/// `single`: only the lock key itself (its slot is being migrated).
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    pub op: SharedOp<'a>,
    pub key: &'a [u8],
    pub base: &'a Base<'a>,
    pub member: &'a str,
    pub token: &'a str,
    pub single: bool,
}

impl Step<'_> {
    /// H, G (the guard: never written, see scripts.rs), Q, T.
    fn queue_keys(&self) -> [[&[u8]; 5]; 4] {
        let h = [self.key, b"", b"", b"", b""];
        [h, self.base.aux(b":sg", b""), self.base.aux(b":sq", b""), self.base.aux(b":st", b"")]
    }

    fn wake_list<'t>(&'t self, token: &'t [u8]) -> [&'t [u8]; 5] {
        self.base.aux(b":sw:", token)
    }
}

impl Request for Step<'_> {
    fn key(&self) -> &[u8] {
        self.key
    }

    fn first_form(&self) -> Form {
        match self.op {
            SharedOp::Wait { .. } => Form::Plain,
            _ => Form::Sha,
        }
    }

    /// Behind a step whose reply did not come in time (the server may run
    /// it late): leaving the queue after a join or a wait, giving back a
    /// hold handed to us meanwhile; giving back what a take of a fresh token
    /// took. Nobody will read these replies: the waiters they let in find
    /// their grants at their next look.
    fn cleanup(&self, out: &mut Vec<u8>) -> bool {
        let leave = |ttl_ms, grant_ms, out: &mut Vec<u8>| {
            Step { op: SharedOp::Leave { ttl_ms, grant_ms, back: true }, single: false, ..*self }.encode(Form::Eval, out);
        };
        match self.op {
            SharedOp::Take { ttl_ms, grant_ms, how, .. } if how.join && !self.single => leave(ttl_ms, grant_ms, out),
            SharedOp::Wait { ttl_ms, grant_ms, .. } => leave(ttl_ms, grant_ms, out),
            SharedOp::Take { grant_ms, how, .. } if !how.owner => {
                Step { op: SharedOp::Release { grant_ms, find: false }, ..*self }.encode(Form::Eval, out);
            }
            _ => return false,
        }
        true
    }

    fn blocks_for(&self) -> Duration {
        match self.op {
            SharedOp::Wait { timeout_ms, .. } => Duration::from_millis(timeout_ms.max(0) as u64),
            _ => Duration::ZERO,
        }
    }

    fn accepts_array(&self) -> bool {
        !matches!(self.op, SharedOp::Extend { .. } | SharedOp::Wake { .. })
    }

    /// Steps naming the queue's keys are only told to try again while the
    /// slot is being migrated: the caller goes the single-key way.
    fn on_unstable(&self) -> Unstable {
        match (self.single, self.op) {
            (true, _) | (_, SharedOp::Extend { .. } | SharedOp::Inspect) => Unstable::WaitOut,
            _ => Unstable::Report,
        }
    }

    fn secret(&self) -> &str {
        self.token
    }

    fn classify(&self, _form: Form, reply: &Reply) -> Verdict {
        let fits = match self.op {
            SharedOp::Wait { .. } => popped(reply).is_some() || *reply == Reply::Nil,
            SharedOp::Extend { .. } | SharedOp::Wake { .. } => matches!(reply, Reply::Int(_)),
            SharedOp::Inspect => matches!(reply, Reply::Array(a) if a.len() >= 2),
            _ => verdict(reply).is_some(),
        };
        data_if(fits, reply, "a shared lock step", self.token)
    }

    fn encode(&self, form: Form, out: &mut Vec<u8>) {
        let (mut a, mut b, mut c) = (itoa_buf(), itoa_buf(), itoa_buf());
        let me = self.member.as_bytes();
        let [h, g, q, t] = self.queue_keys();
        let own = self.wake_list(self.token.as_bytes());
        let all: [&[&[u8]]; 5] = [&h, &g, &q, &t, &own];
        let keys = |n: usize| if self.single { &all[..1] } else { &all[..n] };
        let token_if = |find: bool| -> &[u8] { if find { self.token.as_bytes() } else { b"" } };
        match self.op {
            SharedOp::Take { ttl_ms, place_ms, grant_ms, how } => {
                let mut flags = Vec::with_capacity(3);
                for (on, f) in [(how.join, b'j'), (how.front, b'f'), (how.owner, b'o')] {
                    if on {
                        flags.push(f);
                    }
                }
                let n = if how.pop_follows { 5 } else { 4 };
                let args = [me, format_int(&mut a, ttl_ms), format_int(&mut b, place_ms), format_int(&mut c, grant_ms), &flags];
                script_call(out, &TAKE, form, keys(n), &args);
            }
            SharedOp::Wait { timeout_ms, .. } => {
                let secs = format!("{}.{:03}", timeout_ms / 1000, timeout_ms % 1000);
                resp_pieces(out, &[&[b"BLPOP"], &own, &[secs.as_bytes()]]);
            }
            SharedOp::Leave { ttl_ms, grant_ms, back } => {
                let args = [me, format_int(&mut a, ttl_ms), format_int(&mut b, grant_ms), if back { b"1" } else { b"0" }];
                script_call(out, &LEAVE, form, &all, &args);
            }
            SharedOp::Release { grant_ms, find } => {
                script_call(out, &RELEASE, form, keys(4), &[me, token_if(find), format_int(&mut a, grant_ms)]);
            }
            SharedOp::Extend { ttl_ms, raise, find } => {
                let args = [me, token_if(find), format_int(&mut a, ttl_ms), if raise { b"1" } else { b"0" }];
                script_call(out, &EXTEND, form, &all[..1], &args);
            }
            SharedOp::Inspect => script_call(out, &INSPECT, form, &[&h, &q], &[]),
            SharedOp::Wake { members, grant_ms } => {
                let lists: Vec<[&[u8]; 5]> = members.iter().map(|m| self.wake_list(token_of(m))).collect();
                let keys: Vec<&[&[u8]]> = [&h[..], &g[..]].into_iter().chain(lists.iter().map(|l| &l[..])).collect();
                let args: Vec<&[u8]> = std::iter::once(format_int(&mut a, grant_ms)).chain(members.iter().map(|m| &m[..])).collect();
                script_call(out, &WAKE, form, &keys, &args);
            }
        }
    }
}

/// A take's, release's or leave's reply: its code (1 held or released, 0
/// not; a take's 2: a change of the token's hold in another mode refused),
/// and the members let in, to wake.
pub fn verdict(reply: &Reply) -> Option<(i64, Vec<Vec<u8>>)> {
    let Reply::Array(items) = reply else { return None };
    let (first, rest) = items.split_first()?;
    let code = match first {
        Reply::Int(n @ 0..=2) => *n,
        _ => return None,
    };
    let mut woken = Vec::with_capacity(rest.len());
    for item in rest {
        match item {
            Reply::Bulk(member) => woken.push(member.clone()),
            _ => return None,
        }
    }
    Some((code, woken))
}

/// What a blocking pop popped from our list: `a` (our take ended it) or `h`
/// (a hold was granted to us).
pub fn popped(reply: &Reply) -> Option<&[u8]> {
    match reply {
        Reply::Array(pair) => match pair.as_slice() {
            [Reply::Bulk(_), Reply::Bulk(value)] => Some(value),
            _ => None,
        },
        _ => None,
    }
}
