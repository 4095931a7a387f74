<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Events\Dispatcher;

/**
 * Makes NativeLocks: lock($name, $seconds, $owner) and restoreLock($name,
 * $owner), the latter to release or check from another process a lock whose
 * owner was passed along (a queued job, another request); and
 * semaphoreFunnel($name), a Funnel on this provider's server and prefix.
 *
 * The Redis key of lock($name) is redis_lock.prefix . $prefix . $name, or,
 * with a $keyPrefix, $keyPrefix . $prefix . $name: $keyPrefix takes the place
 * of redis_lock.prefix. It is the key compatibility setting for a migration
 * from Laravel's own Redis locks (Illuminate\Cache\RedisLock, whose key is
 * the lock connection's Redis prefix . the cache prefix . $name, with ":"
 * after a non-empty cache prefix before Laravel 11): set to that prefix, the
 * two lock the same key, so that old and new code exclude each other.
 */
class NativeLockProvider implements LockProvider
{
    /** @var string|null */
    protected $server;

    /** @var string */
    protected $prefix;

    /** @var int */
    protected $leaseSeconds;

    /** @var string|null */
    protected $keyPrefix;

    /** @var Dispatcher|null where its locks' events go (NativeLock::dispatchTo()) */
    protected $events;

    /**
     * @param string|null $server       a redis_lock.server DSN (null: redis_lock.server)
     * @param string      $prefix       prepended to lock names (after redis_lock.prefix, or $keyPrefix)
     * @param int         $leaseSeconds the renewed lease of locks taken with $seconds = 0
     * @param string|null $keyPrefix    the start of every key, in place of redis_lock.prefix (null: redis_lock.prefix)
     */
    public function __construct(?string $server = null, string $prefix = '', int $leaseSeconds = NativeLock::LEASE_SECONDS, ?string $keyPrefix = null)
    {
        $this->server = $server;
        $this->prefix = $prefix;
        $this->leaseSeconds = $leaseSeconds;
        $this->keyPrefix = $keyPrefix;
    }

    /**
     * @param  string  $name
     * @param  int  $seconds 0: held until release, with a renewed lease
     * @param  string|null  $owner
     * @return NativeLock
     */
    public function lock($name, $seconds = 0, $owner = null)
    {
        return (new NativeLock($this->prefix . $name, $seconds, $owner, $this->server, $this->keyPrefix))
            ->lease($this->leaseSeconds)
            ->dispatchTo($this->events, (string) $name);
    }

    /**
     * Where the events of this provider's locks go (see NativeLock); null:
     * nowhere. Set by the redis_lock cache driver when the application has
     * an event dispatcher.
     */
    public function setLockEventDispatcher(?Dispatcher $events): void
    {
        $this->events = $events;
    }

    /**
     * @param  string  $name
     * @param  string  $owner
     * @return NativeLock
     */
    public function restoreLock($name, $owner)
    {
        return $this->lock($name, 0, $owner);
    }

    /**
     * A concurrency limiter on a RedisSemaphore named prefix . $name, in the
     * shape of Cache::funnel() (see Funnel): through the cache manager,
     * Cache::store('redis_lock')->semaphoreFunnel('imports')->limit(4)->block(5)->then(...).
     * A timeout throws Illuminate\Cache\Limiters\LimiterTimeoutException, as
     * Cache::funnel() does (before Laravel 12, which lacks that class,
     * Illuminate\Contracts\Redis\LimiterTimeoutException).
     *
     * @param  string  $name
     * @return Funnel
     */
    public function semaphoreFunnel($name)
    {
        $timeout = 'Illuminate\\Cache\\Limiters\\LimiterTimeoutException';

        return new Funnel($this->prefix . $name, $this->server, class_exists($timeout) ? $timeout : null, $this->keyPrefix);
    }

    /** The start of every key, in place of redis_lock.prefix; null: redis_lock.prefix. */
    public function getKeyPrefix(): ?string
    {
        return $this->keyPrefix;
    }

    /** The redis_lock.server DSN of its locks; null: redis_lock.server. */
    public function getServer(): ?string
    {
        return $this->server;
    }
}
