--TEST--
Hostile Cluster seeds and sentinels (fake servers: a slot map nested 100,000 deep, a bulk of 999999999999 bytes, a dripping or garbage answer, a node that sends every key back to itself with MOVED, a sentinel naming a master that says it is a replica): RedisLockException naming what went wrong, in bounded time and memory, and a real server works afterwards
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.read_timeout', '0.5');

$cases = [
    // [mode, the commands it is hostile to, cluster or sentinel]
    ['nest', ['CLUSTER'], 'cluster'],
    ['hugebulk', ['CLUSTER'], 'cluster'],
    ['drip', ['CLUSTER'], 'cluster'],
    ['garbage', ['SENTINEL'], 'sentinel'],
    ['nest', ['SENTINEL'], 'sentinel'],
    ['moved', null, 'cluster'],
    ['demoted', null, 'sentinel'],
];
foreach ($cases as [$mode, $only, $kind]) {
    $fake = new RlFakeRedis($mode, $only === null ? [] : ['only' => $only]);
    $dsn = $kind === 'cluster' ? "redis-cluster://127.0.0.1:{$fake->port}" : "redis-sentinel://127.0.0.1:{$fake->port}/mymaster";
    ini_set('redis_lock.server', $dsn);
    [$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k'));
    $msg = str_replace((string) $fake->port, 'P', $r instanceof Throwable ? $r->getMessage() : rl_show($r));
    printf("%s %s: %s%s\n  < 2 s: %s, peak RSS < 200 MB: %s\n", $kind, $mode, $r instanceof RedisLockException ? 'RedisLockException: ' : 'unexpected: ',
        $msg, var_export($secs < 2, true), var_export(rl_peak_rss_mb() < 200, true));
    $fake->stop();
}
ini_set('redis_lock.server', $redis->dsn());
echo "a real server afterwards: ", rl_show(RedisMutexLock::lock('after') && RedisMutexLock::release('after')), ", keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
cluster nest: RedisLockException: Redis at cluster 127.0.0.1:P: the slot map could not be learned: Redis at 127.0.0.1:P: protocol error: array reply nested deeper than 8; connection dropped
  < 2 s: true, peak RSS < 200 MB: true
cluster hugebulk: RedisLockException: Redis at cluster 127.0.0.1:P: the slot map could not be learned: Redis at 127.0.0.1:P: protocol error: bulk reply of 999999999999 bytes (at most 2097152 accepted); connection dropped
  < 2 s: true, peak RSS < 200 MB: true
cluster drip: RedisLockException: Redis at cluster 127.0.0.1:P: the slot map could not be learned: Redis at 127.0.0.1:P: no reply within 0.5 s
  < 2 s: true, peak RSS < 200 MB: true
sentinel garbage: RedisLockException: Redis at master mymaster of sentinels 127.0.0.1:P: no sentinel named a master of mymaster that answers as one: Redis at 127.0.0.1:P: protocol error: unexpected reply type byte 0xff; connection dropped
  < 2 s: true, peak RSS < 200 MB: true
sentinel nest: RedisLockException: Redis at master mymaster of sentinels 127.0.0.1:P: no sentinel named a master of mymaster that answers as one: Redis at 127.0.0.1:P: protocol error: array reply nested deeper than 8; connection dropped
  < 2 s: true, peak RSS < 200 MB: true
cluster moved: RedisLockException: Redis at 127.0.0.1:P: still redirected after 5 redirections (MOVED 1 127.0.0.1:P)
  < 2 s: true, peak RSS < 200 MB: true
sentinel demoted: RedisLockException: Redis at master mymaster of sentinels 127.0.0.1:P: no sentinel named a master of mymaster that answers as one: 127.0.0.1:P names 127.0.0.1:P as the master of mymaster, but it is not one now (a failover is under way)
  < 2 s: true, peak RSS < 200 MB: true
a real server afterwards: true, keys: []
