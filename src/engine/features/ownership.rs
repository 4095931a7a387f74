//! What a holder asks Redis about its own lock, each in one atomic script:
//! is it still ours (taking it again, or releasing one of several holds),
//! its fencing token, and everything about a key at once (introspection).
//!
//! Fencing tokens are `max(last + 1, server time in µs)`, kept in `{K}:f` as
//! "<fence> <token of its holder>": consecutive holds get increasing fences,
//! and after a restart without persistence (the record is gone) the clock
//! still gives a larger one. A fence is only ever issued while its token
//! holds the key, and holds do not overlap, so fences grow in the order of
//! the holds.

use crate::engine::protocol::encode::{format_int, itoa_buf};
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::{script_call, Form, Script};
use crate::engine::protocol::slot::Base;
use crate::engine::round::request::{data_if, Request, Verdict};
use crate::engine::features::owner::{owned, unmarked, value_of};
use crate::engine::features::token::LABEL_SEP;

/// Whether the key still holds our token; if so, and `ttl` > 0, its TTL is
/// raised to at least `ttl` (never lowered). KEYS: K. ARGV: token ttl.
static STILL_MINE: Script = Script::new(concat!(
    "if not ",
    owned!("KEYS[1]", "ARGV[1]"),
    " then return 0 end \
local ttl = tonumber(ARGV[2]) \
if ttl > 0 then local left = redis.call('PTTL', KEYS[1]) if left >= 0 and left < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end end \
return 1"
));

/// Our hold's fence (issued now if it has none), or 0 when the key is not
/// ours. The record lives as long as the lock, at least a second.
/// KEYS: K F. ARGV: token.
static FENCE: Script = Script::new(concat!(
    "if not ",
    owned!("KEYS[1]", "ARGV[1]"),
    " then return 0 end \
local rec = redis.call('GET', KEYS[2]) \
local last, who = 0, nil \
if rec then local n, w = string.match(rec, '^(%d+) (.*)$') last, who = tonumber(n) or 0, w end \
if who == ARGV[1] then return string.format('%.0f', last) end \
local t = redis.call('TIME') \
local fence = math.max(tonumber(t[1]) * 1000000 + tonumber(t[2]), last + 1) \
local text = string.format('%.0f', fence) \
redis.call('SET', KEYS[2], text .. ' ' .. ARGV[1], 'PX', math.max(redis.call('PTTL', KEYS[1]), 1000)) \
return text"
));

/// Everything about a key: "<pttl> <fence or -> <live waiters>\n<value>".
/// The fence shown is the holder's own. KEYS: K F T.
/// A key of another type (another library's lock) shows as `\0<type>`.
static INSPECT: Script = Script::new(concat!(
    "\
local v = ",
    value_of!("KEYS[1]"),
    " \
if v then v = ",
    unmarked!("v"),
    " end \
local fence = '-' \
local rec = redis.call('GET', KEYS[2]) \
if v and rec then local n, w = string.match(rec, '^(%d+) (.*)$') if w == v then fence = n end end \
local t = redis.call('TIME') \
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) \
local waiters = redis.call('ZCOUNT', KEYS[3], now, '+inf') \
return string.format('%.0f', redis.call('PTTL', KEYS[1])) .. ' ' .. fence .. ' ' .. string.format('%.0f', waiters) .. '\\n' .. (v or '')"
));

/// A question about a lock key; `base` spells its auxiliary keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask<'a> {
    /// Still ours? (TTL raised to at least `ttl_ms` when > 0.)
    StillMine { ttl_ms: i64 },
    Fence { base: &'a Base<'a> },
    Inspect { base: &'a Base<'a> },
}

/// A holder's question about `key`, owned through `token`.
#[derive(Clone, Copy, Debug)]
pub struct Question<'a> {
    pub ask: Ask<'a>,
    pub key: &'a [u8],
    pub token: &'a str,
}

impl Request for Question<'_> {
    fn key(&self) -> &[u8] {
        self.key
    }

    fn classify(&self, _form: Form, reply: &Reply) -> Verdict {
        let fits = match self.ask {
            Ask::StillMine { .. } => matches!(reply, Reply::Int(0 | 1)),
            Ask::Fence { .. } => matches!(reply, Reply::Int(0) | Reply::Bulk(_)),
            Ask::Inspect { .. } => matches!(reply, Reply::Bulk(_)),
        };
        data_if(fits, reply, "an ownership check", self.token)
    }

    fn secret(&self) -> &str {
        self.token
    }

    fn encode(&self, form: Form, out: &mut Vec<u8>) {
        let mut n = itoa_buf();
        let script = |s, keys: &[&[&[u8]]], args: &[&[u8]], out: &mut Vec<u8>| script_call(out, s, form, keys, args);
        let (key, me) = (self.key, self.token.as_bytes());
        match self.ask {
            Ask::StillMine { ttl_ms } => script(&STILL_MINE, &[&[key]], &[me, format_int(&mut n, ttl_ms.max(0))], out),
            Ask::Fence { base } => script(&FENCE, &[&[key], &base.aux(b":f", b"")], &[me], out),
            Ask::Inspect { base } => {
                script(&INSPECT, &[&[key], &base.aux(b":f", b""), &base.aux(b":t", b"")], &[], out)
            }
        }
    }
}

/// A fence reply: `None` when the key was not ours.
pub fn fence_of(reply: &Reply) -> Result<Option<i64>, String> {
    match reply {
        Reply::Int(0) => Ok(None),
        Reply::Bulk(text) => parse_int(text).map(Some).ok_or_else(|| "a fence that is not an integer".to_owned()),
        _ => Err("unexpected reply to a fence request".to_owned()),
    }
}

fn parse_int(text: &[u8]) -> Option<i64> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// Who holds a lock, as its token says (see `token::new_token`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holder {
    pub host: Option<String>,
    pub pid: Option<i64>,
    /// Unix time in ms when the holder began to acquire it.
    pub since_ms: Option<i64>,
    /// What the holder's application said it was doing (`redis_lock.label`).
    pub label: Option<String>,
}

impl Holder {
    /// Reads `<32 hex>:<host>[__<label>]:<pid>:<since ms>`; a value of
    /// another library gives empty fields.
    pub fn of(value: &[u8]) -> Self {
        let mut parts = value.split(|&b| b == b':');
        let (Some(random), Some(host), Some(pid), Some(since), None) =
            (parts.next(), parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Self::default();
        };
        let (pid, since_ms) = (parse_int(pid), parse_int(since));
        if random.len() != 32 || !random.iter().all(u8::is_ascii_hexdigit) || pid.is_none() || since_ms.is_none() {
            return Self::default();
        }
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let (host, label) = match host.windows(2).position(|w| w == LABEL_SEP.as_bytes()) {
            Some(at) => (&host[..at], Some(&host[at + 2..]).filter(|l| !l.is_empty())),
            None => (host, None),
        };
        Self { host: Some(text(host)), pid, since_ms, label: label.map(text) }
    }
}

/// A key as Redis sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// The lock's value (its holder's token), `None` when free.
    pub value: Option<Vec<u8>>,
    /// ms left (-1: no expiry), `None` when free.
    pub ttl_ms: Option<i64>,
    pub fence: Option<i64>,
    pub waiters: i64,
}

impl Seen {
    pub fn parse(reply: &Reply) -> Result<Self, String> {
        let bad = || "unexpected reply to an inspection".to_owned();
        let Reply::Bulk(text) = reply else { return Err(bad()) };
        let nl = text.iter().position(|&b| b == b'\n').ok_or_else(bad)?;
        let mut fields = text[..nl].split(|&b| b == b' ');
        let (Some(pttl), Some(fence), Some(waiters), None) = (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad());
        };
        let pttl = parse_int(pttl).ok_or_else(bad)?;
        let fence = if fence == b"-" { None } else { Some(parse_int(fence).ok_or_else(bad)?) };
        let waiters = parse_int(waiters).ok_or_else(bad)?;
        let free = pttl == -2;
        Ok(Self {
            value: (!free).then(|| text[nl + 1..].to_vec()),
            ttl_ms: (!free).then_some(pttl),
            fence: fence.filter(|_| !free),
            waiters,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holders_are_read_from_our_tokens_only() {
        let ours = Holder::of(b"0123456789abcdef0123456789abcdef:web-1.example:4242:1700000000123");
        assert_eq!(ours, Holder { host: Some("web-1.example".into()), pid: Some(4242), since_ms: Some(1_700_000_000_123), label: None });
        let labelled = Holder::of(b"0123456789abcdef0123456789abcdef:web-1__req_9f.2:4242:1700000000123");
        assert_eq!((labelled.host.as_deref(), labelled.label.as_deref()), (Some("web-1"), Some("req_9f.2")));
        for foreign in [&b"1"[..], b"", b"a:b:c:d", b"0123456789abcdef0123456789abcdef:h:x:1", b"0123456789abcdef0123456789abcdeg:h:1:1", b"0123456789abcdef0123456789abcdef:h:1:1:a"] {
            assert_eq!(Holder::of(foreign), Holder::default(), "{foreign:?}");
        }
    }

    #[test]
    fn inspections_parse_free_held_and_binary_values() {
        let free = Seen::parse(&Reply::Bulk(b"-2 - 0\n".to_vec())).unwrap();
        assert_eq!(free, Seen { value: None, ttl_ms: None, fence: None, waiters: 0 });
        let held = Seen::parse(&Reply::Bulk(b"1500 1700000000000001 3\nv\nw x".to_vec())).unwrap();
        assert_eq!(held, Seen { value: Some(b"v\nw x".to_vec()), ttl_ms: Some(1500), fence: Some(1_700_000_000_000_001), waiters: 3 });
        assert!(Seen::parse(&Reply::Bulk(b"x - 0\n".to_vec())).is_err());
        assert!(Seen::parse(&Reply::Int(1)).is_err());
        assert_eq!(fence_of(&Reply::Int(0)), Ok(None));
        assert_eq!(fence_of(&Reply::Bulk(b"42".to_vec())), Ok(Some(42)));
    }
}
