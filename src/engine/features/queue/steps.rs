//! The queue's steps as requests: joining (`ENQUEUE`), the blocking pop,
//! confirming a hand-off, leaving, handing off, and passing a wake-up on.

use std::time::Duration;

use super::scripts::{CONFIRM, ENQUEUE, HANDOFF, LEAVE, WAKE};
use super::GRANT;
use crate::engine::protocol::encode::{format_int, itoa_buf, resp_pieces};
use crate::engine::protocol::resp::Reply;
use crate::engine::features::owner::{encode_release_native, release_native};
use crate::engine::features::token::is_lock_token;
use crate::engine::protocol::script::{script_call, Form};
use crate::engine::protocol::server_info::{Caps, Native};
use crate::engine::protocol::slot::Base;
use crate::engine::round::request::{data_if, Request, Unstable, Verdict};

/// One step of waiting in a queue; `base` spells the lock key's queue keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueOp<'a> {
    /// `pops`: a blocking pop follows in the same write (not while looking
    /// again soon behind a foreign holder).
    Enqueue { base: &'a Base<'a>, ttl_ms: i64, place_ms: i64, pops: bool },
    /// Blocks on our wake-up list and on `N` (`BLPOP W N`: ours first).
    Wait { base: &'a Base<'a>, timeout_ms: i64, ttl_ms: i64 },
    Confirm { base: &'a Base<'a>, ttl_ms: i64, place_ms: i64 },
    Leave { base: &'a Base<'a>, ttl_ms: i64 },
    /// The release of a lock that others may wait for.
    Handoff { base: &'a Base<'a>, expected: &'a str },
    Wake { base: &'a Base<'a>, head: &'a str },
}


/// A step of the queue of `key` for the waiter (or holder) of `token`.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    pub op: QueueOp<'a>,
    pub key: &'a [u8],
    pub token: &'a str,
}

impl Request for Step<'_> {
    fn key(&self) -> &[u8] {
        self.key
    }

    fn first_form(&self) -> Form {
        match self.op {
            QueueOp::Wait { .. } => Form::Plain,
            // Sent ahead of a blocking pop, which would hold back the text
            // sent again after a NOSCRIPT: text at once (it is short).
            QueueOp::Wake { .. } => Form::Eval,
            _ => Form::Sha,
        }
    }

    /// Behind a step whose reply did not come in time: leaving the queue
    /// (a late join or wait must not keep us in it).
    fn cleanup(&self, out: &mut Vec<u8>) -> bool {
        match self.op {
            QueueOp::Enqueue { base, ttl_ms, .. } | QueueOp::Wait { base, ttl_ms, .. } => {
                Step { op: QueueOp::Leave { base, ttl_ms }, ..*self }.encode(Form::Eval, out);
                true
            }
            _ => false,
        }
    }

    /// A blocking pop may hold its reply back that long.
    fn blocks_for(&self) -> Duration {
        match self.op {
            QueueOp::Wait { timeout_ms, .. } => Duration::from_millis(timeout_ms.max(0) as u64),
            _ => Duration::ZERO,
        }
    }

    fn accepts_array(&self) -> bool {
        matches!(self.op, QueueOp::Wait { .. })
    }

    /// Every step names several keys: while the slot is being migrated it
    /// is only told to try again, and the caller goes the single-key way.
    fn on_unstable(&self) -> Unstable {
        Unstable::Report
    }

    fn secret(&self) -> &str {
        self.token
    }

    /// A release nobody was expected to wait for: the native owner-checked
    /// delete, which a waiter's mark on the value turns into the hand-off.
    /// Only for the extension's own tokens: no other value is ever marked.
    fn native(&self, caps: Caps) -> Option<Native> {
        match self.op {
            QueueOp::Handoff { expected: "", .. } if is_lock_token(self.token) => release_native(caps),
            _ => None,
        }
    }

    fn classify(&self, form: Form, reply: &Reply) -> Verdict {
        if let Form::Native(_) = form {
            return match reply {
                Reply::Int(1) => Verdict::Data,
                Reply::Int(0) => Verdict::Again,
                _ => data_if(false, reply, "a queue step", self.token),
            };
        }
        let fits = match self.op {
            QueueOp::Wait { .. } => woken(reply).is_some() || *reply == Reply::Nil,
            QueueOp::Wake { .. } | QueueOp::Handoff { .. } => matches!(reply, Reply::Int(0 | 1)),
            QueueOp::Enqueue { .. } => matches!(reply, Reply::Int(i64::MIN..=0) | Reply::Bulk(_)),
            _ => matches!(reply, Reply::Int(0 | 1) | Reply::Bulk(_)),
        };
        data_if(fits, reply, "a queue step", self.token)
    }

    fn encode(&self, form: Form, out: &mut Vec<u8>) {
        let (key, me) = (self.key, self.token.as_bytes());
        // (Only an unexpected release has a native form: `native` above.)
        if let Form::Native(native) = form {
            return encode_release_native(native, key, me, out);
        }
        let (mut a, mut b) = (itoa_buf(), itoa_buf());
        let script = |s, keys: &[&[&[u8]]], args: &[&[u8]], out: &mut Vec<u8>| script_call(out, s, form, keys, args);
        match self.op {
            QueueOp::Enqueue { base, ttl_ms, place_ms, pops } => {
                let args = [me, format_int(&mut a, ttl_ms), format_int(&mut b, place_ms), if pops { b"pop" } else { b"" }];
                script(&ENQUEUE, &queue_keys(key, base, me).each_ref().map(|k| &k[..]), &args, out);
            }
            QueueOp::Confirm { base, ttl_ms, place_ms } => {
                let args = [me, format_int(&mut a, ttl_ms), format_int(&mut b, place_ms)];
                script(&CONFIRM, &queue_keys(key, base, me).each_ref().map(|k| &k[..]), &args, out);
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


/// What a blocking pop (`BLPOP W N`) popped: `a` or `h` from our own list,
/// a waiter's token from `N`.
pub fn woken(reply: &Reply) -> Option<&[u8]> {
    match reply {
        Reply::Array(pair) => match pair.as_slice() {
            [Reply::Bulk(_), Reply::Bulk(value)] => Some(value),
            _ => None,
        },
        _ => None,
    }
}
