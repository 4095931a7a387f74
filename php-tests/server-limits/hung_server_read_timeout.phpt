--TEST--
A hung server (SIGSTOP): RedisLockException "no reply within 0.3 s" in bounded time; after SIGCONT no late reply is taken as an answer
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.read_timeout', '0.3');
// A key we hold answers false to lock() (not re-entered): a stale "OK" would show.
ini_set('redis_lock.reentrant', '0');
$port = $redis->port;
$show = fn ($r) => str_replace((string) $port, 'PORT', rl_show($r));

// A long-lived worker: a pooled connection, the scripts known to the server.
var_dump(RedisMutexLock::lock('warm-up') && RedisMutexLock::release('warm-up'));
var_dump(RedisMutexLock::lock('held', 0, 60));

$redis->pause();
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('during', 5));
printf("lock while hung: %s, 0.3..1.5 s: %s\n", $show($r), var_export($secs >= 0.3 && $secs < 1.5, true));
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('during2'));
printf("again: %s, 0.3..1.5 s: %s\n", $show($r), var_export($secs >= 0.3 && $secs < 1.5, true));
[$r, $secs] = rl_timed(fn () => RedisMutexLock::release('held'));
printf("release while hung: %s, 0.3..1.5 s: %s\n", $show($r), var_export($secs >= 0.3 && $secs < 1.5, true));
$redis->resume();
// The server works through what it had received: the abandoned lock attempts
// are cleaned up, the abandoned release runs ("lock:held" goes).
echo "keys after resume: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 3.0)), "\n";
// Our next answers are our own, not late replies to the abandoned commands.
var_dump(RedisMutexLock::lock('after', 0, 30));
echo "after: token ", var_export(rl_is_token($redis->cmd('GET', 'lock:after')), true), "\n";
var_dump(RedisMutexLock::lock('after'));        // held by us: false, not a stale "OK"
$redis->cmd('SET', 'lock:foreign', 'x');
var_dump(RedisMutexLock::lock('foreign'));      // held by someone else: false
var_dump(RedisMutexLock::release('after'));
var_dump(RedisMutexLock::release('after'));
var_dump(RedisMutexLock::lock('during'));
var_dump(RedisMutexLock::release('during'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
bool(true)
lock while hung: RedisLockException: Redis at 127.0.0.1:PORT: no reply within 0.3 s, 0.3..1.5 s: true
again: RedisLockException: Redis at 127.0.0.1:PORT: no reply within 0.3 s, 0.3..1.5 s: true
release while hung: RedisLockException: Redis at 127.0.0.1:PORT: no reply within 0.3 s, 0.3..1.5 s: true
keys after resume: []
bool(true)
after: token true
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
keys: ["lock:foreign"]
