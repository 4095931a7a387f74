<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Contracts\Cache\Repository;
use Illuminate\Contracts\Cache\Store;

/**
 * The store of the `redis_lock` cache driver: a lock store, not a cache.
 * lock() and restoreLock() make NativeLocks. The cache operations (get, put,
 * increment, forget, flush, …) go to the cache store named by the driver's
 * `cache` option, so that `redis_lock` can be the default store and
 * Cache::lock() native while Cache::get() keeps working; without that option
 * they throw BadMethodCallException.
 */
class NativeLockStore extends NativeLockProvider implements Store
{
    /** @var Store|Repository|\Closure|null */
    private $cache;

    /**
     * @param Store|Repository|\Closure(): (Store|Repository)|null $cache where cache operations go (null: they throw)
     */
    public function __construct(?string $server = null, string $prefix = '', int $leaseSeconds = NativeLock::LEASE_SECONDS, $cache = null)
    {
        parent::__construct($server, $prefix, $leaseSeconds);
        $this->cache = $cache;
    }

    public function get($key)
    {
        return $this->cache()->get($key);
    }

    public function many(array $keys)
    {
        return $this->cache()->many($keys);
    }

    public function put($key, $value, $seconds)
    {
        return $this->cache()->put($key, $value, $seconds);
    }

    public function putMany(array $values, $seconds)
    {
        return $this->cache()->putMany($values, $seconds);
    }

    public function increment($key, $value = 1)
    {
        return $this->cache()->increment($key, $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->cache()->decrement($key, $value);
    }

    public function forever($key, $value)
    {
        return $this->cache()->forever($key, $value);
    }

    public function forget($key)
    {
        return $this->cache()->forget($key);
    }

    public function flush()
    {
        return $this->cache()->flush();
    }

    /** The prefix of lock names. */
    public function getPrefix()
    {
        return $this->prefix;
    }

    /** The store cache operations go to. */
    public function cache(): Store
    {
        $cache = $this->cache;
        if ($cache instanceof \Closure) {
            $cache = $this->cache = $cache();
        }
        if ($cache instanceof Repository) {
            $cache = $this->cache = $cache->getStore();
        }
        if ($cache === null) {
            throw new \BadMethodCallException('The redis_lock cache store holds locks only: set its "cache" option to the cache store that get(), put() and the other cache operations should use.');
        }
        if (!$cache instanceof Store || $cache instanceof self) {
            throw new \InvalidArgumentException('The "cache" option of the redis_lock cache store must name a cache store other than a redis_lock one.');
        }

        return $cache;
    }
}
