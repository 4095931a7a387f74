//! RedLock's queue on each master (docs/redlock-queue.md): one sorted set of
//! the waiters by ticket (`B:rq`), one of their places (`B:rt`: alive until
//! then, server ms), one wake-up list per waiter (`B:rw:<token>`). Every
//! master orders the waiters it knows by the same tickets, so that grants on
//! different masters go to the same waiter.
//!
//! A grant (`K` written for the live head, `PX grant`, and an `h` on its
//! wake-up list) is written only by the one whose token `K` holds, or on a
//! free `K` for the head itself: never over a live holder. The head's list
//! is spelled from ours (same base, so same Cluster slot): its token is
//! known only to the script. A value is marked (`\0q`, as the mutex's)
//! while others wait, so that a native compare-and-delete says no and the
//! release goes as the script that hands `K` on.

use crate::engine::features::key_types::{checked, mistyped};
use crate::engine::features::owner::{lock_token, mine, of_another_type, owned, unmarked, value_of};
use crate::engine::protocol::script::Script;

/// KEYS: K RQ RT W(own). Server ms; the live head (the dead dropped on the
/// way); our value with the waiters' mark if anybody waits; the mark taken
/// off another's value once nobody waits (its release is then the native
/// delete again, and its value what it wrote); our place (joined or
/// renewed, or ended with our wake-up list); a grant to `head`; a wake-up pushed to another waiter.
///
/// A key of another type (another client's value, or K one of our shared
/// locks) is a clear error, never a script that failed halfway: each script
/// runs in `checked!()` and reads a key before it first writes one that
/// could fail (RT before RQ is written, a look's own wake-up list first; a
/// grant pushes the wake-up before it writes K). Only K of another type
/// (`\0<type>`, which is never written) checks every type (`wrong_types()`):
/// it may be one of our shared locks. Only the dropping of dead waiters and
/// the emptying of our own wake-up list can come before such an error.
macro_rules! prelude {
    () => {
        concat!(
            mistyped!((2, "zset", "the waiters' queue"), (3, "zset", "the waiters' places"), (4, "list", "a wake-up list")),
            "\
local k, rq, rt, w, me = KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1] \
local function now_ms() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end \
local function live_head(now) \
  while true do \
    local first = redis.call('ZRANGE', rq, 0, 0)[1] \
    if not first then return false end \
    local place = redis.call('ZSCORE', rt, first) \
    if place and tonumber(place) >= now then return first end \
    redis.call('ZREM', rq, first) redis.call('ZREM', rt, first) \
  end \
end \
local function join(ticket, place, now) \
  redis.call('ZCARD', rt) \
  local new = redis.call('ZADD', rq, ticket, me) == 1 \
  redis.call('ZADD', rt, now + place, me) \
  return new \
end \
local function quit() \
  redis.call('ZCARD', rt) \
  redis.call('ZREM', rq, me) redis.call('ZREM', rt, me) redis.call('DEL', w) \
end \
local function marked(v) \
  if string.find(v, ",
            lock_token!(),
            ") and redis.call('ZCARD', rq) > 0 then return v .. '\\0q' end \
  return v \
end \
local function settle() \
  if redis.call('ZCARD', rq) > 0 then return end \
  local v = ",
            value_of!("k"),
            " \
  if v and string.sub(v, -2) == '\\0q' then redis.call('SET', k, ",
            unmarked!("v"),
            ", 'KEEPTTL') end \
end \
local function wake(who, what, ms) \
  local hw = string.sub(w, 1, #w - #me) .. who \
  if type(redis.pcall('RPUSH', hw, what)) == 'table' then return \"the next waiter's wake-up list is a \" .. redis.call('TYPE', hw)['ok'] end \
  redis.call('PEXPIRE', hw, ms) \
end \
local function grant(head, ms) \
  local m = wake(head, 'h', 4 * ms) \
  if m then error(wrong(m)) end \
  redis.call('ZREM', rq, head) redis.call('ZREM', rt, head) \
  redis.call('SET', k, marked(head), 'PX', ms) \
end "
        )
    };
}

/// A look, on every master in one round. ARGV: token ticket ttl place grant.
/// Renews our place; where we just came ahead of the head (our look arrived
/// here after a later ticket's), that waiter is woken (`l`): it may be
/// blocked here for a grant that is now ours, while holding, unknown to it,
/// grants elsewhere that a look of its would hand on to us. Not where `K`
/// is already ours: a grant took us out of the queue, so our place is new
/// after every hand-off, and the one behind us would wake for nothing (it
/// is granted `K` here when we let go). Then `K` free
/// with us as the live head, or `K` ours (a grant or our part of a round
/// that failed) with nobody live ahead: ours for `ttl`, out of the queue, 1.
/// `K` ours with a lower ticket live: handed to it, 0. Held by another: marked (its release hands on), and 2 when we
/// are the live head (that release grants it to us: a waiter blocks where it
/// will be woken), else 0. Our wake-up list, where a pop follows most
/// looks, is read before anything is written: one of another type is this
/// script's clear error, not a failed pop.
pub static TAKE: Script = Script::new(checked!(prelude!();
    "\
local ticket, ttl, place, gms = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]) \
local holder = ",
    value_of!("k"),
    " \
if ",
    of_another_type!("holder"),
    " then wrong_types() end \
redis.call('LLEN', w) \
local now = now_ms() \
local new = join(ticket, place, now) \
if redis.call('PTTL', rq) < 2 * place then redis.call('PEXPIRE', rq, 4 * place) redis.call('PEXPIRE', rt, 4 * place) end \
local head = live_head(now) \
local ours = holder and ",
    mine!("holder", "me"),
    " \
if new and head == me and not ours then \
  local passed = redis.call('ZRANGE', rq, 1, 1)[1] \
  if passed then wake(passed, 'l', 4 * gms) end \
end \
if ours then \
  redis.call('DEL', w) \
  if head ~= me then grant(head, gms) return 0 end \
elseif holder then \
  if string.find(holder, ",
    lock_token!(),
    ") then redis.call('SET', k, holder .. '\\0q', 'KEEPTTL') end \
  if head == me then return 2 end \
  return 0 \
elseif head ~= me then \
  return 0 \
end \
redis.call('ZREM', rq, me) redis.call('ZREM', rt, me) redis.call('DEL', w) \
redis.call('SET', k, marked(me), 'PX', ttl) \
return 1"
));

/// Behind a round that did not reach a majority, where `K` became ours:
/// handed to a lower live ticket, else kept for us only for our place (gone
/// soon if we die). ARGV: token ticket place grant. 1 when it was ours.
pub static YIELD: Script = Script::new(checked!(prelude!();
    "\
if not ",
    owned!("k", "me"),
    " then return 0 end \
local ticket, place, gms = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]) \
local now = now_ms() \
join(ticket, place, now) \
local head = live_head(now) \
if head ~= me then grant(head, gms) else redis.call('PEXPIRE', k, place) end \
return 1"
));

/// Gives up waiting (patience over, PHP's time limit, a late reply): our
/// place ends, and a `K` that is ours goes to the live head or is deleted.
/// ARGV: token grant. 1 when `K` was ours.
pub static LEAVE: Script = Script::new(checked!(prelude!();
    "\
quit() \
if not ",
    owned!("k", "me"),
    " then settle() return 0 end \
local head = live_head(now_ms()) \
if head then grant(head, tonumber(ARGV[2])) else redis.call('DEL', k) end \
return 1"
));

/// The unlock: `K` ours and unmarked (nobody waits) is deleted; marked, it
/// goes to the live head (a grant), or is deleted when nobody lives. Our
/// wake-up list goes too (a grant by a release that ran late, after our
/// round had won elsewhere, left an `h` there). Where
/// `K` is not ours, our place ends (left by a look that said no while the
/// round won elsewhere): else that master would grant `K` to a call that is
/// over. ARGV: token grant. 1 when it was ours.
pub static RELEASE: Script = Script::new(concat!(
    "\
local v = ",
    value_of!("KEYS[1]"),
    " \
if v and v == ARGV[1] then redis.call('DEL', KEYS[1], KEYS[4]) return 1 end \
local ours = v and ",
    mine!("v", "ARGV[1]"),
    " ",
    checked!(prelude!();
        "\
if not ours then \
  if ",
            of_another_type!("v"),
            " then wrong_types() end \
  quit() settle() \
  return 0 \
end \
redis.call('DEL', w) \
local head = live_head(now_ms()) \
if head then grant(head, tonumber(ARGV[2])) else redis.call('DEL', k) end \
return 1"
    )
));
