--TEST--
redis_lock.max_hold: renewals stop so that the lock expires at most max_hold seconds after it was taken (2.5 s, lease 1 s: still ours at 1.5 s, gone by 4 s); then it is lost and release() throws RedisLockLostException naming redis_lock.max_hold
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
echo "max_hold default: ", var_export((float) ini_get('redis_lock.max_hold') === 0.0, true), "\n";
ini_set('redis_lock.auto_renew', '1');
ini_set('redis_lock.max_hold', '2.5');

$t0 = rl_now();
var_dump(RedisMutexLock::lock('m', 0, 1));
$token = $redis->cmd('GET', 'lock:m');
rl_sleep(1.5 - (rl_now() - $t0));
$pttl = $redis->cmd('PTTL', 'lock:m');
echo "at 1.5 s (renewed past its 1 s lease): ", var_export($redis->cmd('GET', 'lock:m') === $token, true),
    ", PTTL <= 1000: ", var_export($pttl > 0 && $pttl <= 1000, true), "\n";
$left = rl_eventually(fn () => $redis->cmd('EXISTS', 'lock:m'), 0, 6.0);
$gone = rl_now() - $t0;
echo "gone: ", var_export($left === 0, true), ", by 4 s: ", $gone < 4.0 ? 'true' : sprintf('false (%.2f s)', $gone), "\n";
echo "lost: ", var_export(rl_eventually(fn () => RedisMutexLock::inspect('m')['lost'], true, 1.0), true), "\n";
echo "release: ", rl_lost(rl_timed(fn () => RedisMutexLock::release('m'))[0], 'RedisMutexLock::release()', 'm', 'redis_lock.max_hold'), "\n";
echo "again: ", rl_show(RedisMutexLock::release('m')), "\n";

// With the cap off (0), the same lease is renewed for as long as it is held.
ini_set('redis_lock.max_hold', '0');
var_dump(RedisMutexLock::lock('m', 0, 1));
rl_sleep(3.0);
echo "without a cap, renewed for 3 s: ", var_export(rl_is_token($redis->cmd('GET', 'lock:m')), true), "\n";
var_dump(RedisMutexLock::release('m'));
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
max_hold default: true
bool(true)
at 1.5 s (renewed past its 1 s lease): true, PTTL <= 1000: true
gone: true, by 4 s: true
lost: true
release: RedisLockLostException: RedisMutexLock::release(): the lock on "m" was lost: …redis_lock.max_hold…
again: false
bool(true)
without a cap, renewed for 3 s: true
bool(true)
keys: []
