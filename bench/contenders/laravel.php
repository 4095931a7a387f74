<?php
/**
 * Laravel 8 (Debian php-illuminate-cache + php-illuminate-redis), built by
 * hand without the framework: a RedisManager with the phpredis driver and a
 * persistent connection, and the cache RedisStore on it. $store->lock() is
 * what Cache::lock() calls; over a PhpRedisConnection it returns
 * Illuminate\Cache\PhpRedisLock (a RedisLock that packs the owner for
 * phpredis serializers): SET EX NX to acquire, EVAL compare-and-delete to release.
 */

declare(strict_types=1);

namespace Bench;

use Illuminate\Cache\RedisLock;
use Illuminate\Cache\RedisStore;

return fn (array $servers): Contender => new class($servers[0]['host'], $servers[0]['port']) implements Contender {
    private const KEY = 'bench:laravel';

    private RedisStore $store;
    private ?RedisLock $lock = null;

    public function __construct(string $host, int $port)
    {
        $this->store = laravel_store($host, $port);
    }

    public function redisKey(): string
    {
        return self::KEY;
    }

    public function acquire(): void
    {
        $this->lock = $this->store->lock(self::KEY, TTL_SECONDS);
        $this->lock->acquire() || fail('RedisLock::acquire() returned false');
    }

    public function release(): void
    {
        $this->lock->release() || fail('RedisLock::release() returned false');
    }
};
