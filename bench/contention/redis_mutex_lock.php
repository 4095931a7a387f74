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
    use RedisMutexLockCycle;

    public function acquire(string $key): void
    {
        \RedisMutexLock::lock($key, CONTENTION_TIMEOUT_SECONDS, CONTENTION_TTL_SECONDS)
            || fail('RedisMutexLock::lock() returned false after waiting ' . CONTENTION_TIMEOUT_SECONDS . ' s');
        $this->key = $key;
    }
};
