--TEST--
Reentrancy: lock() on a key this process holds returns true at once (TTL raised, never lowered); N locks need N releases, only the last deletes the key; with redis_lock.reentrant off a second lock() is refused and a waiting one times out
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:nest';
$pttl = fn () => $redis->cmd('PTTL', $K);
echo "reentrant by default: ", var_export((bool) ini_get('redis_lock.reentrant'), true), "\n";

var_dump(RedisMutexLock::lock('nest', 0, 10));
$token = $redis->cmd('GET', $K);
echo "token: ", var_export(rl_is_token($token), true), ", PTTL in (9000, 10000]: ", var_export($pttl() > 9000 && $pttl() <= 10000, true), "\n";

// Nested with a longer lockSecond: the TTL goes up to it.
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('nest', 0, 30));
echo "nested lock(0, 30): ", rl_show($r), ", PTTL in (29000, 30000]: ", var_export($pttl() > 29000 && $pttl() <= 30000, true), "\n";
// Nested with a timeout and a shorter lockSecond: at once, and the TTL is not lowered.
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('nest', 5, 5));
echo "nested lock(5, 5): ", rl_show($r), ", at once (< 0.5 s): ", var_export($secs < 0.5, true),
    ", PTTL not lowered (> 28000): ", var_export($pttl() > 28000, true), "\n";
$i = RedisMutexLock::inspect('nest');
echo "inspect: held ", var_export($i['held'], true), ", count ", $i['count'], "\n";
echo "same token, no queue: ", var_export($redis->cmd('GET', $K) === $token, true), " ", json_encode($redis->keys()), "\n";

// Releases: the first two keep the key (same token), the third deletes it, a fourth has nothing to release.
foreach ([1, 2, 3, 4] as $n) {
    $r = RedisMutexLock::release('nest');
    $i = RedisMutexLock::inspect('nest');
    $v = $redis->cmd('GET', $K);
    printf("release %d: %s, key: %s, count: %d, held: %s\n", $n, rl_show($r),
        $v === $token ? 'ours' : ($v === null ? 'gone' : 'other: ' . $v), $i['count'], var_export($i['held'], true));
}

// Again after the last release: a fresh hold, count 1, a new token.
var_dump(RedisMutexLock::lock('nest', 0, 10));
echo "new token: ", var_export(rl_is_token($redis->cmd('GET', $K)) && $redis->cmd('GET', $K) !== $token, true),
    ", count: ", RedisMutexLock::inspect('nest')['count'], "\n";
var_dump(RedisMutexLock::release('nest'));
echo "keys: ", json_encode($redis->keys()), "\n";

echo "-- redis_lock.reentrant = 0\n";
ini_set('redis_lock.reentrant', '0');
var_dump(RedisMutexLock::lock('flat', 0, 10));
$flat = $redis->cmd('GET', 'lock:flat');
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('flat', 0, 30));
echo "second lock(0): ", rl_show($r), ", TTL untouched (<= 10000): ", var_export($redis->cmd('PTTL', 'lock:flat') <= 10000, true), "\n";
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('flat', 0.6, 10));
echo "second lock(0.6): ", rl_show($r), ", after its timeout (0.55 .. 2 s): ", var_export($secs >= 0.55 && $secs < 2.0, true), "\n";
echo "still our first token: ", var_export(rl_holder($redis->cmd('GET', 'lock:flat')) === $flat, true),
    ", count: ", RedisMutexLock::inspect('flat')['count'], "\n";
var_dump(RedisMutexLock::release('flat'));
var_dump(RedisMutexLock::release('flat'));
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
reentrant by default: true
bool(true)
token: true, PTTL in (9000, 10000]: true
nested lock(0, 30): true, PTTL in (29000, 30000]: true
nested lock(5, 5): true, at once (< 0.5 s): true, PTTL not lowered (> 28000): true
inspect: held true, count 3
same token, no queue: true ["lock:nest"]
release 1: true, key: ours, count: 2, held: true
release 2: true, key: ours, count: 1, held: true
release 3: true, key: gone, count: 0, held: false
release 4: false, key: gone, count: 0, held: false
bool(true)
new token: true, count: 1
bool(true)
keys: []
-- redis_lock.reentrant = 0
bool(true)
second lock(0): false, TTL untouched (<= 10000): true
second lock(0.6): false, after its timeout (0.55 .. 2 s): true
still our first token: true, count: 1
bool(true)
bool(false)
keys: []
