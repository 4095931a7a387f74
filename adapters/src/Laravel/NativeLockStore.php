<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Contracts\Cache\CanFlushLocks;

// One class for every Laravel version: where the installed Laravel has the
// CanFlushLocks contract (13+), the store declares it, so that
// Cache::flushLocks() and `cache:clear --locks` reach flushLocks().
if (interface_exists(CanFlushLocks::class)) {
    /**
     * The store of the `redis_lock` cache driver: locks only; cache calls go
     * to the store named by its `cache` option. See LockStore.
     */
    class NativeLockStore extends LockStore implements CanFlushLocks
    {
    }
} else {
    /**
     * The store of the `redis_lock` cache driver: locks only; cache calls go
     * to the store named by its `cache` option. See LockStore.
     */
    class NativeLockStore extends LockStore
    {
    }
}
