--TEST--
Reentrancy checks Redis: a nested lock() on a key another client took over is refused (theirs untouched); once it is free, or when ours expired, a nested lock() is a fresh acquisition (count 1, new token); an earlier release() of a lock that is no longer ours is false and forgets every hold
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$show = function (string $key) use ($redis): string {
    $i = RedisMutexLock::inspect($key);
    return sprintf('held %s, count %d', var_export($i['held'], true), $i['count']);
};

echo "-- taken over while held twice\n";
var_dump(RedisMutexLock::lock('job', 0, 30), RedisMutexLock::lock('job', 0, 30));
$ours = $redis->cmd('GET', 'lock:job');
$redis->cmd('DEL', 'lock:job');
$redis->cmd('SET', 'lock:job', 'theirs', 'PX', 60000);
echo "nested lock(0): ", rl_show(RedisMutexLock::lock('job', 0, 30)), "\n";
$pttl = $redis->cmd('PTTL', 'lock:job');
echo "theirs untouched: ", var_export($redis->cmd('GET', 'lock:job') === 'theirs' && $pttl > 58000 && $pttl <= 60000, true), ", ", $show('job'), "\n";
$redis->cmd('DEL', 'lock:job');
echo "free again; nested lock(0): ", rl_show(RedisMutexLock::lock('job', 0, 30)), "\n";
$fresh = $redis->cmd('GET', 'lock:job');
echo "fresh token: ", var_export(rl_is_token($fresh) && $fresh !== $ours, true), ", ", $show('job'), "\n";
echo "one release deletes it: ", rl_show(RedisMutexLock::release('job')), ", key: ", $redis->cmd('EXISTS', 'lock:job'), "\n";
echo "then: ", rl_show(RedisMutexLock::release('job')), "\n";

echo "-- an earlier release of a lock taken over\n";
var_dump(RedisMutexLock::lock('two', 0, 30), RedisMutexLock::lock('two', 0, 30));
$redis->cmd('SET', 'lock:two', 'theirs', 'PX', 60000);
echo "release: ", rl_show(RedisMutexLock::release('two')), ", theirs untouched: ",
    var_export($redis->cmd('GET', 'lock:two') === 'theirs' && $redis->cmd('PTTL', 'lock:two') > 58000, true), ", ", $show('two'), "\n";
$redis->cmd('DEL', 'lock:two');
echo "every hold forgotten: ", rl_show(RedisMutexLock::release('two')), ", ", $show('two'), "\n";

echo "-- ours expired\n";
var_dump(RedisMutexLock::lock('exp', 0, 30), RedisMutexLock::lock('exp', 0, 30));
$old = $redis->cmd('GET', 'lock:exp');
$redis->cmd('PEXPIRE', 'lock:exp', 50);
echo "expired: ", rl_eventually(fn () => $redis->cmd('EXISTS', 'lock:exp'), 0, 2.0), "\n";
echo "nested lock(0, 5): ", rl_show(RedisMutexLock::lock('exp', 0, 5)), "\n";
$new = $redis->cmd('GET', 'lock:exp');
$pttl = $redis->cmd('PTTL', 'lock:exp');
echo "fresh token: ", var_export(rl_is_token($new) && $new !== $old, true), ", PTTL in (4000, 5000]: ",
    var_export($pttl > 4000 && $pttl <= 5000, true), ", ", $show('exp'), "\n";
echo "one release deletes it: ", rl_show(RedisMutexLock::release('exp')), ", key: ", $redis->cmd('EXISTS', 'lock:exp'), "\n";
echo "then: ", rl_show(RedisMutexLock::release('exp')), "\n";
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
-- taken over while held twice
bool(true)
bool(true)
nested lock(0): false
theirs untouched: true, held false, count 0
free again; nested lock(0): true
fresh token: true, held true, count 1
one release deletes it: true, key: 0
then: false
-- an earlier release of a lock taken over
bool(true)
bool(true)
release: false, theirs untouched: true, held false, count 0
every hold forgotten: false, held false, count 0
-- ours expired
bool(true)
bool(true)
expired: 0
nested lock(0, 5): true
fresh token: true, PTTL in (4000, 5000]: true, held true, count 1
one release deletes it: true, key: 0
then: false
keys: []
