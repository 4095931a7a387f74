<?php
/**
 * RedisMutexLock (this extension), blocking as applications call it:
 * RedisMutexLock::lock($key, 30, 10) with the default $sleep, then
 * RedisMutexLock::release($key). How it waits is the extension's business
 * (polling every $sleep µs in the seed; a FIFO queue with direct hand-off
 * once that lands). The worker is started with -d redis_lock.server=….
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port): BlockingContender => new class implements BlockingContender {
    private string $key = '';

    public function __construct()
    {
        if (!extension_loaded('redis_lock')) {
            fail('the redis_lock extension is not loaded');
        }
    }

    public function redisKey(string $key): string
    {
        return ini_get('redis_lock.prefix') . $key;
    }

    public function acquire(string $key): void
    {
        \RedisMutexLock::lock($key, CONTENTION_TIMEOUT_SECONDS, CONTENTION_TTL_SECONDS)
            || fail('RedisMutexLock::lock() returned false after waiting ' . CONTENTION_TIMEOUT_SECONDS . ' s');
        $this->key = $key;
    }

    public function release(): void
    {
        \RedisMutexLock::release($this->key) || fail('RedisMutexLock::release() returned false');
    }
};
