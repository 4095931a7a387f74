--TEST--
RedisLock::endScope(): a lock a unit of work leaked is handed to the process waiting for it at once (not after its TTL), and renewals end with the scope: with redis_lock.auto_renew a leaked renewed lock is released, and an owner token's renewed lock is left held but no longer renewed (its PTTL counts down), so an idle worker renews nothing
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--INI--
redis_lock.auto_renew=1
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

// A unit leaks a lock (TTL 30 s); another process waits for it.
$unit = RedisLock::beginScope();
var_dump(RedisMutexLock::lock('job', 0, 30));
$waiter = new PhpChild("<?php\nrequire " . var_export(__DIR__ . '/../inc/redis_server.inc', true) . ";\n" . <<<'PHP'
echo "waiting\n";
$got = RedisMutexLock::lock('job', 10);
printf("got it: %s at %.6f\n", var_export($got, true), rl_now());
PHP, ['redis_lock.server' => $redis->dsn()]);
echo $waiter->readLine(), "\n";
echo "waiter queued: ", json_encode(rl_eventually(fn () => RedisMutexLock::inspect('job')['waiters'], 1, 5.0)), "\n";
$owner = RedisMutexLock::newOwner();
var_dump(RedisMutexLock::acquire('owned', $owner, 3000, 0, true)); // renewed, 3 s lease
usleep(4000000);
echo "owner lock renewed past its 3 s lease while the scope is open: ", var_export($redis->cmd('GET', 'lock:owned') === $owner, true), "\n";
$ended = rl_now();
$r = RedisLock::endScope($unit);
echo "ended: ", json_encode($r), "\n";
$res = $waiter->wait();
$at = preg_match('/at ([0-9.]+)/', $res['out'], $m) ? (float) $m[1] : INF;
echo preg_replace('/ at [0-9.]+/', '', $res['out']), $res['err'];
printf("the waiter got it within 1 s of the scope's end (its lock's TTL: 30 s): %s\n", var_export($at - $ended < 1.0, true));

// The owner lock is no longer renewed: its TTL runs down and it expires.
$t1 = $redis->cmd('PTTL', 'lock:owned');
usleep(1200000);
$t2 = $redis->cmd('PTTL', 'lock:owned');
echo "owner lock PTTL counts down: ", var_export($t2 < $t1 - 1000, true), "\n";
echo "expired within its lease: ", json_encode(rl_eventually(fn () => $redis->cmd('EXISTS', 'lock:owned'), 0, 4.0)), "\n";
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
waiting
waiter queued: 1
bool(true)
owner lock renewed past its 3 s lease while the scope is open: true
ended: {"keys":["lock:job"],"failed":0,"owner_locks":1}
got it: true
the waiter got it within 1 s of the scope's end (its lock's TTL: 30 s): true
owner lock PTTL counts down: true
expired within its lease: 0
keys: []
