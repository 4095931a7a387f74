<?php
// symfony/lock 5.4 (Debian php-symfony-lock): LockFactory over Store\RedisStore
// over a \Redis client; createLock($key, 10)->acquire() and ->release(). With a
// TTL that is four EVALs per request (save + putOffExpiration, delete + exists).
require_once 'Symfony/Component/Lock/autoload.php';

function bench_symfony(bool $persistent): void
{
    $redis = new Redis();
    $persistent
        ? $redis->pconnect('127.0.0.1', (int) getenv('BENCH_REDIS_PORT'), 1.0)
        : $redis->connect('127.0.0.1', (int) getenv('BENCH_REDIS_PORT'), 1.0);
    $factory = new Symfony\Component\Lock\LockFactory(new Symfony\Component\Lock\Store\RedisStore($redis));
    $lock = $factory->createLock('bench:fpm:symfony:' . getmypid(), 10);
    try {
        if (!$lock->acquire()) {
            throw new RuntimeException('acquire() returned false');
        }
        $lock->release();
    } catch (Throwable $e) {
        http_response_code(500);
        exit('lock or release failed: ' . $e->getMessage() . "\n");
    }
    echo "ok\n";
}
