<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Contracts\Redis\LimiterTimeoutException;
use Illuminate\Support\InteractsWithTime;
use RedisLock\Internal\Server;
use RedisLock\Internal\ShutdownRelease;

/**
 * A concurrency limiter in the shape of Laravel's funnels
 * (Redis::funnel() and, from Laravel 12, Cache::funnel(): their
 * ConcurrencyLimiterBuilder), on a RedisSemaphore instead of N slot locks:
 *
 *     Funnel::for('imports')->limit(4)->releaseAfter(60)->block(5)->then(
 *         fn () => import(),
 *         fn (LimiterTimeoutException $e) => report('busy'),
 *     );
 *
 * - then($callback, $failure = null) takes one permit of the semaphore
 *   redis_lock.prefix . $name (or $keyPrefix . $name) (at most limit()
 *   holders at once), runs
 *   $callback, gives the permit back (also when $callback throws, and at
 *   shutdown when the request ends inside $callback: a fatal error such as
 *   memory_limit or max_execution_time, or exit()) and returns what $callback
 *   returned.
 * - block($timeout): waits up to $timeout seconds (default 3, as Laravel) in
 *   the semaphore's FIFO queue; a release hands its permit to the longest
 *   waiter and wakes only it. block(0): one attempt. Laravel polls every
 *   sleep() ms; here sleep() is accepted and has no effect.
 * - When no permit came free in time: $failure($e) is called and its result
 *   returned, or, without $failure, $e is thrown: a LimiterTimeoutException,
 *   Illuminate\Contracts\Redis\LimiterTimeoutException (Redis::funnel()'s) from
 *   Funnel::for(), and Illuminate\Cache\Limiters\LimiterTimeoutException
 *   (Cache::funnel()'s, Laravel 12+) from the redis_lock store's
 *   semaphoreFunnel(). As in Laravel, a LimiterTimeoutException thrown by
 *   $callback itself also goes to $failure.
 * - releaseAfter($seconds) (default 60, as Laravel; an int, a DateInterval or
 *   a DateTimeInterface): the lease of the permit, after which it comes back
 *   by itself if the callback is still running or its process died.
 * - Redis unreachable, no reply, an error reply or the name used by another
 *   kind of lock: RedisLockException, not a timeout (as Laravel lets its Redis
 *   client's exceptions through).
 *
 * The limit counts holders of this semaphore only: Laravel's own funnels on
 * the same name (slot locks name1 ... nameN) are not counted; do not mix the
 * two on one name.
 */
class Funnel
{
    use InteractsWithTime;

    /** @var string the semaphore's name (redis_lock.prefix is prepended by the extension) */
    public $name;

    /** @var int|null the number of holders at once */
    public $maxLocks;

    /** @var int seconds before a permit comes back by itself */
    public $releaseAfter = 60;

    /** @var int|float seconds to wait for a permit */
    public $timeout = 3;

    /** @var int Laravel's pause between attempts, in ms: accepted, unused (nothing polls) */
    public $sleep = 250;

    /** @var string|null */
    protected $server;

    /** @var class-string<\Throwable> */
    protected $timeoutException;

    /** @var string|null */
    protected $keyPrefix;

    /**
     * @param string|null $server           a redis_lock.server DSN (null: redis_lock.server)
     * @param class-string<\Throwable>|null $timeoutException what a timeout throws (null: Illuminate\Contracts\Redis\LimiterTimeoutException)
     * @param string|null $keyPrefix        the start of the semaphore's key, in place of redis_lock.prefix (null: redis_lock.prefix)
     */
    public function __construct(string $name, ?string $server = null, ?string $timeoutException = null, ?string $keyPrefix = null)
    {
        $this->name = $name;
        $this->server = $server;
        $this->timeoutException = $timeoutException ?? LimiterTimeoutException::class;
        $this->keyPrefix = $keyPrefix;
    }

    /**
     * @param string|null $server a redis_lock.server DSN (null: redis_lock.server)
     */
    public static function for(string $name, ?string $server = null): self
    {
        return new self($name, $server);
    }

    /**
     * The number of holders at once.
     *
     * @param  int  $maxLocks
     * @return $this
     */
    public function limit($maxLocks)
    {
        $this->maxLocks = $maxLocks;

        return $this;
    }

    /**
     * The lease of a permit: seconds, or a DateInterval / DateTimeInterface.
     *
     * @param  \DateTimeInterface|\DateInterval|int  $releaseAfter
     * @return $this
     */
    public function releaseAfter($releaseAfter)
    {
        $this->releaseAfter = $this->secondsUntil($releaseAfter);

        return $this;
    }

    /**
     * The number of seconds to wait for a permit (0: one attempt).
     *
     * @param  int|float  $timeout
     * @return $this
     */
    public function block($timeout)
    {
        $this->timeout = $timeout;

        return $this;
    }

    /**
     * Laravel's pause between attempts, in milliseconds. Accepted for
     * compatibility; waiting here is a queue, not a loop.
     *
     * @param  int  $sleep
     * @return $this
     */
    public function sleep($sleep)
    {
        $this->sleep = $sleep;

        return $this;
    }

    /**
     * Runs $callback under a permit, or $failure when none came free in time.
     *
     * @param  callable|null  $failure receives the LimiterTimeoutException
     * @return mixed what $callback (or $failure) returned
     *
     * @throws \Throwable the LimiterTimeoutException without $failure; what $callback throws
     * @throws \RedisLockException when Redis cannot answer
     * @throws \LogicException when limit() was not called, or releaseAfter is not positive
     */
    public function then(callable $callback, ?callable $failure = null)
    {
        try {
            return $this->run($callback);
        } catch (\Throwable $e) {
            if ($e instanceof $this->timeoutException && $failure) {
                return $failure($e);
            }

            throw $e;
        }
    }

    /** @return mixed */
    protected function run(callable $callback)
    {
        if ($this->maxLocks === null || (int) $this->maxLocks < 1) {
            throw new \LogicException('The funnel needs a limit of at least 1: call limit().');
        }
        if ((int) $this->releaseAfter < 1) {
            throw new \LogicException('The funnel\'s releaseAfter must be at least 1 second.');
        }
        $name = $this->name;
        $owner = \RedisMutexLock::newOwner();
        $limit = (int) $this->maxLocks;
        $ttl = (int) $this->releaseAfter * 1000;
        $timeout = max(0.0, (float) $this->timeout);
        $server = $this->server;
        $prefix = $this->keyPrefix;
        if (!Server::call($server, static fn (): bool => \RedisSemaphore::acquireOwner($name, $owner, $limit, $ttl, $timeout), $prefix)) {
            throw new $this->timeoutException();
        }

        return ShutdownRelease::during(static fn (): bool => Server::call($server, static fn (): bool => \RedisSemaphore::releaseOwner($name, $owner), $prefix), $callback);
    }
}
