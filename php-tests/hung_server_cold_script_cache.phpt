--TEST--
A hung server whose script cache is empty: a lock attempt that timed out leaves no lock behind; a retried release() succeeds
--FILE--
<?php
require __DIR__ . '/inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.read_timeout', '0.3');

// A fresh server: nothing but plain SETs so far, no script loaded.
var_dump(RedisMutexLock::lock('held', 0, 60));
$redis->pause();
echo rl_show(rl_timed(fn () => RedisMutexLock::lock('during'))[0]) === "RedisLockException: Redis at 127.0.0.1:{$redis->port}: no reply within 0.3 s" ? "lock timed out\n" : "unexpected\n";
echo rl_show(rl_timed(fn () => RedisMutexLock::release('held'))[0]) === "RedisLockException: Redis at 127.0.0.1:{$redis->port}: no reply within 0.3 s" ? "release timed out\n" : "unexpected\n";
$redis->resume();
usleep(100000);

// The attempt that threw must not leave a lock that nobody holds (lock() false would
// then mean "somebody holds it" for 20 s when nobody does).
echo "abandoned attempt left: ", json_encode(array_values(array_diff($redis->keys(), ['lock:held']))), "\n";
var_dump(RedisMutexLock::lock('during'));
var_dump(RedisMutexLock::release('during'));
// The release that threw is still ours to retry.
var_dump(RedisMutexLock::release('held'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
lock timed out
release timed out
abandoned attempt left: []
bool(true)
bool(true)
bool(true)
keys: []
