--TEST--
Server limits: a replica promoted (REPLICAOF NO ONE) that missed the last lock writes (it was frozen and its link cut before them, then the master was SIGKILLed). Without redis_lock.wait_replicas the mutex, the write lock and the semaphore's only permit are taken a second time on the promoted replica while their first holder still holds them: two holders. With wait_replicas=1 they are not: taken while no replica is linked, each lock() throws (the lock reached 0 of 1 replicas) and nothing is left on the master; taken with the replica linked, the promoted replica has them, and another process gets false (with wait_replicas=1 on the promoted replica, which has no replica of its own: a RedisLockException, never true)
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_limits.inc';

function pair(): array
{
    $master = RedisServer::start();
    $replica = RedisServer::start(['--replicaof', '127.0.0.1', (string) $master->port]);
    $synced = rl_eventually(fn () => str_contains((string) $replica->cmd('INFO', 'replication'), 'master_link_status:up')
        && str_contains((string) $master->cmd('INFO', 'replication'), 'connected_slaves:1'), true, 10.0);
    if (!$synced) {
        throw new RuntimeException('the replica did not sync');
    }
    return [$master, $replica];
}

/** Freezes the replica and cuts its link: the master's next writes reach no replica. */
function cut(RedisServer $master, RedisServer $replica): void
{
    $replica->pause();
    $master->cmd('CLIENT', 'KILL', 'TYPE', 'replica');
    if (!rl_eventually(fn () => str_contains((string) $master->cmd('INFO', 'replication'), 'connected_slaves:0'), true, 5.0)) {
        throw new RuntimeException('the replica is still linked');
    }
}

/** The master SIGKILLed, the replica resumed and promoted. */
function promote(RedisServer $master, RedisServer $replica): void
{
    $master->kill();
    $replica->resume();
    $r = $replica->cmd('REPLICAOF', 'NO', 'ONE');
    if ($r !== 'OK') {
        throw new RuntimeException("REPLICAOF NO ONE: $r");
    }
}

$takes = fn (string $s) => [
    rl_limits_outcome(fn () => RedisMutexLock::lock("m$s", 0, 20)),
    rl_limits_outcome(fn () => RedisReadWriteLock::lockWrite("rw$s", 0, 20)),
    rl_limits_outcome(fn () => RedisSemaphore::acquire("sem$s", 1, 0, 20)),
];
$others = function (RlActor $b, string $s): array {
    return [
        rl_limits_answer($b->call('RedisMutexLock::lock', "m$s", 0, 20)),
        rl_limits_answer($b->call('RedisReadWriteLock::lockWrite', "rw$s", 0, 20)),
        rl_limits_answer($b->call('RedisSemaphore::acquire', "sem$s", 1, 0, 20)),
    ];
};
$held = fn (string $s) => [RedisMutexLock::inspect("m$s")['count'], RedisReadWriteLock::inspect("rw$s")['count'], RedisSemaphore::inspect("sem$s")['count']];

// 1. wait_replicas=0 (the default): the promoted replica never saw the locks.
[$master, $replica] = pair();
ini_set('redis_lock.server', $master->dsn());
ini_set('redis_lock.wait_replicas', '0');
cut($master, $replica);
echo "wait_replicas=0, taken on the master: ", json_encode($takes('1')), "\n";
promote($master, $replica);
echo "on the promoted replica: ", json_encode(rl_limits_ours($replica)), "\n";
$b = new RlActor($replica);
echo "another process on the promoted replica, while the first holder holds them: ", json_encode($others($b, '1')), "\n";
$b->finish();

// 2. wait_replicas=1: with no replica linked, nothing is taken.
[$master, $replica] = pair();
ini_set('redis_lock.server', $master->dsn());
ini_set('redis_lock.wait_replicas', '1');
ini_set('redis_lock.wait_timeout', '0.3');
cut($master, $replica);
[$r, $secs] = rl_timed(fn () => $takes('2'));
echo "wait_replicas=1, no replica linked: ", rl_mask_ports(json_encode($r), [$master]), "\n";
echo "within the wait timeouts: ", rl_within($secs, 0.85, 3.0), ", on the master: ", json_encode(rl_limits_ours($master)), ", held: ", json_encode($held('2')), "\n";
$replica->resume();
echo "replica linked again: ", var_export(rl_eventually(fn () => str_contains((string) $master->cmd('INFO', 'replication'), 'connected_slaves:1'), true, 10.0), true), "\n";
echo "taken with the replica linked: ", json_encode($takes('2')), "\n";
cut($master, $replica);
promote($master, $replica);
echo "on the promoted replica: ", json_encode(array_keys(rl_limits_ours($replica))), "\n";
$b = new RlActor($replica);
echo "another process on the promoted replica: ", json_encode($others($b, '2')), "\n";
$b1 = new RlActor($replica, ['redis_lock.wait_replicas' => '1', 'redis_lock.wait_timeout' => '0.3']);
echo "another process with wait_replicas=1 there: ", rl_mask_ports(json_encode($others($b1, '2')), [$replica]), "\n";
$b->finish();
$b1->finish();
?>
--EXPECT--
wait_replicas=0, taken on the master: ["true","true","true"]
on the promoted replica: []
another process on the promoted replica, while the first holder holds them: ["true","true","true"]
wait_replicas=1, no replica linked: ["RedisLockException: Redis at 127.0.0.1:P1: the lock reached 0 of the 1 replicas redis_lock.wait_replicas asks for within 0.3 s, so it was released","RedisLockException: Redis at 127.0.0.1:P1: the lock reached 0 of the 1 replicas redis_lock.wait_replicas asks for within 0.3 s, so it was released","RedisLockException: Redis at 127.0.0.1:P1: the lock reached 0 of the 1 replicas redis_lock.wait_replicas asks for within 0.3 s, so it was released"]
within the wait timeouts: true, on the master: [], held: [0,0,0]
replica linked again: true
taken with the replica linked: ["true","true","true"]
on the promoted replica: ["lock:m2","lock:rw2","lock:sem2"]
another process on the promoted replica: ["false","false","false"]
another process with wait_replicas=1 there: ["false","false","false"]
