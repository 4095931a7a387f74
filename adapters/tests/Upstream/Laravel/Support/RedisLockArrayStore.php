<?php

declare(strict_types=1);

namespace RedisLock\Tests\Upstream\Laravel\Support;

use RedisLock\Laravel\NativeLockStore;

/**
 * What `new ArrayStore` makes in the vendored CacheArrayStoreLockTest: the
 * redis_lock store with its defaults (redis_lock.server, no prefix, the 30 s
 * lease), cache operations on an in-memory ArrayStore.
 */
final class RedisLockArrayStore extends NativeLockStore
{
    public function __construct()
    {
        parent::__construct(null, '', \RedisLock\Laravel\NativeLock::LEASE_SECONDS, new \Illuminate\Cache\ArrayStore());
    }
}
