--TEST--
Server limits: maxclients reached (Redis accepts the connection, answers "-ERR max number of clients reached" and closes it). Every class throws a RedisLockException naming that error (not a vague protocol or connection error) at once, also with a timeout (no waiting in a queue it never joined, no hang), and leaves nothing; a RedLock with one full node of three still locks, with two it throws naming both; pooled connections opened before the limit keep working; once a client leaves, the next call succeeds
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_limits.inc';
$redis = RedisServer::start();
$n2 = RedisServer::start();
$n3 = RedisServer::start();
$servers = [$redis, $n2, $n3];
$redis->cmd('PING');
// A process that connected before the limit (its pooled connection stays).
$early = new RlActor($redis);
echo "early process: ", json_encode($early->result('RedisMutexLock::lock', 'early', 0, 20)), "\n";
$full = function (RedisServer $s): void {
    $clients = count(array_filter(explode("\n", trim((string) $s->cmd('CLIENT', 'LIST')))));
    $r = $s->cmd('CONFIG', 'SET', 'maxclients', (string) $clients);
    if ($r !== 'OK') {
        throw new RuntimeException("maxclients: $r");
    }
};
$full($redis);
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.connect_timeout', '1');
ini_set('redis_lock.read_timeout', '1');

$calls = [
    'mutex, timeout 0' => fn () => RedisMutexLock::lock('k', 0),
    'mutex, timeout 3' => fn () => RedisMutexLock::lock('k', 3),
    'owner acquire, timeout 3' => fn () => RedisMutexLock::acquire('k', RedisMutexLock::newOwner(), 5000, 3),
    'release' => fn () => RedisMutexLock::release('k'),
    'inspect' => fn () => RedisMutexLock::inspect('k'),
    'read lock, timeout 3' => fn () => RedisReadWriteLock::lockRead('rw', 3),
    'write lock, timeout 3' => fn () => RedisReadWriteLock::lockWrite('rw', 3),
    'semaphore, timeout 3' => fn () => RedisSemaphore::acquire('sem', 2, 3),
    'RedLock, this node alone' => fn () => (new RedLock([$redis->dsn()], 10, 2))->lock('rl', 5000),
];
foreach ($calls as $name => $call) {
    [$r, $secs] = rl_timed(fn () => rl_limits_outcome($call, $servers));
    echo "$name: $r, within 0.5 s: ", rl_within($secs, 0, 0.5), "\n";
}
echo "the early process' pooled connection: ", json_encode([$early->result('RedisMutexLock::release', 'early'), $early->result('RedisMutexLock::lock', 'early2', 0, 20)]), "\n";

$full($n2);
$rl = new RedLock(rl_redlock_list($servers, 0.5), 10, 1);
echo "RedLock, two full nodes of three: ", rl_limits_outcome(fn () => $rl->lock('rl', 5000), $servers), "\n";
$n2->cmd('CONFIG', 'SET', 'maxclients', '100');
$lock = $rl->lock('rl', 5000);
echo "RedLock, one full node of three: ", is_array($lock) ? 'locked' : rl_show($lock), ", unlock: ", rl_limits_outcome(fn () => $rl->unlock($lock)), "\n";

$early->finish(); // one client gone
echo "after a client left: ", json_encode([RedisMutexLock::lock('k', 0), RedisMutexLock::release('k')]), "\n";
$redis->cmd('CONFIG', 'SET', 'maxclients', '100');
echo "keys: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), " ", json_encode($n2->keys()), " ", json_encode($n3->keys()), "\n";
?>
--EXPECT--
early process: true
mutex, timeout 0: RedisLockException: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached, within 0.5 s: true
mutex, timeout 3: RedisLockException: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached, within 0.5 s: true
owner acquire, timeout 3: RedisLockException: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached, within 0.5 s: true
release: false, within 0.5 s: true
inspect: RedisLockException: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached, within 0.5 s: true
read lock, timeout 3: RedisLockException: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached, within 0.5 s: true
write lock, timeout 3: RedisLockException: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached, within 0.5 s: true
semaphore, timeout 3: RedisLockException: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached, within 0.5 s: true
RedLock, this node alone: RedisLockException: RedLock::lock(): fewer than 1 of 1 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached, within 0.5 s: true
the early process' pooled connection: [true,true]
RedLock, two full nodes of three: RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: ERR max number of clients reached; Redis at 127.0.0.1:P2: error reply: ERR max number of clients reached
RedLock, one full node of three: locked, unlock: true
after a client left: [true,true]
keys: [] [] []
