//! The listing's requests: a page of `SCAN`, the read of one lock key, and
//! the eviction of one waiter.

use crate::engine::protocol::encode::{format_int, itoa_buf, resp};
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::{script_call, Form, Script};
use crate::engine::protocol::slot::Base;
use crate::engine::round::request::{data_if, Request, Verdict};

/// Waiters shown per key, first in line first (the count says how many more).
pub const MAX_WAITERS: usize = 100;

/// One lock key, whatever its kind, in one atomic read: `{'string', now,
/// pttl, fence, value, waiters…}` for a mutex (each waiter: its token and
/// its place deadline, '' if none; RedLock's waiters by ticket when the
/// mutex's queue is empty), `{'zset', now, pttl, {member, deadline, …},
/// waiters…}` for a shared lock (each waiter: its member and deadline),
/// `{type}` for anything else. The waiters' count ends the reply.
/// KEYS: K B:f B:q B:t B:sq B:st B:rq B:rt. ARGV: how many waiters to show.
static DESCRIBE: Script = Script::new(
    "\
local t = redis.call('TIME') \
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) \
local ty = redis.call('TYPE', KEYS[1])['ok'] \
local max = tonumber(ARGV[1]) \
local function line(q, places, out, want) \
  if redis.call('TYPE', q)['ok'] ~= want then out[#out + 1] = 0 return out end \
  local zs = redis.call('TYPE', places)['ok'] == 'zset' \
  local list = want == 'list' \
  for _, w in ipairs(redis.call(list and 'LRANGE' or 'ZRANGE', q, 0, max - 1)) do \
    out[#out + 1] = w \
    out[#out + 1] = zs and redis.call('ZSCORE', places, w) or '' \
  end \
  out[#out + 1] = redis.call(list and 'LLEN' or 'ZCARD', q) \
  return out \
end \
local pttl = string.format('%.0f', redis.call('PTTL', KEYS[1])) \
if ty == 'string' then \
  local v = redis.call('GET', KEYS[1]) \
  local fence = '' \
  local rec = redis.pcall('GET', KEYS[2]) \
  if type(rec) == 'string' then \
    local n, w = string.match(rec, '^(%d+) (.*)$') \
    if w and (w == v or w .. '\\0q' == v) then fence = n end \
  end \
  local head = {'string', tostring(now), pttl, fence, v} \
  if redis.call('TYPE', KEYS[3])['ok'] ~= 'list' and redis.call('TYPE', KEYS[7])['ok'] == 'zset' then return line(KEYS[7], KEYS[8], head, 'zset') end \
  return line(KEYS[3], KEYS[4], head, 'list') \
end \
if ty == 'zset' then \
  local holds = redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1000) \
  return line(KEYS[5], KEYS[6], {'zset', tostring(now), pttl, holds}, 'list') \
end \
return {ty}",
);

/// Drops `token`'s place from the key's queues (the mutex's, the shared
/// locks' and RedLock's): 1 when it was there. A live waiter joins again at
/// its next look: at the back of a mutex's queue, at its ticket in
/// RedLock's. KEYS: B:q B:t B:sq B:st B:rq B:rt. ARGV: token.
static EVICT: Script = Script::new(
    "\
local gone = 0 \
local me = ARGV[1] \
if redis.call('TYPE', KEYS[1])['ok'] == 'list' then gone = gone + redis.call('LREM', KEYS[1], 0, me) end \
if redis.call('TYPE', KEYS[2])['ok'] == 'zset' then gone = gone + redis.call('ZREM', KEYS[2], me) end \
if redis.call('TYPE', KEYS[3])['ok'] == 'list' then \
  for _, m in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do \
    if string.sub(m, -(#me + 1)) == '|' .. me then \
      gone = gone + redis.call('LREM', KEYS[3], 0, m) \
      if redis.call('TYPE', KEYS[4])['ok'] == 'zset' then gone = gone + redis.call('ZREM', KEYS[4], m) end \
    end \
  end \
end \
for i = 5, 6 do \
  if redis.call('TYPE', KEYS[i])['ok'] == 'zset' then gone = gone + redis.call('ZREM', KEYS[i], me) end \
end \
return gone > 0 and 1 or 0",
);

/// One page of `SCAN cursor MATCH pattern TYPE type COUNT 1000`, sent to
/// one master directly.
pub struct Scan<'a> {
    pub cursor: &'a [u8],
    pub pattern: &'a [u8],
    pub kind: &'static [u8],
}

impl Request for Scan<'_> {
    fn key(&self) -> &[u8] {
        b""
    }

    fn first_form(&self) -> Form {
        Form::Plain
    }

    fn encode(&self, _form: Form, out: &mut Vec<u8>) {
        resp(out, &[b"SCAN", self.cursor, b"MATCH", self.pattern, b"TYPE", self.kind, b"COUNT", b"1000"]);
    }

    fn classify(&self, _form: Form, reply: &Reply) -> Verdict {
        data_if(matches!(reply, Reply::Array(a) if a.len() == 2), reply, "a SCAN", "")
    }

    fn accepts_array(&self) -> bool {
        true
    }
}

/// Everything about one lock key.
pub struct Describe<'a> {
    pub key: &'a [u8],
}

impl Request for Describe<'_> {
    fn key(&self) -> &[u8] {
        self.key
    }

    fn encode(&self, form: Form, out: &mut Vec<u8>) {
        let base = Base::of(self.key);
        let mut n = itoa_buf();
        let keys: [&[&[u8]]; 8] = [
            &[self.key],
            &base.aux(b":f", b""),
            &base.aux(b":q", b""),
            &base.aux(b":t", b""),
            &base.aux(b":sq", b""),
            &base.aux(b":st", b""),
            &base.aux(b":rq", b""),
            &base.aux(b":rt", b""),
        ];
        script_call(out, &DESCRIBE, form, &keys, &[format_int(&mut n, MAX_WAITERS as i64)]);
    }

    fn classify(&self, _form: Form, reply: &Reply) -> Verdict {
        data_if(matches!(reply, Reply::Array(a) if !a.is_empty()), reply, "a lock's description", "")
    }

    fn accepts_array(&self) -> bool {
        true
    }
}

/// Drops a waiter's place.
pub struct Evict<'a> {
    pub key: &'a [u8],
    pub token: &'a str,
}

impl Request for Evict<'_> {
    fn key(&self) -> &[u8] {
        self.key
    }

    fn encode(&self, form: Form, out: &mut Vec<u8>) {
        let base = Base::of(self.key);
        let keys: [&[&[u8]]; 6] =
            [&base.aux(b":q", b""), &base.aux(b":t", b""), &base.aux(b":sq", b""), &base.aux(b":st", b""), &base.aux(b":rq", b""), &base.aux(b":rt", b"")];
        script_call(out, &EVICT, form, &keys, &[self.token.as_bytes()]);
    }

    fn classify(&self, _form: Form, reply: &Reply) -> Verdict {
        data_if(matches!(reply, Reply::Int(0 | 1)), reply, "an eviction", self.token)
    }

    fn secret(&self) -> &str {
        self.token
    }
}
