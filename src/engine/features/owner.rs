//! The plain lock: a key that holds its owner's token. Acquire (`SET NX PX`,
//! or the script that also recognises our own token), the owner-checked
//! release and extend, each as one native command where the server has one
//! (`DELIFEQ`, `DELEX … IFEQ`, `SET … IFEQ … PX`). The owner check is written
//! once, in `mine!()`/`owned!()`, for every script of every feature.
//!
//! A waiter queued for a held key marks the holder's value (`<token>\0q`,
//! queue/scripts.rs): a native compare then says no, and the holder's
//! release goes as the hand-off script, which wakes the waiter. So the
//! owner check accepts the token with or without the mark.

use crate::engine::features::key_types::held_as_shared;
use crate::engine::protocol::encode::{format_int, itoa_buf, resp};
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::{script_call, Form, Script};
use crate::engine::protocol::server_info::{Caps, Native};
use crate::engine::round::request::{self, Request, Verdict};

/// Lua: the pattern of a token of `lock()` (`token.rs`), in quotes: the
/// only values waiters mark, so the only ones whose unmarked value says
/// that nobody waits.
macro_rules! lock_token {
    () => {
        "'^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]\
[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[%w._-]+:%d+:%d+$'"
    };
}
pub(crate) use lock_token;

/// Lua: whether the value `$v` is the token `$me`, marked or not (both Lua
/// expressions; `$v` may be false, a missing key).
macro_rules! mine {
    ($v:literal, $me:literal) => {
        concat!("(", $v, " == ", $me, " or ", $v, " == ", $me, " .. '\\0q')")
    };
}
pub(crate) use mine;

/// Lua: the value at the key `$k`, false when there is none. A key of
/// another type (another library's lock: symfony/lock keeps a sorted set)
/// reads as a value no token equals, `\0<type>`: a lock held by someone
/// else, never an error halfway through a script.
macro_rules! value_of {
    ($k:literal) => {
        concat!("(function(k) local v = redis.pcall('GET', k) \
if type(v) == 'table' and v['err'] then return '\\0' .. redis.call('TYPE', k)['ok'] end return v end)(", $k, ")")
    };
}
pub(crate) use value_of;

/// Lua: whether `$v`, a value read by `value_of!()`, stands for a key of
/// another type (`\0<type>`; false for a missing key).
macro_rules! of_another_type {
    ($v:literal) => {
        concat!("(", $v, " and string.byte(", $v, ") == 0)")
    };
}
pub(crate) use of_another_type;

/// Lua: whether the key `$k` holds the token `$me`, marked or not.
macro_rules! owned {
    ($k:literal, $me:literal) => {
        concat!("(function(v) return ", $crate::engine::features::owner::mine!("v", $me), " end)(", $crate::engine::features::owner::value_of!($k), ")")
    };
}
pub(crate) use owned;

/// Lua: the value `$v` without a waiter's mark.
macro_rules! unmarked {
    ($v:literal) => {
        concat!("(string.sub(", $v, ", -2) == '\\0q' and string.sub(", $v, ", 1, -3) or ", $v, ")")
    };
}
pub(crate) use unmarked;

/// The native owner-checked delete a server with `caps` has.
pub fn release_native(caps: Caps) -> Option<Native> {
    [Native::DelIfEq, Native::DelEx].into_iter().find(|n| caps.has(*n))
}

/// The owner-checked delete of `key` for `token` as the native command.
pub fn encode_release_native(native: Native, key: &[u8], token: &[u8], out: &mut Vec<u8>) {
    match native {
        Native::DelEx => resp(out, &[b"DELEX", key, b"IFEQ", token]),
        _ => resp(out, &[b"DELIFEQ", key, token]),
    }
}

/// Sets the key if it is free, or refreshes it if it already holds our token:
/// a resend after a lost reply must not fail on our own lock. Only a key of
/// another type (`\0<type>`) can be one of our shared locks.
static ACQUIRE: Script = Script::new(concat!(
    "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end \
local v = ",
    value_of!("KEYS[1]"),
    " \
if ",
    of_another_type!("v"),
    " and ",
    held_as_shared!("KEYS[1]"),
    " then return redis.error_reply('WRONGTYPE the lock key is held as a shared lock, not what the lock keeps there') end \
if ",
    mine!("v", "ARGV[1]"),
    " then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end \
return 0"
));

/// Deletes the key only while it holds our token.
static RELEASE: Script = Script::new(concat!(
    "if ",
    owned!("KEYS[1]", "ARGV[1]"),
    " then return redis.call('DEL', KEYS[1]) end \
return 0"
));

/// Sets a new TTL only while the key holds our token.
static EXTEND: Script = Script::new(concat!(
    "if ",
    owned!("KEYS[1]", "ARGV[1]"),
    " then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end \
return 0"
));

/// Computes the extend script's digest now, on the calling thread.
pub fn prepare_extend() {
    EXTEND.sha();
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Acquire { ttl_ms: i64 },
    /// Acquire, where a key that already holds our token counts as taken
    /// (the script from the first send on).
    AcquireOrRefresh { ttl_ms: i64 },
    Release,
    Extend { ttl_ms: i64 },
    /// `DEL`, whoever holds it (a forced release while the queue's scripts
    /// cannot run).
    ForceDelete,
}

/// One of the plain lock's requests for `key`, owned through `token`.
#[derive(Clone, Copy, Debug)]
pub struct Owned<'a> {
    pub op: Op,
    pub key: &'a [u8],
    pub token: &'a str,
}

impl Owned<'_> {
    fn script(&self) -> (&'static Script, Option<i64>) {
        match self.op {
            Op::Acquire { ttl_ms } | Op::AcquireOrRefresh { ttl_ms } => (&ACQUIRE, Some(ttl_ms)),
            Op::Release | Op::ForceDelete => (&RELEASE, None),
            Op::Extend { ttl_ms } => (&EXTEND, Some(ttl_ms)),
        }
    }
}

impl Request for Owned<'_> {
    fn key(&self) -> &[u8] {
        self.key
    }

    fn first_form(&self) -> Form {
        match self.op {
            Op::Acquire { .. } | Op::ForceDelete => Form::Plain,
            _ => Form::Sha,
        }
    }

    fn native(&self, caps: Caps) -> Option<Native> {
        match self.op {
            Op::Release => release_native(caps),
            Op::Extend { .. } => caps.has(Native::SetIfEq).then_some(Native::SetIfEq),
            _ => None,
        }
    }

    /// A plain acquire that may have run becomes the script that
    /// recognises our own lock.
    fn resend_form(&self, sent: Form) -> Form {
        match (self.op, sent) {
            (Op::Acquire { .. }, Form::Plain) => Form::Sha,
            (_, other) => other,
        }
    }

    fn encode(&self, form: Form, out: &mut Vec<u8>) {
        let (script, ttl) = self.script();
        let mut ttl_text = itoa_buf();
        let ttl = ttl.map(|t| format_int(&mut ttl_text, t));
        let (key, token) = (self.key, self.token.as_bytes());
        match (form, ttl) {
            (_, _) if self.op == Op::ForceDelete => resp(out, &[b"DEL", key]),
            (Form::Native(Native::SetIfEq), Some(ttl)) => resp(out, &[b"SET", key, token, b"IFEQ", token, b"PX", ttl]),
            (Form::Native(native), _) => encode_release_native(native, key, token, out),
            (Form::Plain, _) => resp(out, &[b"SET", key, token, b"NX", b"PX", ttl.unwrap_or(b"0")]),
            (_, Some(ttl)) => script_call(out, script, form, &[&[key]], &[token, ttl]),
            (_, None) => script_call(out, script, form, &[&[key]], &[token]),
        }
    }

    /// A native no may be a waiter's mark: the script decides.
    fn classify(&self, form: Form, reply: &Reply) -> Verdict {
        match (form, request::yes_or_no(reply, self.token)) {
            (Form::Native(_), Verdict::No) => Verdict::Again,
            (_, verdict) => verdict,
        }
    }

    /// Behind a late acquire: our release, in case the server runs it late.
    fn cleanup(&self, out: &mut Vec<u8>) -> bool {
        match self.op {
            Op::Acquire { .. } | Op::AcquireOrRefresh { .. } => {
                Owned { op: Op::Release, ..*self }.encode(Form::Eval, out);
                true
            }
            _ => false,
        }
    }

    fn secret(&self) -> &str {
        self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(req: Owned<'_>, form: Form) -> Vec<u8> {
        let mut out = Vec::new();
        req.encode(form, &mut out);
        out
    }

    #[test]
    fn keys_and_tokens_travel_as_bulk_strings() {
        let key = b"a\r\n*3\r\n\0";
        let want = b"*6\r\n$3\r\nSET\r\n$8\r\na\r\n*3\r\n\0\r\n$1\r\nt\r\n$2\r\nNX\r\n$2\r\nPX\r\n$4\r\n1500\r\n";
        assert_eq!(packed(Owned { op: Op::Acquire { ttl_ms: 1500 }, key, token: "t" }, Form::Plain), want.to_vec());
    }

    #[test]
    fn requests_pack_as_the_redis_crate_packs_them() {
        let req = Owned { op: Op::Extend { ttl_ms: 9_223_372_036_854_775_807 }, key: b"k\0", token: "tok" };
        let want = redis::cmd("EVAL").arg(EXTEND.text).arg(1).arg(&b"k\0"[..]).arg("tok").arg(i64::MAX).get_packed_command();
        assert_eq!(packed(req, Form::Eval), want);
        let req = Owned { op: Op::Release, key: b"", token: "" };
        let want = redis::cmd("EVALSHA").arg(RELEASE.sha()).arg(1).arg(&b""[..]).arg("").get_packed_command();
        assert_eq!(packed(req, Form::Sha), want);
        assert_eq!(Owned { op: Op::Acquire { ttl_ms: 1 }, key: b"k", token: "t" }.resend_form(Form::Plain), Form::Sha);
    }

    #[test]
    fn the_owner_check_is_one_lua_expression() {
        assert_eq!(mine!("v", "me"), "(v == me or v == me .. '\\0q')");
        assert!(RELEASE.text.contains(owned!("KEYS[1]", "ARGV[1]")));
        assert!(unmarked!("v").contains("string.sub(v, 1, -3)"));
    }

    #[test]
    fn natives_stand_in_for_release_and_extend() {
        let (valkey9, redis86, valkey81) =
            (Caps::NONE.with(Native::DelIfEq).with(Native::SetIfEq), Caps::NONE.with(Native::DelEx).with(Native::SetIfEq), Caps::NONE.with(Native::SetIfEq));
        let release = Owned { op: Op::Release, key: b"k", token: "t" };
        let extend = Owned { op: Op::Extend { ttl_ms: 1500 }, key: b"k", token: "t" };
        assert_eq!((release.native(valkey9), release.native(redis86), release.native(valkey81)), (Some(Native::DelIfEq), Some(Native::DelEx), None));
        assert_eq!((extend.native(valkey81), extend.native(Caps::NONE)), (Some(Native::SetIfEq), None));
        assert_eq!(packed(release, Form::Native(Native::DelIfEq)), redis::cmd("DELIFEQ").arg("k").arg("t").get_packed_command());
        assert_eq!(packed(release, Form::Native(Native::DelEx)), redis::cmd("DELEX").arg("k").arg("IFEQ").arg("t").get_packed_command());
        let want = redis::cmd("SET").arg("k").arg("t").arg("IFEQ").arg("t").arg("PX").arg(1500).get_packed_command();
        assert_eq!(packed(extend, Form::Native(Native::SetIfEq)), want);
        assert_eq!(release.classify(Form::Native(Native::DelIfEq), &Reply::Int(0)), Verdict::Again);
        assert_eq!(extend.classify(Form::Native(Native::SetIfEq), &Reply::Nil), Verdict::Again);
        assert_eq!(extend.classify(Form::Native(Native::SetIfEq), &Reply::Status(b"OK".to_vec())), Verdict::Yes);
        assert_eq!(release.classify(Form::Sha, &Reply::Int(0)), Verdict::No);
    }
}
