--TEST--
redis_lock.auto_renew applies to the locks taken while it is on: turning it on later does not renew an older lock, turning it off does not stop a renewed one; extend() on a renewed lock (RedisMutexLock and RedLock) makes the renewals go on with the new TTL
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

ini_set('redis_lock.auto_renew', '0');
var_dump(RedisMutexLock::lock('plain', 0, 1));
ini_set('redis_lock.auto_renew', '1');
var_dump(RedisMutexLock::lock('renewed', 0, 1));
var_dump(RedisMutexLock::lock('longer', 0, 1));
echo "extend to 3 s: ", rl_show(RedisMutexLock::extend('longer', 3)), "\n";
$rl = new RedLock([$redis->dsn()]);
$red = $rl->lock('red', 1000);
$red = $rl->extend($red, 3000);
echo "RedLock extend to 3 s: ", is_array($red) ? 'array' : rl_show($red), "\n";
ini_set('redis_lock.auto_renew', '0');

rl_sleep(2.0);
$p = fn (string $k) => $redis->cmd('PTTL', $k);
echo "taken while off: ", $redis->cmd('EXISTS', 'lock:plain') === 0 ? 'expired' : 'still there', "\n";
echo "taken while on: ", rl_is_token($redis->cmd('GET', 'lock:renewed')) ? 'renewed' : 'gone', ", PTTL in (0, 1000]: ", var_export($p('lock:renewed') > 0 && $p('lock:renewed') <= 1000, true), "\n";
echo "extended to 3 s: renewed with 3 s (PTTL in (1000, 3000]): ", var_export($p('lock:longer') > 1000 && $p('lock:longer') <= 3000, true), "\n";
echo "RedLock extended to 3 s: renewed with 3 s (PTTL in (1000, 3000]): ", var_export($p('red') > 1000 && $p('red') <= 3000, true), "\n";
echo "release plain: ", rl_show(RedisMutexLock::release('plain')), ", renewed: ", rl_show(RedisMutexLock::release('renewed')),
    ", longer: ", rl_show(RedisMutexLock::release('longer')), ", RedLock: ", rl_show($rl->unlock($red)), "\n";
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
extend to 3 s: true
RedLock extend to 3 s: array
taken while off: expired
taken while on: renewed, PTTL in (0, 1000]: true
extended to 3 s: renewed with 3 s (PTTL in (1000, 3000]): true
RedLock extended to 3 s: renewed with 3 s (PTTL in (1000, 3000]): true
release plain: false, renewed: true, longer: true, RedLock: true
keys: []
