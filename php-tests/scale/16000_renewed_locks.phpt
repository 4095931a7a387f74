--TEST--
Audit, scale: one process holding 16,000 renewed locks (redis_lock.auto_renew=1, 2 s TTLs: 16,000 renewals due every 2/3 s) — 12,000 RedisMutexLock locks, 2,000 RedisReadWriteLock read holds, 2,000 RedisSemaphore permits — keeps every one of them for 3 TTLs (each key still there with its TTL renewed, every release true, none reported lost); a watchdog renewing one lock per round trip fell behind and lost every one
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.auto_renew', '1');

$kinds = ['mutex' => 12000, 'read' => 2000, 'permit' => 2000];
$take = fn(string $kind, string $key) => match ($kind) {
    'mutex' => RedisMutexLock::lock($key, 0, 2),
    'read' => RedisReadWriteLock::lockRead($key, 0, 2),
    'permit' => RedisSemaphore::acquire($key, 2, 0, 2),
};
$release = fn(string $kind, string $key) => match ($kind) {
    'mutex' => RedisMutexLock::release($key),
    'read' => RedisReadWriteLock::release($key),
    'permit' => RedisSemaphore::release($key),
};
$taken = 0;
foreach ($kinds as $kind => $n) {
    for ($i = 0; $i < $n; $i++) {
        $taken += (int) $take($kind, "$kind:$i");
    }
}
echo "taken: $taken\n";
$start = rl_now();
$worst = PHP_INT_MAX;
while (rl_now() - $start < 6) {
    // A sample of TTLs, every 0.3 s: a lock not renewed in time is gone (-2).
    rl_sleep(0.3);
    foreach ($kinds as $kind => $n) {
        foreach ([0, $n >> 1, $n - 1] as $i) {
            $worst = min($worst, $redis->cmd('PTTL', "lock:$kind:$i"));
        }
    }
}
echo 'keys after 3 TTLs: ', $redis->cmd('DBSIZE'), "\n";
echo 'every sampled TTL stayed above 0: ', json_encode($worst > 0), "\n";
$released = $lost = 0;
foreach ($kinds as $kind => $n) {
    for ($i = 0; $i < $n; $i++) {
        try {
            $released += (int) $release($kind, "$kind:$i");
        } catch (RedisLockLostException $e) {
            $lost++;
        }
    }
}
echo "released: $released, lost: $lost\n";
echo 'keys left: ', $redis->cmd('DBSIZE'), "\n";
?>
--EXPECT--
taken: 16000
keys after 3 TTLs: 16000
every sampled TTL stayed above 0: true
released: 16000, lost: 0
keys left: 0
