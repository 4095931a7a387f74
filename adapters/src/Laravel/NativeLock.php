<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Contracts\Events\Dispatcher;
use RedisLock\Internal\Server;
use RedisLock\Internal\ShutdownRelease;
use RedisLock\Laravel\Events\LockAcquiredAfterWait;
use RedisLock\Laravel\Events\LockLeaseLost;
use RedisLock\Laravel\Events\LockWaitTimedOut;

/**
 * A Laravel cache lock on the redis_lock extension (RedisMutexLock's
 * owner-level API). The lock is the Redis key redis_lock.prefix . $name (or,
 * with a $keyPrefix, $keyPrefix . $name), its value the lock's owner.
 *
 * - $seconds > 0: taken for $seconds seconds, never renewed.
 * - $seconds <= 0 (Laravel: "never expires"): taken for a lease of
 *   LEASE_SECONDS (see lease()) that the extension renews every third of it
 *   while this process' request runs, so it is held until release() for as
 *   long as its holder lives, and a killed worker's lock frees within one
 *   lease instead of never. Renewals end with the request (a CLI worker's
 *   request is its whole run): the lock then expires one lease later.
 * - get(): one attempt, as Laravel's SET NX: false while anybody holds the
 *   lock, its own owner included (a second get() of the same lock is false
 *   and leaves the TTL alone).
 * - block($seconds): waits in the key's FIFO queue; the releasing process
 *   hands the lock to the longest waiter and wakes only it (no usleep() loop,
 *   so betweenBlockedAttemptsSleepFor() has no effect). LockTimeoutException
 *   after $seconds. A lock its own owner holds is not handed to that owner:
 *   block() then waits until it expires (taking it then) or until $seconds
 *   have passed.
 * - refresh($seconds = null): owner-checked; $seconds (default: the lock's)
 *   > 0 sets the TTL to $seconds and ends renewals; <= 0 (Laravel: removes
 *   the expiration) makes it a renewed lease as with lock($name, 0).
 * - release(): owner-checked, from any process (restoreLock()); to the first
 *   waiter, if any.
 * - get($callback), block($seconds, $callback): the lock is released when the
 *   callback returns or throws, as in Laravel, and also when the request ends
 *   inside the callback (a fatal error such as memory_limit or
 *   max_execution_time, or exit()), which skips Laravel's finally block: a
 *   shutdown function releases it then (owner-checked), instead of leaving it
 *   to its TTL (or, with $seconds <= 0, its lease). Not in a process forked
 *   inside the callback. get() and block() without a callback are unchanged:
 *   such a lock outlives the request until release() or its TTL.
 * - isLocked(), isOwnedBy($owner), isOwnedByCurrentProcess(): read the key's
 *   value (Laravel 10+/13 API, also on older Laravel).
 * - Redis unreachable, no reply or an error reply: RedisLockException (a
 *   RuntimeException) from every method, as Laravel's RedisLock lets its
 *   client's exceptions through; block() does not turn it into a timeout.
 *   A renewed lock ($seconds <= 0) that was lost (another process released or
 *   took it, it expired while the process was frozen, or Redis could not be
 *   reached to renew it) makes the next release() return false, as Laravel's
 *   release() of a lock no longer its owner's does (the owner-level
 *   RedisMutexLock::releaseOwner() answers false for it).
 * - Events (dispatchTo(), set by the redis_lock store when the application
 *   has an event dispatcher): LockAcquiredAfterWait and LockWaitTimedOut from
 *   block(), LockLeaseLost when release() or refresh() finds the lock this
 *   object took no longer its owner's (it expired or was taken meanwhile);
 *   each only when something listens for it.
 */
class NativeLock extends Lock
{
    /** The lease of a lock taken with $seconds <= 0, renewed while its holder runs. */
    public const LEASE_SECONDS = 30;

    /** @var int */
    protected $leaseSeconds = self::LEASE_SECONDS;

    /** @var string|null */
    protected $server;

    /** @var string|null */
    protected $keyPrefix;

    /** @var Dispatcher|null */
    protected $events;

    /** @var string|null the name events carry (the store's lock name, without its prefix) */
    protected $eventName;

    /** Whether this object took the lock and has not released it since: a refusal then is a lost lease. */
    private bool $takenHere = false;

    /**
     * @param string      $name
     * @param int         $seconds   0: held until release (renewed lease)
     * @param string|null $owner     null: RedisMutexLock::newOwner()
     * @param string|null $server    a redis_lock.server DSN for this lock's calls (null: redis_lock.server)
     * @param string|null $keyPrefix what precedes $name in the Redis key, in place of redis_lock.prefix
     *                               (null: redis_lock.prefix); e.g. the prefix of Laravel's own
     *                               RedisStore locks, so that both lock the same key
     */
    public function __construct($name, $seconds, $owner = null, ?string $server = null, ?string $keyPrefix = null)
    {
        parent::__construct((string) $name, (int) $seconds, $owner ?? \RedisMutexLock::newOwner());
        $this->server = $server;
        $this->keyPrefix = $keyPrefix;
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
     * Dispatch this lock's events (see the class comment) to $events, naming
     * the lock $name (null: its name).
     *
     * @return $this
     */
    public function dispatchTo(?Dispatcher $events, ?string $name = null)
    {
        $this->events = $events;
        $this->eventName = $name;

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
     * Attempt to acquire the lock (one attempt); with a callback, run it and
     * release the lock after it (see the class comment).
     *
     * @param  callable|null  $callback
     * @return mixed the result of acquire(), or the callback's result
     */
    public function get($callback = null)
    {
        $result = $this->acquire();

        if ($result && is_callable($callback)) {
            return $this->runAndRelease($callback);
        }

        return $result;
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
            return $this->runAndRelease($callback);
        }

        return true;
    }

    /**
     * Set the lock's TTL to $seconds (default: the lock's) if this lock's
     * owner holds it; $seconds <= 0: held until released, as a renewed lease.
     *
     * @param  int|null  $seconds
     * @return bool false when this lock's owner does not hold it
     */
    public function refresh($seconds = null)
    {
        $seconds = (int) ($seconds ?? $this->seconds);
        $renew = $seconds <= 0;
        $ttl = $this->ttl($renew ? 0 : $seconds);

        return $this->takenHere = $this->watchingTheLease(function () use ($ttl, $renew): bool {
            if (!$this->call(fn (): bool => \RedisMutexLock::extendOwner($this->name, $this->owner, $ttl))) {
                return false;
            }

            // Renewals start or end in this process: acquire() of a key that
            // holds our owner sets its TTL and how it is renewed. (It would take
            // the key if it was released since extendOwner(): one round trip.)
            return $this->call(fn (): bool => \RedisMutexLock::acquire($this->name, $this->owner, $ttl, 0, $renew));
        });
    }

    /**
     * Release the lock if this lock's owner holds it.
     *
     * @return bool
     */
    public function release()
    {
        $released = $this->watchingTheLease(fn (): bool => $this->call(fn (): bool => \RedisMutexLock::releaseOwner($this->name, $this->owner)));
        $this->takenHere = false;

        return $released;
    }

    /**
     * Release the lock whoever holds it.
     *
     * @return bool true when a lock was released, false when it was free
     */
    public function forceRelease()
    {
        $this->takenHere = false;

        return $this->call(fn (): bool => \RedisMutexLock::forceRelease($this->name));
    }

    /**
     * Whether anybody holds the lock now.
     */
    public function isLocked(): bool
    {
        return $this->getCurrentOwner() !== null;
    }

    /**
     * Whether this lock's owner holds the lock now (in any process).
     *
     * @return bool
     */
    public function isOwnedByCurrentProcess()
    {
        return $this->isOwnedBy($this->owner);
    }

    /**
     * Whether $owner holds the lock now; isOwnedBy(null): it is free.
     *
     * @param  string|null  $owner
     * @return bool
     */
    public function isOwnedBy($owner)
    {
        return $this->getCurrentOwner() === $owner;
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

    /** What precedes the name in the Redis key; null: redis_lock.prefix. */
    public function getKeyPrefix(): ?string
    {
        return $this->keyPrefix;
    }

    protected function attempt(float $timeout): bool
    {
        $taken = $this->tryToTake($timeout);
        $this->takenHere = $this->takenHere || $taken;

        return $taken;
    }

    private function tryToTake(float $timeout): bool
    {
        $start = hrtime(true);
        $deadline = $start / 1e9 + $timeout;
        $waited = false;
        // The extension refreshes a key that already holds the owner; Laravel
        // (SET NX) refuses it. One look first: a lock its own owner holds is
        // not taken again, and waiting for it can end only with its expiry.
        while ($this->getCurrentOwner() === $this->owner) {
            $left = $deadline - hrtime(true) / 1e9;
            if ($left <= 0) {
                return $this->waitEnded(false, $start, $timeout);
            }
            $ttl = $this->call(fn (): array => \RedisMutexLock::inspect($this->name))['ttl'];
            if ($ttl === null) {
                continue; // expired since the look above: look again, do not sleep
            }
            // -1: it never expires, so only the deadline ends the wait.
            $sleep = $ttl < 0 ? $left : min($left, $ttl / 1000);
            usleep((int) ceil(max(0.01, $sleep) * 1e6));
            $waited = true;
        }
        $renew = $this->seconds <= 0;
        $ttl = $this->ttl($this->seconds);
        $acquire = fn (float $seconds): bool => $this->call(fn (): bool => \RedisMutexLock::acquire($this->name, $this->owner, $ttl, $seconds, $renew));
        if ($this->events === null || $timeout <= 0.0) {
            return $acquire(max(0.0, $deadline - hrtime(true) / 1e9));
        }
        // Only a listener of LockAcquiredAfterWait needs to tell a wait from
        // none: one attempt first, a second round trip only when contended.
        if (!$waited && $this->listened(LockAcquiredAfterWait::class) && $acquire(0.0)) {
            return true;
        }

        return $this->waitEnded($acquire(max(0.0, $deadline - hrtime(true) / 1e9)), $start, $timeout);
    }

    /** The end of a wait that did not end at once: its event. */
    private function waitEnded(bool $acquired, int $start, float $timeout): bool
    {
        if ($timeout > 0.0) {
            $class = $acquired ? LockAcquiredAfterWait::class : LockWaitTimedOut::class;
            if ($this->listened($class)) {
                $this->events->dispatch(new $class($this->eventName ?? $this->name, (int) round((hrtime(true) - $start) / 1e6), $this->owner));
            }
        }

        return $acquired;
    }

    /**
     * Runs $call (release, refresh). When the lock turns out lost (the call
     * throws RedisLockLostException, or refuses although this object took
     * the lock and has not released it: it expired or was taken meanwhile),
     * LockLeaseLost is dispatched first.
     *
     * @param \Closure(): bool $call
     */
    private function watchingTheLease(\Closure $call): bool
    {
        try {
            $done = $call();
        } catch (\RedisLockLostException $e) {
            $this->leaseLost();
            throw $e;
        }
        if (!$done && $this->takenHere) {
            $this->leaseLost();
        }

        return $done;
    }

    private function leaseLost(): void
    {
        if ($this->listened(LockLeaseLost::class)) {
            $this->events->dispatch(new LockLeaseLost($this->eventName ?? $this->name, $this->owner));
        }
    }

    private function listened(string $class): bool
    {
        return $this->events !== null && $this->events->hasListeners($class);
    }

    /**
     * Runs $callback under the lock; releases it after (also when the request
     * ends inside $callback).
     *
     * @return mixed
     */
    protected function runAndRelease(callable $callback)
    {
        return ShutdownRelease::during(fn () => $this->release(), $callback);
    }

    /** Milliseconds: $seconds, or the lease when $seconds <= 0. */
    private function ttl(int $seconds): int
    {
        return ($seconds > 0 ? $seconds : $this->leaseSeconds) * 1000;
    }

    /**
     * @template T
     * @param \Closure(): T $call
     * @return T
     */
    protected function call(\Closure $call): mixed
    {
        return Server::call($this->server, $call, $this->keyPrefix);
    }
}
