<?php
/**
 * Laravel 8 Cache::lock($key, 10)->block(30) (Debian php-illuminate-cache +
 * php-illuminate-redis), built as bench/contenders/laravel.php builds it: a
 * RedisManager with the phpredis driver and a persistent connection, and the
 * cache RedisStore on it; lock() returns Illuminate\Cache\PhpRedisLock.
 * block() tries SET EX NX and sleeps 250 ms after every failed attempt; it
 * throws LockTimeoutException after 30 s.
 */

declare(strict_types=1);

namespace Bench;

use Illuminate\Cache\RedisLock;
use Illuminate\Cache\RedisStore;

return fn (string $host, int $port): BlockingContender => new class($host, $port) implements BlockingContender {
    private RedisStore $store;
    private ?RedisLock $lock = null;

    public function __construct(string $host, int $port)
    {
        $this->store = laravel_store($host, $port);
    }

    public function redisKey(string $key): string
    {
        return $key; // the store's prefix is ''
    }

    public function acquire(string $key): void
    {
        $this->lock = $this->store->lock($key, CONTENTION_TTL_SECONDS);
        $this->lock->block(CONTENTION_TIMEOUT_SECONDS) === true || fail('RedisLock::block() did not return true');
    }

    public function release(): void
    {
        $this->lock->release() || fail('RedisLock::release() returned false');
        $this->lock = null;
    }
};
