<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use RedisLock\Internal\Server;

/**
 * A Laravel cache lock on the redis_lock extension (RedisMutexLock's
 * owner-level API). The lock is the Redis key redis_lock.prefix . $name, its
 * value the lock's owner.
 *
 * - $seconds > 0: taken for $seconds seconds, never renewed.
 * - $seconds <= 0 (Laravel: "never expires"): taken for a lease of
 *   LEASE_SECONDS (see lease()) that the extension renews every third of it
 *   while this process' request runs, so it is held until release() for as
 *   long as its holder lives, and a killed worker's lock frees within one
 *   lease instead of never. Renewals end with the request (a CLI worker's
 *   request is its whole run): the lock then expires one lease later.
 * - get(): one attempt (SET NX PX). Of a lock this process already holds for
 *   the same owner, get() refreshes the TTL and returns true.
 * - block($seconds): waits in the key's FIFO queue; the releasing process
 *   hands the lock to the longest waiter and wakes only it (no usleep() loop,
 *   so betweenBlockedAttemptsSleepFor() has no effect). LockTimeoutException
 *   after $seconds.
 * - release(): owner-checked, from any process (restoreLock()); to the first
 *   waiter, if any.
 * - Redis unreachable, no reply or an error reply: RedisLockException (a
 *   RuntimeException) from every method, as Laravel's RedisLock lets its
 *   client's exceptions through; block() does not turn it into a timeout.
 *   A renewed lock ($seconds <= 0) that was lost (another process released or
 *   took it, it expired while the process was frozen, or Redis could not be
 *   reached to renew it) makes the next release() throw RedisLockLostException
 *   (a RedisLockException) once, instead of returning false.
 */
class NativeLock extends Lock
{
    /** The lease of a lock taken with $seconds <= 0, renewed while its holder runs. */
    public const LEASE_SECONDS = 30;

    /** @var int */
    protected $leaseSeconds = self::LEASE_SECONDS;

    /** @var string|null */
    protected $server;

    /**
     * @param string      $name
     * @param int         $seconds 0: held until release (renewed lease)
     * @param string|null $owner   null: RedisMutexLock::newOwner()
     * @param string|null $server  a redis_lock.server DSN for this lock's calls (null: redis_lock.server)
     */
    public function __construct($name, $seconds, $owner = null, ?string $server = null)
    {
        parent::__construct((string) $name, (int) $seconds, $owner ?? \RedisMutexLock::newOwner());
        $this->server = $server;
    }

    /**
     * The lease, in seconds, of this lock when taken with $seconds <= 0.
     *
     * @return $this
     */
    public function lease(int $seconds)
    {
        if ($seconds < 1) {
            throw new \InvalidArgumentException('The lease must be at least 1 second.');
        }
        $this->leaseSeconds = $seconds;

        return $this;
    }

    /**
     * Attempt to acquire the lock (one attempt).
     *
     * @return bool
     */
    public function acquire()
    {
        return $this->attempt(0.0);
    }

    /**
     * Wait up to $seconds in the lock's FIFO queue.
     *
     * @param  int|float  $seconds
     * @param  callable|null  $callback
     * @return mixed true, or the callback's result (the lock is released after it)
     *
     * @throws \Illuminate\Contracts\Cache\LockTimeoutException
     */
    public function block($seconds, $callback = null)
    {
        if (!$this->attempt(max(0.0, (float) $seconds))) {
            throw new LockTimeoutException();
        }

        if (is_callable($callback)) {
            try {
                return $callback();
            } finally {
                $this->release();
            }
        }

        return true;
    }

    /**
     * Release the lock if this lock's owner holds it.
     *
     * @return bool
     */
    public function release()
    {
        return $this->call(fn (): bool => \RedisMutexLock::releaseOwner($this->name, $this->owner));
    }

    /**
     * Release the lock whoever holds it.
     *
     * @return bool true when a lock was released, false when it was free
     */
    public function forceRelease()
    {
        return $this->call(fn (): bool => \RedisMutexLock::forceRelease($this->name));
    }

    /**
     * Whether this lock's owner holds the lock now (in any process).
     *
     * @return bool
     */
    public function isOwnedByCurrentProcess()
    {
        return $this->getCurrentOwner() === $this->owner;
    }

    /**
     * The owner value stored for this lock, or null when it is free.
     *
     * @return string|null
     */
    protected function getCurrentOwner()
    {
        return $this->call(fn (): ?string => \RedisMutexLock::owner($this->name));
    }

    public function getName(): string
    {
        return $this->name;
    }

    public function getSeconds(): int
    {
        return $this->seconds;
    }

    public function getServer(): ?string
    {
        return $this->server;
    }

    protected function attempt(float $timeout): bool
    {
        $renew = $this->seconds <= 0;
        $ttl = ($renew ? $this->leaseSeconds : $this->seconds) * 1000;

        return $this->call(fn (): bool => \RedisMutexLock::acquire($this->name, $this->owner, $ttl, $timeout, $renew));
    }

    /**
     * @template T
     * @param \Closure(): T $call
     * @return T
     */
    protected function call(\Closure $call): mixed
    {
        return Server::call($this->server, $call);
    }
}
