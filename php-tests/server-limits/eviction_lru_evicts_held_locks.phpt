--TEST--
Server limits: maxmemory-policy allkeys-lru and volatile-lru. allkeys-lru evicts a lock key that was not touched for a second or two when the application writes data (no TTL): a second process then takes the mutex, the write lock and the semaphore's only permit beside their holders, whose releases answer false. volatile-lru with the application's data kept without TTL is worse, not better: the locks (every key of theirs has a TTL) are the only keys it may evict, so the first write over the limit evicts a held lock, even one touched a moment ago; once no lock is left to evict, taking a lock fails with OOM (a clear RedisLockException). Only noeviction keeps a held lock
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_limits.inc';

// allkeys-lru: the holders' keys idle, the application's data written afresh.
$redis = RedisServer::start(['--maxmemory-policy', 'allkeys-lru', '--maxmemory-samples', '10']);
ini_set('redis_lock.server', $redis->dsn());
$holder = new RlActor($redis);
echo "allkeys-lru, holds: ", json_encode([$holder->result('RedisMutexLock::lock', 'm', 0, 30), $holder->result('RedisReadWriteLock::lockWrite', 'rw', 0, 30),
    $holder->result('RedisSemaphore::acquire', 'sem', 1, 0, 30)]), "\n";
rl_sleep(2.2); // idle for two ticks of the LRU clock (1 s)
$lockKeys = ['lock:m', 'lock:rw', 'lock:sem'];
rl_limits_fill_until($redis, fn () => array_intersect($lockKeys, rl_limits_our_keys($redis)) === [], null);
echo "lock keys evicted: true\n";
rl_limits_release_pressure($redis);
echo "second holders: ", json_encode([RedisMutexLock::lock('m', 0), RedisReadWriteLock::lockWrite('rw', 0), RedisSemaphore::acquire('sem', 1, 0)]), "\n";
echo "the first holder's releases: ", json_encode([$holder->result('RedisMutexLock::release', 'm'), $holder->result('RedisReadWriteLock::release', 'rw'),
    $holder->result('RedisSemaphore::release', 'sem')]), "\n";
echo "ours: ", json_encode([RedisMutexLock::release('m'), RedisReadWriteLock::release('rw'), RedisSemaphore::release('sem')]), "\n";
$holder->finish();
echo "keys of ours left: ", json_encode(rl_limits_ours($redis)), "\n";
$redis->stop();

// volatile-lru, the application's data without TTL: the locks are the only candidates.
$redis = RedisServer::start(['--maxmemory-policy', 'volatile-lru']);
ini_set('redis_lock.server', $redis->dsn());
$holder = new RlActor($redis, ['redis_lock.auto_renew' => '1']);
echo "volatile-lru, holds (renewed): ", json_encode([$holder->result('RedisMutexLock::lock', 'm', 0, 3), $holder->result('RedisReadWriteLock::lockWrite', 'rw', 0, 3),
    $holder->result('RedisSemaphore::acquire', 'sem', 1, 0, 3)]), "\n";
echo "touched a moment ago: ", json_encode([$holder->result('RedisMutexLock::extend', 'm', 3), $holder->result('RedisReadWriteLock::extend', 'rw', 3),
    $holder->result('RedisSemaphore::extend', 'sem', 3)]), "\n";
$writes = rl_limits_fill_until($redis, fn () => array_intersect($lockKeys, rl_limits_our_keys($redis)) === [], null);
echo "lock keys evicted by the first writes over the limit: ", var_export($writes <= 30, true), " (", $writes <= 30 ? 'as expected' : "$writes writes", ")\n";
// Still at the limit, with nothing of ours left to evict: a lock is refused with OOM.
$filler = str_repeat('f', 20000);
for ($i = 0; $i < 200 && !($redis->cmd('SET', "fill:top:$i", $filler) instanceof RespError); $i++) {
}
echo "the application's writes now fail too: ", var_export($i < 200, true), "\n";
echo "a lock at the limit: ", rl_mask_ports(rl_limits_outcome(fn () => RedisMutexLock::lock('m', 0)), [$redis]), "\n";
// The application deletes some of its data: the next caller takes every lock beside its holder.
foreach (array_slice($redis->cmd('KEYS', 'fill:*'), 0, 10) as $k) {
    $redis->cmd('DEL', $k);
}
echo "second holders: ", json_encode([RedisMutexLock::lock('m', 0), RedisReadWriteLock::lockWrite('rw', 0), RedisSemaphore::acquire('sem', 1, 0)]), "\n";
// A renewal of the 3 s leases (every second) finds them taken.
rl_eventually(fn () => [$holder->result('RedisMutexLock::inspect', 'm')['lost'], $holder->result('RedisReadWriteLock::inspect', 'rw')['lost'],
    $holder->result('RedisSemaphore::inspect', 'sem')['lost']], [true, true, true], 5.0);
echo "the renewed holder sees them lost: ", json_encode([$holder->result('RedisMutexLock::inspect', 'm')['lost'], $holder->result('RedisReadWriteLock::inspect', 'rw')['lost'],
    $holder->result('RedisSemaphore::inspect', 'sem')['lost']]), "\n";
echo "ours: ", json_encode([RedisMutexLock::release('m'), RedisReadWriteLock::release('rw'), RedisSemaphore::release('sem')]), "\n";
$holder->finish();
rl_limits_release_pressure($redis);
echo "keys of ours left: ", json_encode(rl_limits_ours($redis)), "\n";
?>
--EXPECT--
allkeys-lru, holds: [true,true,true]
lock keys evicted: true
second holders: [true,true,true]
the first holder's releases: [false,false,false]
ours: [true,true,true]
keys of ours left: []
volatile-lru, holds (renewed): [true,true,true]
touched a moment ago: [true,true,true]
lock keys evicted by the first writes over the limit: true (as expected)
the application's writes now fail too: true
a lock at the limit: RedisLockException: Redis at 127.0.0.1:P1: error reply: OOM command not allowed when used memory > 'maxmemory'.
second holders: [true,true,true]
the renewed holder sees them lost: [true,true,true]
ours: [true,true,true]
keys of ours left: []
