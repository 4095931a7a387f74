//! Lua for keys of another type than a lock keeps there: another client's
//! value in one of a queue's keys, or one of our shared locks where a mutex
//! was asked for. A script that failed halfway on such a key would keep its
//! first writes (a lock handed to a waiter whose caller was told the call
//! failed), so a script either checks the types before it writes, or runs
//! in `checked!()` with its reads ordered before its writes, and says which
//! key it was either way.

/// Lua: whether the key `$k` is one of our own shared locks (a sorted set
/// of `r`/`w`/`s` holds): a mutex call there is a mix-up of classes, said
/// so, unlike another library's lock of another type.
macro_rules! held_as_shared {
    ($k:literal) => {
        concat!("(redis.call('TYPE', ", $k, ")['ok'] == 'zset' and string.find(redis.call('ZRANGE', ", $k, ", 0, 0)[1] or '', '^[rws]%d+:%d+|') ~= nil)")
    };
}
pub(crate) use held_as_shared;

/// Lua: `typed(i, want, role)`, what is wrong with `KEYS[i]` when it holds
/// a value of another type than `want` (nil when it is of that type, or
/// missing, or not given).
macro_rules! typed {
    () => {
        "\
local function typed(i, want, role) \
  if not KEYS[i] then return nil end \
  local ty = redis.call('TYPE', KEYS[i])['ok'] \
  if ty ~= 'none' and ty ~= want then return role .. ' is a ' .. ty end \
  return nil \
end "
    };
}
pub(crate) use typed;

/// Lua, for a lock key `KEYS[1]` with a queue in the keys `(i, type,
/// role)`: `mistyped()`, what is wrong with them (nil when nothing is);
/// `wrong(m)`, its error reply; `wrong_types()`, that error raised where a
/// script checks before it writes.
macro_rules! mistyped {
    ($(($i:literal, $want:literal, $role:literal)),+ $(,)?) => {
        concat!(
            $crate::engine::features::key_types::typed!(),
            "local function mistyped() return (",
            $crate::engine::features::key_types::held_as_shared!("KEYS[1]"),
            " and 'the lock key is held as a shared lock')",
            $(" or typed(", $i, ", '", $want, "', \"", $role, "\")",)+
            " end \
local function wrong(m) return redis.error_reply('WRONGTYPE ' .. m .. ', not what the lock keeps there') end \
local function wrong_types() local m = mistyped() if m then error(wrong(m)) end end "
        )
    };
}
pub(crate) use mistyped;

/// Lua: `$helpers` (which define `mistyped!()`'s functions), then `$body`,
/// which returns the script's reply, in a `pcall`. When it fails, the error
/// names the key of another type if there is one, else it is the failed
/// command's own (`READONLY …`, `OOM …`: the server's, as the caller reads
/// it; on Redis 7.0 a caught error is a string, which `error()` would wrap).
macro_rules! checked {
    ($helpers:expr; $($body:expr),+ $(,)?) => {
        concat!(
            $helpers,
            "local ok, reply = pcall(function() ",
            $($body,)+
            " end) \
if ok then return reply end \
local m = mistyped() \
if m then return wrong(m) end \
if type(reply) == 'table' then return reply end \
return redis.error_reply(tostring(reply))"
        )
    };
}
pub(crate) use checked;
