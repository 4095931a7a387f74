//! The queue's scripts. Each declares every key it touches (all in the lock
//! key's slot) and checks ownership with `mine!()`/`owned!()`.
//!
//! While anybody waits, the lock's value carries a mark after its holder's
//! token (`\0q`): set by a waiter that joins behind a holder, and by a take
//! or hand-off that leaves others in line. Only the tokens of `lock()`
//! (`<32 lower-case hex>:<host>:<pid>:<ms>`) are marked: a caller's owner
//! token (`newOwner()` writes its hex in upper case) or another client's
//! value is never changed, and its release always goes as `HANDOFF`. A native owner-checked delete
//! (DELIFEQ, DELEX IFEQ) then finds no exact match and the release goes as
//! `HANDOFF`, which wakes the next waiter; an unmarked lock is released by
//! the native delete alone. (A mark left after the last waiter left costs
//! one extra round trip at the release; a lock taken by `SET NX` while a
//! waiter was between two looks is marked at that waiter's next look.)

use crate::engine::protocol::script::Script;
use crate::engine::features::key_types::{checked, mistyped};
use crate::engine::features::owner::{lock_token, mine, of_another_type, owned, value_of};

/// Server time in ms; the first live waiter (dropping dead ones on the way,
/// and the places' key once nobody waits); waiting (again), at the back or
/// the front, with a renewed place; the lock, if it is `me`'s (then for
/// its whole TTL, returning the waiter behind, '' if none).
macro_rules! prelude {
    () => {
        concat!(
            "\
local function now_ms() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end \
local function live_head(q, t, head) \
  local now \
  while true do \
    head = head or redis.call('LINDEX', q, 0) \
    if not head then redis.call('DEL', t) return false end \
    local place = redis.call('ZSCORE', t, head) \
    if place then \
      now = now or now_ms() \
      if tonumber(place) >= now then return head end \
      redis.call('ZREM', t, head) \
    end \
    redis.call('LPOP', q) \
    head = nil \
  end \
end \
local function ours(v) return string.find(v, ",
            lock_token!(),
            ") ~= nil end \
local function native(v) return string.find(v, '^%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x:[%w._-]+:%d+:%d+') ~= nil end \
local function with_mark(v, q) if ours(v) and redis.call('LINDEX', q, 0) then return v .. '\\0q' end return v end \
local function marked(k, v) \
  if ours(v) then redis.call('SET', k, v .. '\\0q', 'KEEPTTL') end \
end \
local function wait_again(q, t, me, place, front) \
  if redis.call('ZADD', t, now_ms() + place, me) == 1 then \
    if front then redis.call('LPUSH', q, me) else redis.call('RPUSH', q, me) end \
  end \
  if redis.call('PTTL', q) < place then redis.call('PEXPIRE', q, 2 * place) redis.call('PEXPIRE', t, 2 * place) end \
end \
local function mine(k, q, me, ttl) \
  if not ",
            owned!("k", "me"),
            " then return nil end \
  local next = redis.call('LINDEX', q, 0) \
  redis.call('PEXPIRE', k, ttl) \
  return next or '' \
end "
        )
    };
}

/// Lua: `mistyped()` for the queue's keys (Q T N W). A lock key of any
/// other type is another library's lock (`value_of!`): held, waited for,
/// never written. The scripts run `wrong_types()` only where a write could
/// come before the first command that fails on a key of another type;
/// elsewhere a read fails first, before anything is written but the
/// dropping of waiters whose places ran out, and `checked!` turns that
/// failure into the same error. Every queue script runs these helpers and
/// `prelude!()` before its body (`checked!()`).
macro_rules! helpers {
    () => {
        concat!(
            mistyped!((2, "list", "its queue"), (3, "zset", "its waiters' places"), (4, "list", "its shared wake-up list"), (5, "list", "a wake-up list")),
            prelude!()
        )
    };
}

/// Joins the queue, or renews the place of a waiter already in it; takes the
/// lock when it is free and nobody lives ahead, or when it was handed to
/// us. Taking it leaves `a` alone on our wake-up list, so that the blocking
/// pop sent behind this script returns at once (and so removes the list),
/// and removes our token from `N` (a hand-off found by looking, not by a
/// wake-up). KEYS: K Q T N W(own). ARGV: token ttl place, and `pop` when a
/// blocking pop follows (else nothing is left on our list). Returns the first
/// waiter behind us ('' if none) when we hold the lock, else 0; or, when we
/// are first in line behind a holder whose release will not wake us (a
/// value that is not a token of ours: another client's or library's lock),
/// -2 - its PTTL (-1 without one), and an `f` on our wake-up list ends the
/// blocking pop sent behind this script at once: the caller looks again
/// soon instead (`Foreign`). A path that writes `Q` or `N` before reading
/// them reads their length first (`LLEN`): a key of another type fails
/// there, before anything is written; our wake-up list is emptied before
/// it is written, whatever it held.
pub static ENQUEUE: Script = Script::new(checked!(helpers!();
    "\
local k, q, t, n, w, me, ttl, place, pops = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] == 'pop' \
local holder = ",
    value_of!("k"),
    " \
if not holder then \
  local head = live_head(q, t) \
  if head and head ~= me then wait_again(q, t, me, place, false) return 0 end \
  redis.call('LLEN', n) \
  if head then redis.call('LPOP', q) redis.call('ZREM', t, me) end \
  redis.call('SET', k, with_mark(me, q), 'PX', ttl) \
elseif ",
    mine!("holder", "me"),
    " then \
  redis.call('LLEN', q) redis.call('LLEN', n) \
  redis.call('PEXPIRE', k, ttl) \
else \
  if not native(holder) then wrong_types() end \
  redis.call('LLEN', q) redis.call('LLEN', n) \
  wait_again(q, t, me, place, false) \
  marked(k, holder) \
  if not native(holder) and live_head(q, t) == me then \
    if pops and redis.call('LLEN', w) == 0 then redis.call('RPUSH', w, 'f') redis.call('PEXPIRE', w, place) end \
    return -2 - math.max(redis.call('PTTL', k), -1) \
  end \
  return 0 \
end \
redis.call('LREM', n, 0, me) \
redis.call('DEL', w) if pops then redis.call('RPUSH', w, 'a') redis.call('PEXPIRE', w, place) end \
return redis.call('LINDEX', q, 0) or ''"
));

/// After a wake-up (a late second one for the same hand-off is dropped with
/// our list): the hand-off becomes ours for the whole TTL, or, when its
/// grant ran out first, we wait again at the front. KEYS: K Q T N W(own).
/// ARGV: token ttl place. Returns the next waiter ('' if none) or 0.
pub static CONFIRM: Script = Script::new(checked!(helpers!();
    "\
redis.call('DEL', KEYS[5]) \
local next = mine(KEYS[1], KEYS[2], ARGV[1], ARGV[2]) \
if next then return next end \
wrong_types() \
wait_again(KEYS[2], KEYS[3], ARGV[1], tonumber(ARGV[3]), true) \
return 0"
));

/// Gives up waiting: unless the lock was handed to us meanwhile (then it is
/// ours: returns the next waiter or ''), our place ends and we are passed
/// over. KEYS: K Q T N W(own). ARGV: token ttl.
pub static LEAVE: Script = Script::new(checked!(helpers!();
    "\
wrong_types() \
redis.call('DEL', KEYS[5]) \
local next = mine(KEYS[1], KEYS[2], ARGV[1], ARGV[2]) \
if next then redis.call('LREM', KEYS[4], 0, ARGV[1]) return next end \
redis.call('ZREM', KEYS[3], ARGV[1]) \
live_head(KEYS[2], KEYS[3]) \
return 0"
));

/// Releases our lock: an unmarked one (nobody waits) by deleting it, else to
/// the first live waiter if there is one (for the grant, waking it by its
/// own list when it is the one we expected, else through `N`), else by
/// deleting it. An empty token releases the lock
/// whoever holds it (a forced release). KEYS: K Q T N [W(expected)].
/// ARGV: token expected grant. Returns 0 (not ours) or 1 (released, or
/// handed and woken). The wake-up is pushed before the hand-off is written:
/// a wake-up list of another type fails the script first.
pub static HANDOFF: Script = Script::new(concat!(
    // Nobody waits (the usual case: a lock token without a waiter's mark):
    // done before the helpers are defined, as DELIFEQ would do it. Any
    // other owner (an owner token, never marked) looks at the queue.
    "\
local holder = ",
    value_of!("KEYS[1]"),
    " \
if holder and holder == ARGV[1] and string.find(ARGV[1], ",
    lock_token!(),
    ") then redis.call('DEL', KEYS[1]) return 1 end \
if not holder or (not ",
    mine!("holder", "ARGV[1]"),
    " and ARGV[1] ~= '') then return 0 end ",
    checked!(helpers!();
        "\
if ",
        of_another_type!("holder"),
        " then wrong_types() end \
local head = redis.call('LINDEX', KEYS[2], 0) \
if not head then redis.call('DEL', KEYS[1]) return 1 end \
head = live_head(KEYS[2], KEYS[3], head) \
if not head then redis.call('DEL', KEYS[1]) return 1 end \
local w, wake = KEYS[4], head \
if KEYS[5] and head == ARGV[2] then w, wake = KEYS[5], 'h' end \
redis.call('RPUSH', w, wake) \
redis.call('LPOP', KEYS[2]) redis.call('ZREM', KEYS[3], head) \
redis.call('SET', KEYS[1], with_mark(head, KEYS[2]), 'PX', ARGV[3]) \
redis.call('PEXPIRE', w, 4 * tonumber(ARGV[3])) \
return 1"
    )
));

/// Wakes, by its own list, the waiter the lock was handed to, whose token
/// another waiter popped from `N`; unless it took the lock meanwhile (then
/// the key's TTL is no longer the grant's, and a wake-up would be left
/// over). KEYS: K W(its). ARGV: its token, grant.
pub static WAKE: Script = Script::new(concat!(
    "if not ",
    owned!("KEYS[1]", "ARGV[1]"),
    " or redis.call('PTTL', KEYS[1]) > tonumber(ARGV[2]) then return 0 end \
redis.call('RPUSH', KEYS[2], 'h') redis.call('PEXPIRE', KEYS[2], 4 * tonumber(ARGV[2])) \
return 1"
));

