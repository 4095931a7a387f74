<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Events;

/**
 * block() gave up: the lock stayed held by someone else for the whole wait
 * (LockTimeoutException follows). Dispatched only when a listener is
 * registered for it.
 */
final class LockWaitTimedOut
{
    /**
     * @param string $key      the lock's name, as given to Cache::lock() (without the store's prefix)
     * @param int    $waitedMs how long block() waited, in milliseconds
     * @param string $owner    the owner token that did not get the lock
     */
    public function __construct(
        public readonly string $key,
        public readonly int $waitedMs,
        public readonly string $owner,
    ) {
    }
}
