--TEST--
redis_lock.auto_renew: a renewal refused (another owner took the key, or it was deleted) or impossible (the server hung past the lease) marks the lock lost: inspect() says so, the next release()/extend() throws RedisLockLostException once naming the cause, then the lock is forgotten; the other owner's key is never touched
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.auto_renew', '1');
$refused = 'another owner took it or it expired';
$lostWithin = function (string $key, float $limit): string {
    $t = rl_now();
    $lost = rl_eventually(fn () => RedisMutexLock::inspect($key)['lost'], true, $limit + 2.0);
    $secs = rl_now() - $t;
    return $lost !== true ? 'false (not lost)' : ($secs < $limit ? 'true' : sprintf('false (%.2f s)', $secs));
};
$theirs = fn (string $k) => var_export($redis->cmd('GET', $k) === 'foreign' && $redis->cmd('PTTL', $k) > 55000, true);

echo "-- taken over, then release()\n";
var_dump(RedisMutexLock::lock('t', 0, 2));
echo "lost before: ", var_export(RedisMutexLock::inspect('t')['lost'], true), "\n";
$redis->cmd('SET', 'lock:t', 'foreign', 'PX', 60000);
echo "lost within 1.5 s: ", $lostWithin('t', 1.5), "\n";
echo "release: ", rl_lost(rl_timed(fn () => RedisMutexLock::release('t'))[0], 'RedisMutexLock::release()', 't', $refused), "\n";
echo "theirs untouched: ", $theirs('lock:t'), "\n";
echo "again: ", rl_show(RedisMutexLock::release('t')), ", lost now: ", var_export(RedisMutexLock::inspect('t')['lost'], true), "\n";

echo "-- taken over, then extend()\n";
var_dump(RedisMutexLock::lock('u', 0, 2));
$redis->cmd('SET', 'lock:u', 'foreign', 'PX', 60000);
echo "lost within 1.5 s: ", $lostWithin('u', 1.5), "\n";
echo "extend: ", rl_lost(rl_timed(fn () => RedisMutexLock::extend('u', 30))[0], 'RedisMutexLock::extend()', 'u', $refused), "\n";
echo "theirs untouched: ", $theirs('lock:u'), "\n";
echo "release: ", rl_show(RedisMutexLock::release('u')), ", extend: ", rl_show(RedisMutexLock::extend('u', 30)), "\n";
echo "theirs untouched: ", $theirs('lock:u'), "\n";

echo "-- deleted by someone\n";
var_dump(RedisMutexLock::lock('v', 0, 2));
$redis->cmd('DEL', 'lock:v');
echo "lost within 1.5 s: ", $lostWithin('v', 1.5), "\n";
echo "release: ", rl_lost(rl_timed(fn () => RedisMutexLock::release('v'))[0], 'RedisMutexLock::release()', 'v', $refused), "\n";
echo "not recreated: ", $redis->cmd('EXISTS', 'lock:v'), "\n";

echo "-- nested hold, taken over\n";
var_dump(RedisMutexLock::lock('n', 0, 2), RedisMutexLock::lock('n', 0, 2));
$redis->cmd('SET', 'lock:n', 'foreign', 'PX', 60000);
echo "lost within 1.5 s: ", $lostWithin('n', 1.5), "\n";
echo "release: ", rl_lost(rl_timed(fn () => RedisMutexLock::release('n'))[0], 'RedisMutexLock::release()', 'n', $refused), "\n";
echo "again: ", rl_show(RedisMutexLock::release('n')), ", count: ", RedisMutexLock::inspect('n')['count'], "\n";
echo "theirs untouched: ", $theirs('lock:n'), "\n";

echo "-- server hung (SIGSTOP) past the lease\n";
var_dump(RedisMutexLock::lock('o', 0, 1));
$redis->pause();
rl_sleep(2.5);
$redis->resume();
$i = RedisMutexLock::inspect('o');
echo "inspect: held ", var_export($i['held'], true), ", lost ", var_export($i['lost'], true), "\n";
echo "release: ", rl_lost(rl_timed(fn () => RedisMutexLock::release('o'))[0], 'RedisMutexLock::release()', 'o', 'could not be reached'), "\n";
echo "again: ", rl_show(RedisMutexLock::release('o')), ", key: ", $redis->cmd('EXISTS', 'lock:o'), "\n";
echo "a new lock works: ", rl_show(RedisMutexLock::lock('o', 0, 1)), ", ", rl_show(RedisMutexLock::release('o')), "\n";
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
-- taken over, then release()
bool(true)
lost before: false
lost within 1.5 s: true
release: RedisLockLostException: RedisMutexLock::release(): the lock on "t" was lost: …another owner took it or it expired…
theirs untouched: true
again: false, lost now: false
-- taken over, then extend()
bool(true)
lost within 1.5 s: true
extend: RedisLockLostException: RedisMutexLock::extend(): the lock on "u" was lost: …another owner took it or it expired…
theirs untouched: true
release: false, extend: false
theirs untouched: true
-- deleted by someone
bool(true)
lost within 1.5 s: true
release: RedisLockLostException: RedisMutexLock::release(): the lock on "v" was lost: …another owner took it or it expired…
not recreated: 0
-- nested hold, taken over
bool(true)
bool(true)
lost within 1.5 s: true
release: RedisLockLostException: RedisMutexLock::release(): the lock on "n" was lost: …another owner took it or it expired…
again: false, count: 0
theirs untouched: true
-- server hung (SIGSTOP) past the lease
bool(true)
inspect: held false, lost true
release: RedisLockLostException: RedisMutexLock::release(): the lock on "o" was lost: …could not be reached…
again: false, key: 0
a new lock works: true, true
keys: ["lock:n","lock:t","lock:u"]
