--TEST--
redis_lock_metrics_array() with redis_lock.auto_renew: each renewal of the watchdog is counted; a renewed lock deleted behind our back is counted lost once (by the renewal that found it gone, not again by the release that reports it)
--INI--
redis_lock.metrics_patterns=r:*
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.auto_renew', '1');

$series = function (): array {
    foreach (redis_lock_metrics_array()['pool'] as $s) {
        if ($s['kind'] === 'mutex' && $s['pattern'] === 'r:*') {
            return $s;
        }
    }
    return ['renewals' => 0, 'lost_leases' => 0, 'acquisitions' => 0, 'hold' => ['count' => 0]];
};
// Waits for a state of the counters, at most $seconds.
$until = function (callable $ok, float $seconds) use ($series): array {
    $end = microtime(true) + $seconds;
    while (!$ok($s = $series()) && microtime(true) < $end) {
        usleep(10000);
    }
    return $s;
};

// TTL 1 s: renewed every third of it.
echo "r:1 locked: ", var_export(RedisMutexLock::lock('r:1', 0, 1), true), "\n";
$s = $until(fn ($s) => $s['renewals'] >= 2, 3);
echo "two renewals within 3 s: ", var_export($s['renewals'] >= 2, true), ", still held by us: ",
    var_export(RedisMutexLock::inspect('r:1')['held'], true), "\n";
echo "released: ", var_export(RedisMutexLock::release('r:1'), true), "\n";

echo "r:2 locked: ", var_export(RedisMutexLock::lock('r:2', 0, 1), true), "\n";
$redis->cmd('DEL', 'lock:r:2');
$s = $until(fn ($s) => $s['lost_leases'] >= 1, 3);
echo "lost within 3 s: ", $s['lost_leases'], "\n";
try {
    RedisMutexLock::release('r:2');
    echo "release: no exception\n";
} catch (RedisLockLostException $e) {
    echo "release: RedisLockLostException\n";
}
$s = $series();
echo "acquisitions: {$s['acquisitions']}, holds: {$s['hold']['count']}, lost: {$s['lost_leases']}\n";
?>
--EXPECT--
r:1 locked: true
two renewals within 3 s: true, still held by us: true
released: true
r:2 locked: true
lost within 3 s: 1
release: RedisLockLostException
acquisitions: 2, holds: 1, lost: 1
