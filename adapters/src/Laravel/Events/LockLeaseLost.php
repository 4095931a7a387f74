<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Events;

/**
 * A lock of the redis_lock store was no longer its owner's when the object
 * that took it called release() or refresh(): it expired (the work outlived
 * its seconds, or a renewed lock's lease ran out while its process froze or
 * could not reach Redis) or another owner took it, or a force release freed
 * it. The work done under it since then was not protected. release() and
 * refresh() return false, as Laravel's do (a RedisLockLostException, where
 * the extension throws one, goes on after the event). Dispatched only when
 * a listener is registered for it. A lock restored in another process
 * (restoreLock()) did not take it, and reports nothing.
 */
final class LockLeaseLost
{
    /**
     * @param string $key   the lock's name, as given to Cache::lock() (without the store's prefix)
     * @param string $owner the owner token that lost it
     */
    public function __construct(
        public readonly string $key,
        public readonly string $owner,
    ) {
    }
}
