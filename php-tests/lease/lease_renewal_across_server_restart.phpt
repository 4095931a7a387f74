--TEST--
redis_lock.auto_renew across a restart of Redis that keeps the data (RDB saved and loaded): renewals reconnect and the 3 s lock is still ours well past its lease, after a quick restart and after 0.5 s of downtime (refused connections are not a lost lock while the lease runs)
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.auto_renew', '1');

echo "-- restart (SAVE, SIGTERM, start)\n";
var_dump(RedisMutexLock::lock('s', 0, 3));
$token = $redis->cmd('GET', 'lock:s');
$redis->restart(true);
echo "kept by the restart: ", var_export($redis->cmd('GET', 'lock:s') === $token, true), "\n";
rl_sleep(4.0);
$pttl = $redis->cmd('PTTL', 'lock:s');
echo "4 s later: ", var_export($redis->cmd('GET', 'lock:s') === $token, true), ", PTTL in (0, 3000]: ", var_export($pttl > 0 && $pttl <= 3000, true), "\n";
$i = RedisMutexLock::inspect('s');
echo "inspect: held ", var_export($i['held'], true), ", lost ", var_export($i['lost'], true), "\n";
var_dump(RedisMutexLock::release('s'));
echo "gone: ", $redis->cmd('EXISTS', 'lock:s'), "\n";

echo "-- down for 0.5 s (SAVE, SIGKILL, start from the RDB)\n";
var_dump(RedisMutexLock::lock('d', 0, 3));
$token = $redis->cmd('GET', 'lock:d');
echo "saved: ", $redis->cmd('SAVE'), "\n";
$redis->kill();
rl_sleep(0.5);
$redis->restart(true);
echo "kept by the restart: ", var_export($redis->cmd('GET', 'lock:d') === $token, true), "\n";
rl_sleep(4.0);
echo "4 s later: ", var_export($redis->cmd('GET', 'lock:d') === $token, true), "\n";
$i = RedisMutexLock::inspect('d');
echo "inspect: held ", var_export($i['held'], true), ", lost ", var_export($i['lost'], true), "\n";
var_dump(RedisMutexLock::release('d'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
-- restart (SAVE, SIGTERM, start)
bool(true)
kept by the restart: true
4 s later: true, PTTL in (0, 3000]: true
inspect: held true, lost false
bool(true)
gone: 0
-- down for 0.5 s (SAVE, SIGKILL, start from the RDB)
bool(true)
saved: OK
kept by the restart: true
4 s later: true
inspect: held true, lost false
bool(true)
keys: []
