//! The shared lock's scripts. `H` (the lock key itself) is a sorted set of
//! holds: member `<mode><limit>:<weight>|<token>` (mode `r` read, `w` write,
//! `s` semaphore permit), score the hold's deadline in server ms. Next to it,
//! under its hash tag: `Q` (the waiters' members, in order), `T` (each
//! waiter's place), and one wake-up list per waiter. A hold past its deadline
//! counts for nothing and is dropped by the next script that looks.
//!
//! Every script that names the queue's keys also names `G`, a key that
//! never exists, second in KEYS: while the slot is being migrated, Redis
//! then answers such a call `TRYAGAIN` before it runs (a call whose keys all
//! exist would run, and fail halfway at the first key it emptied and then
//! touched again: "Script attempted to access a non local key"). With only
//! `H` in KEYS, the scripts work without the queue: the single-key way
//! during a migration (FIFO suspended, nobody handed anything).

use crate::engine::features::key_types::typed;
use crate::engine::protocol::script::Script;

/// Helpers every script starts with: the clock, parsing a member, dropping
/// expired holds, whether a member may join the holds, finding a token's
/// hold, keeping `H`'s TTL at least `ttl`, the first live waiter, and
/// letting in the waiters at the head of the queue that fit (each granted
/// `grant` ms to confirm; their members are returned in `out`).
macro_rules! prelude {
    () => {
        "\
local function now_ms() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end \
local function parts(m) local mode, limit, weight, tok = string.match(m, '^(%a)(%d+):(%d+)|(.*)$') return mode, tonumber(limit), tonumber(weight), tok end \
local function expire(h, now) redis.call('ZREMRANGEBYSCORE', h, '-inf', '(' .. now) end \
local function kind(mode) if mode == 's' then return 'a semaphore' end return 'a read/write lock' end \
local function other_kind(h, mode) \
  local first = redis.call('ZRANGE', h, 0, 0)[1] \
  if first and (string.sub(first, 1, 1) == 's') ~= (mode == 's') then return kind(string.sub(first, 1, 1)) end \
  return nil \
end \
local function fits(h, m) \
  local mode, limit, weight = parts(m) \
  if mode == 's' then \
    local used = 0 \
    for _, other in ipairs(redis.call('ZRANGE', h, 0, -1)) do \
      local omode, _, oweight = parts(other) \
      if omode ~= 's' then return false end \
      used = used + oweight \
    end \
    return used + weight <= limit \
  end \
  local first = redis.call('ZRANGE', h, 0, 0)[1] \
  if not first then return true end \
  local omode = string.sub(first, 1, 1) \
  return mode == 'r' and omode == 'r' \
end \
local function hold_of(h, me, tok) \
  if redis.call('ZSCORE', h, me) then return me end \
  if tok == '' then return nil end \
  for _, m in ipairs(redis.call('ZRANGE', h, 0, -1)) do \
    local _, _, _, t = parts(m) \
    if t == tok then return m end \
  end \
  return nil \
end \
local function keep(h, ttl) if redis.call('PTTL', h) < ttl then redis.call('PEXPIRE', h, ttl) end end \
local function live_head(q, t, now) \
  for _ = 1, 1000 do \
    local head = redis.call('LINDEX', q, 0) \
    if not head then redis.call('DEL', t) return nil end \
    local place = redis.call('ZSCORE', t, head) \
    if place and tonumber(place) >= now then return head end \
    redis.call('LPOP', q) redis.call('ZREM', t, head) \
  end \
  return redis.call('LINDEX', q, 0) \
end \
local function admit(h, q, t, now, grant, out) \
  for _ = 1, 100 do \
    local head = live_head(q, t, now) \
    if not head or not fits(h, head) then return end \
    redis.call('LPOP', q) redis.call('ZREM', t, head) \
    redis.call('ZADD', h, now + grant, head) keep(h, grant) \
    out[#out + 1] = head \
  end \
end \
local function wait_again(q, t, me, place, now, front) \
  if redis.call('ZADD', t, now + place, me) == 1 then \
    if front then redis.call('LPUSH', q, me) else redis.call('RPUSH', q, me) end \
  end \
  if redis.call('PTTL', q) < place then redis.call('PEXPIRE', q, 2 * place) redis.call('PEXPIRE', t, 2 * place) end \
end \
"
    };
}

/// Lua: the call fails with a clear error when the lock key holds another
/// kind of value (a mutex's string), or another client left a value of
/// another type in one of its queue's keys, before anything is written (a
/// script that failed halfway would keep its first writes).
macro_rules! a_shared_lock {
    () => {
        concat!(
            "\
local held_as = redis.call('TYPE', KEYS[1])['ok'] \
if held_as ~= 'zset' and held_as ~= 'none' then \
  return redis.error_reply('WRONGTYPE the key is held as ' .. (held_as == 'string' and 'a mutex' or 'a ' .. held_as) .. ', not as a shared lock') \
end ",
            typed!(),
            "\
local mistyped = typed(3, 'list', 'its queue') or typed(4, 'zset', \"its waiters' places\") or typed(5, 'list', 'its wake-up list') \
if mistyped then return redis.error_reply('WRONGTYPE ' .. mistyped .. ', not what the lock keeps there') end \
"
        )
    };
}

macro_rules! shared_script {
    ($body:literal) => {
        Script::new(concat!(prelude!(), a_shared_lock!(), $body))
    };
}

/// Takes a hold, or waits for one. KEYS: H [G Q T [W(own): when a blocking
/// pop follows, which the take then ends at once]]. ARGV: member, ttl,
/// waiter's place, grant, flags (`j` join the queue when busy, `f` at its
/// front: a waiter whose grant ran out; `o` the token may already hold in
/// another mode: an owner token). A hold of the same token in another mode
/// (or weight) is changed when the new one fits beside the others, never
/// waiting: to write only as the only hold; to read at once, letting in the
/// waiters that now fit. Returns
/// `{held, members let in to wake...}` (held: 1 taken, 0 busy).
pub static TAKE: Script = shared_script!(
    "\
local h, q, t, w = KEYS[1], KEYS[3], KEYS[4], KEYS[5] \
local me, ttl, place, grant, flags = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5] \
local now = now_ms() \
local out = {0} \
local function held() \
  redis.call('ZADD', h, now + ttl, me) keep(h, ttl) \
  if q and redis.call('ZREM', t, me) == 1 then redis.call('LREM', q, 1, me) end \
  if w then redis.call('DEL', w) redis.call('RPUSH', w, 'a') redis.call('PEXPIRE', w, place) end \
  out[1] = 1 \
  return out \
end \
if q and string.find(flags, 'f', 1, true) then \
  local granted = redis.call('ZSCORE', h, me) \
  if granted and tonumber(granted) >= now then return held() end \
end \
expire(h, now) \
local mode, _, _, tok = parts(me) \
if not mode then return redis.error_reply('ERR malformed hold') end \
local held_as = other_kind(h, mode) \
if held_as then return redis.error_reply('WRONGKIND the key is held as ' .. held_as .. ', not as ' .. kind(mode)) end \
local had = hold_of(h, me, string.find(flags, 'o', 1, true) and tok or '') \
if had == me then return held() end \
if had then \
  local until_ms = redis.call('ZSCORE', h, had) \
  redis.call('ZREM', h, had) \
  if not fits(h, me) then redis.call('ZADD', h, until_ms, had) out[1] = 2 return out end \
  held() \
  if q then admit(h, q, t, now, grant, out) end \
  return out \
end \
if not q then \
  if fits(h, me) then return held() end \
  return out \
end \
local head = live_head(q, t, now) \
if (not head or head == me) and fits(h, me) then \
  held() \
  admit(h, q, t, now, grant, out) \
  return out \
end \
if string.find(flags, 'j', 1, true) then wait_again(q, t, me, place, now, string.find(flags, 'f', 1, true) ~= nil) end \
return out"
);

/// Gives a hold up and lets in the waiters that now fit. KEYS: H [G Q T].
/// ARGV: member, token (to find a hold in another mode; '' for none),
/// grant. Returns `{released, members let in to wake...}`.
pub static RELEASE: Script = shared_script!(
    "\
local h, q, t = KEYS[1], KEYS[3], KEYS[4] \
local now = now_ms() \
expire(h, now) \
local out = {0} \
local had = hold_of(h, ARGV[1], ARGV[2]) \
if had then redis.call('ZREM', h, had) out[1] = 1 end \
if q then admit(h, q, t, now, tonumber(ARGV[3]), out) end \
return out"
);

/// Gives up waiting: unless a hold was handed to us meanwhile (then it is
/// ours for `ttl`; given back instead with `back`: nobody will read this
/// reply), our place in the queue ends, and whoever now fits is let in.
/// KEYS: H G Q T W(own). ARGV: member, ttl, grant, back (1/0). Returns
/// `{held, members let in to wake...}`.
pub static LEAVE: Script = shared_script!(
    "\
local h, q, t, w, me, ttl = KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[1], tonumber(ARGV[2]) \
local now = now_ms() \
expire(h, now) \
redis.call('DEL', w) \
if redis.call('ZSCORE', h, me) and ARGV[4] ~= '1' then redis.call('ZADD', h, now + ttl, me) keep(h, ttl) return {1} end \
redis.call('ZREM', h, me) \
if redis.call('ZREM', t, me) == 1 then redis.call('LREM', q, 1, me) end \
local out = {0} \
admit(h, q, t, now, tonumber(ARGV[3]), out) \
return out"
);

/// Sets a hold's lease to `ttl` (with `raise`: only longer; `ttl` 0 only
/// asks whether it is still held). KEYS: H. ARGV: member, token ('' when
/// the member is exact), ttl, raise (1/0). Returns 1 (held) or 0.
pub static EXTEND: Script = shared_script!(
    "\
local h, ttl = KEYS[1], tonumber(ARGV[3]) \
local now = now_ms() \
expire(h, now) \
local had = hold_of(h, ARGV[1], ARGV[2]) \
if not had then return 0 end \
if ttl <= 0 or (ARGV[4] == '1' and tonumber(redis.call('ZSCORE', h, had)) >= now + ttl) then return 1 end \
redis.call('ZADD', h, now + ttl, had) keep(h, ttl) \
return 1"
);

/// The holds and the queue, read only. KEYS: H Q. Returns `{now, waiters,
/// member, deadline, ...}` (expired holds included: the caller drops them).
pub static INSPECT: Script = Script::new(concat!(
    a_shared_lock!(),
    "\
local t = redis.call('TIME') \
local out = {tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), redis.call('LLEN', KEYS[2])} \
for _, v in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')) do out[#out + 1] = v end \
return out"
));

/// Wakes the waiters let in, each by its own list, unless it confirmed its
/// grant meanwhile (its hold then runs past the grant, and a wake-up would
/// be left over). KEYS: H G, their wake-up lists. ARGV: grant, their members.
pub static WAKE: Script = Script::new(
    "\
local t = redis.call('TIME') \
local now, grant, n = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), tonumber(ARGV[1]), 0 \
for i = 3, #KEYS do \
  local until_ms = redis.call('ZSCORE', KEYS[1], ARGV[i - 1]) \
  if until_ms and tonumber(until_ms) <= now + grant then \
    redis.call('RPUSH', KEYS[i], 'h') redis.call('PEXPIRE', KEYS[i], 4 * grant) n = n + 1 \
  end \
end \
return n",
);
