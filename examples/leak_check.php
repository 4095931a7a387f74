<?php
// Run by `make test-valgrind`: every code path of the extension, many times.
// Arguments: the ports of three throwaway servers (the first is redis_lock.server).
$cycles = 3000;
$ports = array_slice($argv, 1, 3);
$ok = 0;
for ($i = 0; $i < $cycles; $i++) {
    $key = "leak-$i-\0\r\n" . str_repeat('x', $i % 64);
    $ok += (int) RedisMutexLock::lock($key, 0, 5);
    $ok += (int) RedisMutexLock::lock($key);           // held by us: a nested hold
    $ok += (int) (RedisMutexLock::fence($key) > 0);
    $ok += (int) RedisMutexLock::extend($key, 5);
    $ok += (int) (RedisMutexLock::inspect($key)['count'] === 2);
    $ok += (int) RedisMutexLock::release($key);
    $ok += (int) RedisMutexLock::release($key);
    $ok += (int) !RedisMutexLock::release($key);       // not ours any more
    $ok += (int) RedisMutexLock::acquire($key, "owner-$i", 5000);
    $ok += (int) (RedisMutexLock::owner($key) === "owner-$i");
    $ok += (int) RedisMutexLock::releaseOwner($key, "owner-$i");
}
$checks = 11 * $cycles;
// Renewals: the thread renews 50 locks past their lease, then they are released.
ini_set('redis_lock.auto_renew', '1');
for ($i = 0; $i < 50; $i++) {
    $ok += (int) RedisMutexLock::lock("renewed-$i", 0, 1);
}
usleep(1500000);
for ($i = 0; $i < 50; $i++) {
    $ok += (int) RedisMutexLock::release("renewed-$i");
}
$checks += 100;
ini_set('redis_lock.auto_renew', '0');
$errors = 0;
$calls = [
    fn () => RedisMutexLock::lock(''),
    fn () => RedisMutexLock::lock('k', -1),
    fn () => RedisMutexLock::lock('k', NAN),
    fn () => RedisMutexLock::lock('k', 0, 0),
    fn () => RedisMutexLock::lock('k', 0, 1, -1),
    fn () => RedisMutexLock::lock([]),
    fn () => RedisMutexLock::release(''),
];
for ($i = 0; $i < 100; $i++) {
    foreach ($calls as $call) {
        try { $call(); } catch (Throwable $e) { $errors++; }
    }
}
$server = ini_get('redis_lock.server');
ini_set('redis_lock.server', 'redis://127.0.0.1:1');
for ($i = 0; $i < 50; $i++) {
    try { RedisMutexLock::lock('k'); } catch (RedisLockException $e) { $errors++; }
}
ini_set('redis_lock.server', 'nonsense');
try { RedisMutexLock::lock('k'); } catch (ValueError $e) { $errors++; }
ini_set('redis_lock.server', $server);
RedisMutexLock::lock('held-at-exit');                  // released at request shutdown

// RedLock over the three servers: lock, extend, unlock, refusals, errors.
$redlock = new RedLock(array_map(fn ($p) => ['127.0.0.1', (int) $p, 0.5], $ports), 0, 1);
$red = 0;
for ($i = 0; $i < 500; $i++) {
    $lock = $redlock->lock("red-$i", 10000);
    $red += (int) is_array($lock);
    $red += (int) ($redlock->lock("red-$i", 10000) === false);
    $lock = $redlock->extend($lock, 20000);
    $red += (int) is_array($lock);
    $red += (int) $redlock->unlock($lock);
}
$half = new RedLock(['redis://127.0.0.1:' . $ports[0], ['127.0.0.1', 1], ['127.0.0.1', 2]], 0, 2);
for ($i = 0; $i < 50; $i++) {
    try { $half->lock('k', 1000); } catch (RedisLockException $e) { $errors++; }
}
$redCalls = [
    fn () => new RedLock([]),
    fn () => new RedLock([['127.0.0.1', 0]]),
    fn () => new RedLock(['x']),
    fn () => new RedLock([['127.0.0.1', 1], ['127.0.0.1', 1]]),
    fn () => $redlock->lock('', 10),
    fn () => $redlock->lock('k', 0),
    fn () => $redlock->unlock(['resource' => 'k']),
    fn () => $redlock->extend([], 10),
];
for ($i = 0; $i < 50; $i++) {
    foreach ($redCalls as $call) {
        try { $call(); } catch (Throwable $e) { $errors++; }
    }
}
// A server under two names (a name looked up on a thread, INFO for the
// run_id, a vote not counted twice), and a lock past its owner's reach.
$alias = new RedLock([['127.0.0.1', (int) $ports[1]], ['localhost', (int) $ports[1]], ['127.0.0.1', (int) $ports[2]]], 0, 1);
$aliased = 0;
for ($i = 0; $i < 100; $i++) {
    $lock = $alias->lock("alias-$i", 10000);
    $aliased += (int) (is_array($lock) && $alias->unlock($lock));
    $aliased += (int) ($alias->unlock(['resource' => "alias-$i", 'token' => str_repeat('0', 32)]) === false);
}
$redlock->lock('red-held-at-exit', 10000);             // released at request shutdown

// Shared locks: modes, nested holds, permits, owners, inspections, errors.
$shared = 0;
for ($i = 0; $i < 1000; $i++) {
    $key = "shared-$i-\0" . str_repeat('y', $i % 32);
    $shared += (int) RedisReadWriteLock::lockRead($key, 0, 5);
    $shared += (int) RedisReadWriteLock::lockRead($key);          // nested
    $shared += (int) RedisReadWriteLock::lockWrite($key);         // upgrade: the only holder
    $shared += (int) (RedisReadWriteLock::inspect($key)['mode'] === 'write');
    $shared += (int) RedisReadWriteLock::lockRead($key, 1);       // downgrade
    $shared += (int) RedisReadWriteLock::extend($key, 5);
    $shared += (int) RedisReadWriteLock::release($key);
    $shared += (int) RedisReadWriteLock::release($key);
    $shared += (int) RedisSemaphore::acquire($key . 's', 2, 1);
    $shared += (int) (RedisSemaphore::inspect($key . 's')['used'] === 1);
    $shared += (int) RedisSemaphore::release($key . 's');
    $shared += (int) RedisSemaphore::acquireOwner($key . 'o', "owner-$i", 3, 5000, 0, 2);
    $shared += (int) RedisSemaphore::holds($key . 'o', "owner-$i");
    $shared += (int) RedisSemaphore::releaseOwner($key . 'o', "owner-$i");
    $shared += (int) RedisReadWriteLock::acquireOwner($key . 'w', "owner-$i", true, 5000);
    $shared += (int) (RedisReadWriteLock::modeOf($key . 'w', "owner-$i") === 'write');
    $shared += (int) RedisReadWriteLock::releaseOwner($key . 'w', "owner-$i");
}
$sharedCalls = [
    fn () => RedisReadWriteLock::lockRead(''),
    fn () => RedisReadWriteLock::lockWrite('k', -1),
    fn () => RedisSemaphore::acquire('k', 0),
    fn () => RedisSemaphore::acquireOwner('k', 'o', 1, 1000, 0, 2),
];
for ($i = 0; $i < 50; $i++) {
    foreach ($sharedCalls as $call) {
        try { $call(); } catch (Throwable $e) { $errors++; }
    }
}
// The counters, as text and as arrays, after all of the above.
$metrics = 0;
for ($i = 0; $i < 20; $i++) {
    $metrics += (int) str_ends_with(redis_lock_metrics(), "# EOF\n");
    $metrics += (int) (redis_lock_metrics_array()['pool'] !== []);
}
RedisSemaphore::acquire('sem-held-at-exit', 1);       // released at request shutdown
printf("%d of %d checks passed, %d of %d RedLock checks, %d of 200 alias checks, %d of 17000 shared-lock checks, %d of 40 metrics checks, %d errors thrown\n", $ok, $checks, $red, 2000, $aliased, $shared, $metrics, $errors);
exit($ok === $checks && $red === 2000 && $aliased === 200 && $shared === 17000 && $metrics === 40 && $errors === 1401 ? 0 : 1);
