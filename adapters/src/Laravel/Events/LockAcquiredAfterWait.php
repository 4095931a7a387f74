<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Events;

/**
 * A lock of the redis_lock cache store was taken by block() after waiting
 * behind another holder: the lock was contended. Dispatched only when a listener is registered for it (its check
 * costs one extra round trip, and only on contended acquisitions).
 */
final class LockAcquiredAfterWait
{
    /**
     * @param string $key      the lock's name, as given to Cache::lock() (without the store's prefix)
     * @param int    $waitedMs how long block() waited, in milliseconds
     * @param string $owner    the lock's owner token (Laravel's owner)
     */
    public function __construct(
        public readonly string $key,
        public readonly int $waitedMs,
        public readonly string $owner,
    ) {
    }
}
