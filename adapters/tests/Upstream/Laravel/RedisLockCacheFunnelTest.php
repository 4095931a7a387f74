<?php

declare(strict_types=1);

namespace RedisLock\Tests\Upstream\Laravel;

use Illuminate\Contracts\Cache\Repository;
use Illuminate\Support\Facades\Cache;

/**
 * laravel/framework's CacheFunnelTestCase (Cache::funnel(), Laravel 12+'s
 * concurrency limiter on a store's locks) against the redis_lock store, as
 * upstream's RedisCacheFunnelTest runs it against Laravel's RedisStore.
 */
class RedisLockCacheFunnelTest extends CacheFunnelTestCase
{
    protected function cache(): Repository
    {
        return Cache::store('redis');
    }
}
