--TEST--
RedisMutexLock: lock, work, release; the key holds a fresh random token and a TTL while held
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

// The seed usage pattern.
$key = 'order:42';
if (RedisMutexLock::lock($key, 0, 10)) {
    $token = $redis->cmd('GET', 'lock:order:42');
    $pttl = $redis->cmd('PTTL', 'lock:order:42');
    echo "held, token ok: ", var_export(rl_is_token($token), true), "\n";
    echo "ttl in (9000, 10000]: ", var_export($pttl > 9000 && $pttl <= 10000, true), "\n";
    echo "keys: ", implode(',', $redis->keys()), "\n";
    // ... work ...
    var_dump(RedisMutexLock::release($key));
}
echo "after release: ", json_encode($redis->keys()), "\n";
var_dump(RedisMutexLock::release($key));

// Default lockSecond is 20 s; every acquisition gets a new token.
var_dump(RedisMutexLock::lock($key));
$t1 = $redis->cmd('GET', 'lock:order:42');
$pttl = $redis->cmd('PTTL', 'lock:order:42');
echo "default ttl in (19000, 20000]: ", var_export($pttl > 19000 && $pttl <= 20000, true), "\n";
var_dump(RedisMutexLock::release($key));
var_dump(RedisMutexLock::lock($key));
$t2 = $redis->cmd('GET', 'lock:order:42');
echo "fresh token: ", var_export(rl_is_token($t1) && rl_is_token($t2) && $t1 !== $t2 && $t2 !== $token, true), "\n";

// With redis_lock.reentrant off, a second lock() of a key this process holds
// is false and changes nothing (on, it is a nested hold: mutex/reentrant_*).
ini_set('redis_lock.reentrant', '0');
$redis->cmd('PEXPIRE', 'lock:order:42', 15000);
var_dump(RedisMutexLock::lock($key, 0, 30));
echo "same token: ", var_export($redis->cmd('GET', 'lock:order:42') === $t2, true), "\n";
$pttl = $redis->cmd('PTTL', 'lock:order:42');
echo "ttl untouched: ", var_export($pttl > 14000 && $pttl <= 15000, true), "\n";
// ... and the first acquisition is still ours to release.
var_dump(RedisMutexLock::release($key));
echo "end: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
held, token ok: true
ttl in (9000, 10000]: true
keys: lock:order:42
bool(true)
after release: []
bool(false)
bool(true)
default ttl in (19000, 20000]: true
bool(true)
bool(true)
fresh token: true
bool(false)
same token: true
ttl untouched: true
bool(true)
end: []
