<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Contracts\Cache\Repository;
use Illuminate\Contracts\Cache\Store;
use RedisLock\Internal\LockKeys;
use RedisLock\Internal\Server;

/**
 * The body of NativeLockStore (see there), which adds the Laravel interfaces
 * that only some Laravel versions have.
 *
 * The store of the `redis_lock` cache driver: a lock store, not a cache.
 * lock() and restoreLock() make NativeLocks. The cache operations (get, put,
 * increment, forget, flush, …) go to the cache store named by the driver's
 * `cache` option, so that `redis_lock` can be the default store and
 * Cache::lock() native while Cache::get() keeps working; without that option
 * they throw BadMethodCallException.
 *
 * flushLocks() (Laravel 13's CanFlushLocks, `php artisan cache:clear --locks`)
 * force-releases every lock whose key starts with redis_lock.prefix . the
 * store's prefix, through the extension (a waiter is handed the lock, as at
 * any release), and touches no other key: not the delegate cache's data, not
 * the extension's queue keys or fencing counters. With an empty prefix that is
 * every redis_lock lock on the server; give the store a prefix of its own to
 * flush only its locks. hasSeparateLockStore() is true when that prefix is not
 * empty (the locks live in a key space of their own); otherwise flushLocks()
 * throws, as Laravel's stores do when locks share the cache's key space.
 *
 * Key compatibility ($keyPrefix, the driver's `key_prefix` option): the keys
 * are $keyPrefix . prefix . $name instead of redis_lock.prefix . prefix .
 * $name. Set to the prefix of Laravel's own Redis cache store locks (the lock
 * connection's Redis prefix . the cache prefix, see NativeLockProvider), a
 * lock of this store and Laravel's Cache::lock() of the same name are the same
 * Redis key, so that old and new code exclude each other during a migration.
 * Such keys are in that cache store's key space, which holds its cache data
 * too when its lock connection is its cache connection. The store cannot tell,
 * so hasSeparateLockStore() is false and flushLocks() throws rather than
 * delete cache entries.
 *
 * @internal use NativeLockStore
 */
abstract class LockStore extends NativeLockProvider implements Store
{
    /** @var Store|Repository|\Closure|null */
    private $cache;

    /**
     * @param Store|Repository|\Closure(): (Store|Repository)|null $cache where cache operations go (null: they throw)
     * @param string|null $keyPrefix the start of every lock key, in place of redis_lock.prefix (null: redis_lock.prefix)
     */
    public function __construct(?string $server = null, string $prefix = '', int $leaseSeconds = NativeLock::LEASE_SECONDS, $cache = null, ?string $keyPrefix = null)
    {
        parent::__construct($server, $prefix, $leaseSeconds, $keyPrefix);
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

    /** Laravel 12+ (Store::touch()): the delegate's expiration of a cached item. */
    public function touch($key, $seconds)
    {
        return $this->cache()->touch($key, $seconds);
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

    /**
     * Force-release every lock of this store (see the class comment).
     *
     * @throws \RuntimeException when the store has no key space of its own
     * @throws \RedisLockException when Redis cannot answer
     */
    public function flushLocks(): bool
    {
        if (!$this->hasSeparateLockStore()) {
            throw new \RuntimeException('Flushing locks is only supported when the lock store is separate from the cache store: give the redis_lock store a prefix (or set redis_lock.prefix).');
        }
        $base = (string) ini_get('redis_lock.prefix');
        $server = $this->server ?? (string) ini_get('redis_lock.server');
        foreach (LockKeys::under($server, $base . $this->prefix) as $key) {
            $name = substr($key, strlen($base));
            Server::call($this->server, static fn (): bool => \RedisMutexLock::forceRelease($name));
        }

        return true;
    }

    /**
     * Whether this store's locks live in a key space of their own: a
     * non-empty key prefix, and no key_prefix (which puts them in the key
     * space of Laravel's Redis cache store).
     */
    public function hasSeparateLockStore(): bool
    {
        return $this->keyPrefix === null && ini_get('redis_lock.prefix') . $this->prefix !== '';
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
