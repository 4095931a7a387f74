<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Contracts\Cache\LockProvider;

/**
 * Makes NativeLocks: lock($name, $seconds, $owner) and restoreLock($name,
 * $owner), the latter to release or check from another process a lock whose
 * owner was passed along (a queued job, another request).
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
}
