--TEST--
Server limits: a master with min-replicas-to-write 1 and no replica refuses writes with NOREPLICAS. Every class (mutex with and without its queue, owner-level acquire, read/write lock, semaphore, RedLock) throws a RedisLockException naming NOREPLICAS at once, never false and never a lock held; a waiter queued before the replica was lost fails cleanly (or gets the lock handed over) before its timeout; a RedLock with one such node of three still locks; nothing of ours is left, and once a replica is back every name can be taken
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_limits.inc';
$redis = RedisServer::start(['--min-replicas-max-lag', '1']);
$n2 = RedisServer::start();
$n3 = RedisServer::start();
$servers = [$redis, $n2, $n3];
ini_set('redis_lock.server', $redis->dsn());

// Before the limit: a holder of each kind and a waiter behind each.
$holder = new RlActor($redis);
echo "holds: ", json_encode([$holder->result('RedisMutexLock::lock', 'm', 0, 20), $holder->result('RedisReadWriteLock::lockWrite', 'rw', 0, 20),
    $holder->result('RedisSemaphore::acquire', 'sem', 1, 0, 20)]), "\n";
$waiters = ['m' => new RlActor($redis), 'rw' => new RlActor($redis), 'sem' => new RlActor($redis)];
$waiters['m']->send('RedisMutexLock::lock', 'm', 6.0, 20, 100000);
$waiters['rw']->send('RedisReadWriteLock::lockRead', 'rw', 6.0, 20);
$waiters['sem']->send('RedisSemaphore::acquire', 'sem', 1, 6.0, 20);
echo "waiters queued: ", var_export(rl_eventually(fn () => RedisMutexLock::inspect('m')['waiters'] === 1 && RedisReadWriteLock::inspect('rw')['waiters'] === 1
    && RedisSemaphore::inspect('sem')['waiters'] === 1, true, 5.0), true), "\n";

echo "min-replicas-to-write 1: ", $redis->cmd('CONFIG', 'SET', 'min-replicas-to-write', '1'), "\n";
$before = rl_limits_our_keys($redis);
$noReplicas = 'RedisLockException: Redis at 127.0.0.1:P1: error reply: NOREPLICAS Not enough good replicas to write.';
$calls = [
    'mutex, timeout 0' => [fn () => RedisMutexLock::lock('k', 0), fn () => RedisMutexLock::inspect('k')['held']],
    'mutex, timeout 2' => [fn () => RedisMutexLock::lock('k', 2), fn () => RedisMutexLock::inspect('k')['held']],
    'mutex, held name, timeout 2' => [fn () => RedisMutexLock::lock('m', 2), fn () => RedisMutexLock::inspect('m')['held']],
    'owner acquire, timeout 2' => [fn () => RedisMutexLock::acquire('o', RedisMutexLock::newOwner(), 5000, 2), fn () => RedisMutexLock::owner('o') !== null],
    'read lock, timeout 2' => [fn () => RedisReadWriteLock::lockRead('rw2', 2), fn () => RedisReadWriteLock::inspect('rw2')['held']],
    'write lock, held name, timeout 2' => [fn () => RedisReadWriteLock::lockWrite('rw', 2), fn () => RedisReadWriteLock::inspect('rw')['held']],
    'semaphore, timeout 2' => [fn () => RedisSemaphore::acquire('sem2', 2, 2), fn () => RedisSemaphore::inspect('sem2')['held']],
    'semaphore, held name, timeout 2' => [fn () => RedisSemaphore::acquire('sem', 1, 2), fn () => RedisSemaphore::inspect('sem')['held']],
];
foreach ($calls as $name => [$call, $held]) {
    [$r, $secs] = rl_timed(fn () => rl_limits_outcome($call, $servers));
    $short = str_starts_with($r, $noReplicas) ? 'NOREPLICAS' : $r;
    echo "$name: $short, held: ", var_export($held(), true), ", at once: ", rl_within($secs, 0, 0.5), "\n";
}
$rl = new RedLock([$redis->dsn()], 10, 1);
echo "RedLock, this node alone: ", rl_limits_outcome(fn () => $rl->lock('rl', 5000), $servers), "\n";
$rl3 = new RedLock(rl_redlock_list($servers, 0.5), 10, 1);
$lock = $rl3->lock('rl', 5000);
echo "RedLock, one such node of three: ", is_array($lock) ? 'locked' : rl_show($lock), ", unlock: ", rl_limits_outcome(fn () => $rl3->unlock($lock)), "\n";
echo "no new key of ours: ", json_encode(array_values(array_diff(rl_limits_our_keys($redis), $before))), "\n";

// The holder's release is a write too: refused, and the lock stays its own (the waiters are not handed a lock nobody could release).
foreach ([['RedisMutexLock::release', 'm'], ['RedisReadWriteLock::release', 'rw'], ['RedisSemaphore::release', 'sem']] as [$method, $k]) {
    $r = rl_limits_answer($holder->call($method, $k), $servers);
    echo "release $k: ", str_starts_with($r, $noReplicas) ? 'NOREPLICAS' : $r, "\n";
}
foreach ($waiters as $k => $w) {
    $a = $w->answer(12);
    $r = rl_limits_answer($a, $servers);
    echo "waiter on $k: ", str_starts_with($r, $noReplicas) ? 'NOREPLICAS' : $r, ", before its timeout: ", rl_within($a['end'] - $a['start'], 0, 5.9), "\n";
}
foreach ($waiters as $w) {
    $w->finish();
}

// A replica back: everything can be taken again, and nothing is left.
$replica = RedisServer::start(['--replicaof', '127.0.0.1', (string) $redis->port]);
echo "replica back: ", var_export(rl_eventually(fn () => str_contains((string) $redis->cmd('INFO', 'replication'), 'connected_slaves:1')
    && $redis->cmd('SET', 'probe', '1') === 'OK', true, 10.0), true), "\n";
$redis->cmd('DEL', 'probe');
echo "the holder releases again: ", json_encode([$holder->result('RedisMutexLock::release', 'm'), $holder->result('RedisReadWriteLock::release', 'rw'),
    $holder->result('RedisSemaphore::release', 'sem')]), "\n";
$holder->finish();
echo "keys of ours left: ", json_encode(rl_eventually(fn () => rl_limits_ours($redis), [], 2.0)), "\n";
echo "every name: ", json_encode([RedisMutexLock::lock('k', 0), RedisMutexLock::lock('m', 0), RedisReadWriteLock::lockWrite('rw', 0),
    RedisReadWriteLock::lockWrite('rw2', 0), RedisSemaphore::acquire('sem', 1, 0), RedisSemaphore::acquire('sem2', 1, 0)]), "\n";
?>
--EXPECT--
holds: [true,true,true]
waiters queued: true
min-replicas-to-write 1: OK
mutex, timeout 0: NOREPLICAS, held: false, at once: true
mutex, timeout 2: NOREPLICAS, held: false, at once: true
mutex, held name, timeout 2: NOREPLICAS, held: false, at once: true
owner acquire, timeout 2: NOREPLICAS, held: false, at once: true
read lock, timeout 2: NOREPLICAS, held: false, at once: true
write lock, held name, timeout 2: NOREPLICAS, held: false, at once: true
semaphore, timeout 2: NOREPLICAS, held: false, at once: true
semaphore, held name, timeout 2: NOREPLICAS, held: false, at once: true
RedLock, this node alone: RedisLockException: RedLock::lock(): fewer than 1 of 1 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: NOREPLICAS Not enough good replicas to write.
RedLock, one such node of three: locked, unlock: true
no new key of ours: []
release m: NOREPLICAS
release rw: NOREPLICAS
release sem: NOREPLICAS
waiter on m: NOREPLICAS, before its timeout: true
waiter on rw: NOREPLICAS, before its timeout: true
waiter on sem: NOREPLICAS, before its timeout: true
replica back: true
the holder releases again: [true,true,true]
keys of ours left: []
every name: [true,true,true,true,true,true]
