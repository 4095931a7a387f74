//! The queue's steps as requests, one per master: a look (`TAKE`), giving a
//! part of a failed round on (`YIELD`), leaving, the blocking pop on our
//! wake-up list, and the unlock that hands the lock on.

use std::time::Duration;

use super::scripts::{LEAVE, RELEASE, TAKE, YIELD};
use crate::engine::features::owner::{encode_release_native, release_native};
use crate::engine::features::token::is_lock_token;
use crate::engine::protocol::encode::{format_int, itoa_buf, resp_pieces};
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::{script_call, Form};
use crate::engine::protocol::server_info::{Caps, Native};
use crate::engine::protocol::slot::Base;
use crate::engine::round::request::{data_if, yes_or_no, Request, Verdict};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A yes: the lock is ours on this master for `ttl_ms`.
    Take { ticket: i64, ttl_ms: i64, place_ms: i64 },
    Yield { ticket: i64, place_ms: i64 },
    Leave,
    /// `BLPOP` on our wake-up list.
    Wait { timeout_ms: i64 },
    /// The unlock (a yes: it was ours). `waiters`: others are likely to
    /// wait (the hold came through the queue), so the hand-off script goes
    /// at once, not after a native delete that their mark would refuse.
    Release { waiters: bool },
}

/// A step of `token` in the queue of `key` (whose keys `base` spells).
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    pub op: Op,
    pub key: &'a [u8],
    pub base: &'a Base<'a>,
    pub token: &'a str,
    /// How long a hand-off is provisional.
    pub grant: Duration,
}

impl Request for Step<'_> {
    fn key(&self) -> &[u8] {
        self.key
    }

    fn first_form(&self) -> Form {
        match self.op {
            Op::Wait { .. } => Form::Plain,
            _ => Form::Sha,
        }
    }

    /// Nobody waits behind an unmarked value: the native owner-checked
    /// delete, which a waiter's mark turns into the script.
    fn native(&self, caps: Caps) -> Option<Native> {
        match self.op {
            Op::Release { waiters: false } if is_lock_token(self.token) => release_native(caps),
            _ => None,
        }
    }

    /// Behind a look or a pop whose reply did not come in time: leaving (a
    /// late look must not keep `K` or our place there).
    fn cleanup(&self, out: &mut Vec<u8>) -> bool {
        match self.op {
            Op::Take { .. } | Op::Wait { .. } => {
                Step { op: Op::Leave, ..*self }.encode(Form::Eval, out);
                true
            }
            _ => false,
        }
    }

    /// A look that did not run is harmless; one that ran twice would put
    /// a holder back in the queue.
    fn must_run(&self) -> bool {
        !matches!(self.op, Op::Take { .. })
    }

    fn blocks_for(&self) -> Duration {
        match self.op {
            Op::Wait { timeout_ms } => Duration::from_millis(timeout_ms.max(0) as u64),
            _ => Duration::ZERO,
        }
    }

    fn accepts_array(&self) -> bool {
        matches!(self.op, Op::Wait { .. })
    }

    fn secret(&self) -> &str {
        self.token
    }

    fn classify(&self, form: Form, reply: &Reply) -> Verdict {
        match (self.op, form) {
            (Op::Wait { .. }, _) => data_if(matches!(reply, Reply::Array(_) | Reply::Nil), reply, "a blocking pop", self.token),
            (_, Form::Native(_)) => match yes_or_no(reply, self.token) {
                Verdict::No => Verdict::Again,
                verdict => verdict,
            },
            // 2: no, and next in line here (data, so that the waiter knows).
            (Op::Take { .. }, _) if *reply == Reply::Int(2) => Verdict::Data,
            _ => yes_or_no(reply, self.token),
        }
    }

    fn encode(&self, form: Form, out: &mut Vec<u8>) {
        let (key, me) = (self.key, self.token.as_bytes());
        if let Form::Native(native) = form {
            return encode_release_native(native, key, me, out);
        }
        let [rq, rt, w] = [self.base.aux(b":rq", b""), self.base.aux(b":rt", b""), self.base.aux(b":rw:", me)];
        let keys: [&[&[u8]]; 4] = [&[key], &rq, &rt, &w];
        let (mut a, mut b, mut c, mut d) = (itoa_buf(), itoa_buf(), itoa_buf(), itoa_buf());
        let grant = format_int(&mut d, self.grant.as_millis().min(i64::MAX as u128) as i64);
        match self.op {
            Op::Take { ticket, ttl_ms, place_ms } => {
                let args = [me, format_int(&mut a, ticket), format_int(&mut b, ttl_ms), format_int(&mut c, place_ms), grant];
                script_call(out, &TAKE, form, &keys, &args);
            }
            Op::Yield { ticket, place_ms } => {
                let args = [me, format_int(&mut a, ticket), format_int(&mut b, place_ms), grant];
                script_call(out, &YIELD, form, &keys, &args);
            }
            Op::Leave => script_call(out, &LEAVE, form, &keys, &[me, grant]),
            Op::Release { .. } => script_call(out, &RELEASE, form, &keys, &[me, grant]),
            Op::Wait { timeout_ms } => {
                let secs = format!("{}.{:03}", timeout_ms / 1000, timeout_ms % 1000);
                resp_pieces(out, &[&[b"BLPOP"], &w, &[secs.as_bytes()]]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(op: Op) -> Step<'static> {
        static BASE: std::sync::OnceLock<Base<'static>> = std::sync::OnceLock::new();
        Step { op, key: b"invoice:42", base: BASE.get_or_init(|| Base::of(b"invoice:42")), token: "tok", grant: Duration::from_millis(200) }
    }

    #[test]
    fn every_script_names_the_queue_keys_in_the_lock_keys_slot() {
        let mut out = Vec::new();
        step(Op::Take { ticket: 7, ttl_ms: 5000, place_ms: 500 }).encode(Form::Eval, &mut out);
        let want = redis::cmd("EVAL").arg(TAKE.text).arg(4).arg("invoice:42").arg("{invoice:42}:rq").arg("{invoice:42}:rt")
            .arg("{invoice:42}:rw:tok").arg("tok").arg(7).arg(5000).arg(500).arg(200).get_packed_command();
        assert_eq!(out, want);
        out.clear();
        step(Op::Wait { timeout_ms: 1500 }).encode(Form::Plain, &mut out);
        assert_eq!(out, redis::cmd("BLPOP").arg("{invoice:42}:rw:tok").arg("1.500").get_packed_command());
    }

    #[test]
    fn a_look_tells_yes_no_and_next_in_line() {
        let take = step(Op::Take { ticket: 7, ttl_ms: 5000, place_ms: 500 });
        assert_eq!(take.classify(Form::Sha, &Reply::Int(1)), Verdict::Yes);
        assert_eq!(take.classify(Form::Sha, &Reply::Int(0)), Verdict::No);
        assert_eq!(take.classify(Form::Sha, &Reply::Int(2)), Verdict::Data);
        assert!(matches!(take.classify(Form::Sha, &Reply::Int(3)), Verdict::Malformed(_)));
        // A look is never sent twice; the unlock, a late one's leave, are.
        assert!(!take.must_run() && step(Op::Release { waiters: false }).must_run());
        let mut out = Vec::new();
        assert!(take.cleanup(&mut out) && out.starts_with(b"*9\r\n$4\r\nEVAL"));
    }

    #[test]
    fn the_unlock_is_native_where_nobody_waits() {
        let caps = Caps::NONE.with(Native::DelIfEq);
        let release = Step { token: "0123456789abcdef0123456789abcdef:h:1:2", ..step(Op::Release { waiters: false }) };
        assert_eq!(release.native(caps), Some(Native::DelIfEq));
        assert_eq!(release.classify(Form::Native(Native::DelIfEq), &Reply::Int(0)), Verdict::Again);
        assert_eq!(step(Op::Release { waiters: false }).native(caps), None); // not a lock token: never marked, the script
        // A hold that came through the queue: the hand-off script at once.
        assert_eq!(Step { op: Op::Release { waiters: true }, ..release }.native(caps), None);
    }
}
