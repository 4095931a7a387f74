--TEST--
fence(): a lock taken with acquire($key, $owner, $ttl) is the owner's, not the process': fence() is null for it (no fence record written), as inspect()['held'] is false and release() is false; releaseOwner() gives it back, and lock() then gets a fence as usual
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$owner = RedisMutexLock::newOwner();
echo "acquire: ", rl_show(RedisMutexLock::acquire('o', $owner, 5000)), "\n";
echo "fence: ", rl_show(RedisMutexLock::fence('o')), "\n";
echo "fence record written: ", var_export($redis->cmd('EXISTS', '{lock:o}:f') === 1, true), "\n";
$seen = RedisMutexLock::inspect('o');
echo "inspect: held ", rl_show($seen['held']), ", count ", $seen['count'], ", fence ", rl_show($seen['fence']), ", a holder: ", var_export(is_array($seen['holder']), true), "\n";
echo "release: ", rl_show(RedisMutexLock::release('o')), "\n";
echo "the owner still holds it: ", var_export($redis->cmd('GET', 'lock:o') === $owner, true), "\n";
echo "releaseOwner: ", rl_show(RedisMutexLock::releaseOwner('o', $owner)), "\n";

echo "lock: ", rl_show(RedisMutexLock::lock('o', 0, 5)), "\n";
$fence = RedisMutexLock::fence('o');
echo "fence of the process' own hold: ", is_int($fence) && $fence > 0 ? 'a positive int' : rl_show($fence), "\n";
echo "release: ", rl_show(RedisMutexLock::release('o')), "\n";
?>
--EXPECT--
acquire: true
fence: NULL
fence record written: false
inspect: held false, count 0, fence NULL, a holder: true
release: false
the owner still holds it: true
releaseOwner: true
lock: true
fence of the process' own hold: a positive int
release: true
