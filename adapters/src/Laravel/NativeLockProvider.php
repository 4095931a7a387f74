<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Contracts\Cache\LockProvider;

/**
 * Makes NativeLocks: lock($name, $seconds, $owner) and restoreLock($name,
 * $owner), the latter to release or check from another process a lock whose
 * owner was passed along (a queued job, another request); and
 * semaphoreFunnel($name), a Funnel on this provider's server and prefix.
 */
class NativeLockProvider implements LockProvider
{
    /** @var string|null */
    protected $server;

    /** @var string */
    protected $prefix;

    /** @var int */
    protected $leaseSeconds;

    /**
     * @param string|null $server       a redis_lock.server DSN (null: redis_lock.server)
     * @param string      $prefix       prepended to lock names (after redis_lock.prefix)
     * @param int         $leaseSeconds the renewed lease of locks taken with $seconds = 0
     */
    public function __construct(?string $server = null, string $prefix = '', int $leaseSeconds = NativeLock::LEASE_SECONDS)
    {
        $this->server = $server;
        $this->prefix = $prefix;
        $this->leaseSeconds = $leaseSeconds;
    }

    /**
     * @param  string  $name
     * @param  int  $seconds 0: held until release, with a renewed lease
     * @param  string|null  $owner
     * @return NativeLock
     */
    public function lock($name, $seconds = 0, $owner = null)
    {
        return (new NativeLock($this->prefix . $name, $seconds, $owner, $this->server))->lease($this->leaseSeconds);
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

        return new Funnel($this->prefix . $name, $this->server, class_exists($timeout) ? $timeout : null);
    }
}
