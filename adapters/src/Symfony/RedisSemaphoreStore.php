<?php

declare(strict_types=1);

namespace RedisLock\Symfony;

use RedisLock\Internal\Server;
use RedisLock\Internal\ShutdownRelease;
use RedisLock\Symfony\Profiler\LockRecorder;
use RedisLock\Symfony\Profiler\NullLockRecorder;
use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\RuntimeException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Exception\SemaphoreStorageException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\PersistingStoreInterface;
use Symfony\Component\Semaphore\Semaphore;

/**
 * A symfony/semaphore store on the redis_lock extension (RedisSemaphore's
 * owner-level API), with the semantics of symfony's own RedisStore:
 *
 * - the semaphore is redis_lock.prefix . (string) $key; a Key takes
 *   getWeight() of its getLimit() permits, for the Key's token, kept in the
 *   Key's state under this class (a fresh RedisMutexLock::newOwner() the first
 *   time), so that a serialized Key lets another process check, refresh or
 *   release them;
 * - save($key, $ttlInSecond): one attempt, for $ttlInSecond seconds;
 *   SemaphoreAcquiringException when fewer than getWeight() permits are free
 *   (held permits never exceed the largest limit of their holders, and a Key is
 *   never let in past its own limit); the permits of a Key that already holds
 *   them stay held (their lease set to $ttlInSecond);
 * - putOffExpiration(): sets the lease of the Key's permits;
 *   SemaphoreExpiredException when the Key holds none (expired, released, never
 *   taken); delete(): gives them back (handing them to the next waiter of
 *   RedisSemaphore::acquire()), silently when the Key holds none; exists():
 *   the Key holds permits now;
 * - each permit has its own lease, so the permits of a crashed holder come
 *   back when its lease runs out, whoever else holds the semaphore (symfony's
 *   RedisStore keeps one expiry per semaphore key);
 * - a RedisLockException (Redis unreachable, no reply, an error reply, the
 *   name used by another kind of lock) becomes a SemaphoreStorageException
 *   (symfony/semaphore 7.3+; before, its RuntimeException) with the same
 *   message and the RedisLockException as its previous exception; Semaphore
 *   turns it into its RuntimeException as it does for any store.
 *
 * symfony/semaphore has no blocking acquire: Semaphore::acquire() is one
 * attempt. Permits of this store are never renewed by the extension, and
 * outlive the request that took them (until released or expired). One
 * addition: permits taken by a Semaphore with autoRelease (SemaphoreFactory's
 * default), which symfony gives back in the Semaphore's destructor, are given
 * back by a shutdown function when the request ends on a fatal error
 * (memory_limit, max_execution_time) while that Semaphore holds them: PHP
 * runs no destructor then. TTLs are sent in whole milliseconds, rounded up, at
 * least 3 ms.
 *
 * With a recorder (setRecorder(): the profiler's LockProfile, given by the
 * bundle config when WebProfilerBundle is there) each attempt, release and
 * loss is recorded for the profiler's panel (kind "semaphore"; no queue
 * position: the attempt never waits).
 */
class RedisSemaphoreStore implements PersistingStoreInterface
{
    /** The extension's largest TTL in milliseconds. */
    private const MAX_TTL = 4611686018427387903;

    private ?string $server;
    private LockRecorder $recorder;

    /**
     * @param string|null $server a redis_lock.server DSN for this store's calls (null: redis_lock.server)
     */
    public function __construct(?string $server = null)
    {
        $this->server = $server;
        $this->recorder = NullLockRecorder::instance();
    }

    /** Where the store tells of its permits (the profiler's LockProfile); default: nowhere. */
    public function setRecorder(LockRecorder $recorder): void
    {
        $this->recorder = $recorder;
    }

    public function save(Key $key, float $ttlInSecond): void
    {
        if (0 > $ttlInSecond) {
            throw new InvalidArgumentException("The TTL should be greater than 0, '$ttlInSecond' given.");
        }
        $token = $this->getUniqueToken($key);
        $name = (string) $key;
        $limit = $key->getLimit();
        $weight = $key->getWeight();
        $ttl = self::milliseconds($ttlInSecond);
        $start = $this->recorder->isEnabled() ? hrtime(true) : 0;
        if (!$this->call(static fn (): bool => \RedisSemaphore::acquireOwner($name, $token, $limit, $ttl, 0, $weight))) {
            $this->recorder->timedOut($name, 'semaphore', $token, (hrtime(true) - $start) / 1e6, null);

            throw new SemaphoreAcquiringException($key, 'too few permits are free');
        }
        if ($start !== 0) {
            $this->recorder->acquired($name, 'semaphore', $token, (hrtime(true) - $start) / 1e6, null);
        }
        $this->releaseAfterFatalError($name, $token);
    }

    public function putOffExpiration(Key $key, float $ttlInSecond): void
    {
        if (0 > $ttlInSecond) {
            throw new InvalidArgumentException("The TTL should be greater than 0, '$ttlInSecond' given.");
        }
        $token = $this->getUniqueToken($key);
        $name = (string) $key;
        $ttl = self::milliseconds($ttlInSecond);
        if (!$this->call(static fn (): bool => \RedisSemaphore::extendOwner($name, $token, $ttl))) {
            $this->recorder->lost($name, $token);

            throw new SemaphoreExpiredException($key, 'its permits are not held');
        }
    }

    public function delete(Key $key): void
    {
        $token = $this->getUniqueToken($key);
        $name = (string) $key;
        ShutdownRelease::forget(self::class . "\0" . $name . "\0" . $token);
        // Like symfony's RedisStore: permits that are not held are not an error.
        if ($this->call(static fn (): bool => \RedisSemaphore::releaseOwner($name, $token))) {
            $this->recorder->released($name, $token);
        } else {
            $this->recorder->lost($name, $token);
        }
    }

    public function exists(Key $key): bool
    {
        $token = $this->getUniqueToken($key);
        $name = (string) $key;

        return $this->call(static fn (): bool => \RedisSemaphore::holds($name, $token));
    }

    /** The server of this store's calls; null: redis_lock.server. */
    public function getServer(): ?string
    {
        return $this->server;
    }

    /**
     * When the Semaphore that took the permits gives them back in its
     * destructor (autoRelease), a shutdown function does after a fatal error,
     * which skips destructors (see the class comment).
     */
    private function releaseAfterFatalError(string $name, string $token): void
    {
        $id = self::class . "\0" . $name . "\0" . $token;
        $semaphore = ShutdownRelease::autoReleasingCaller(Semaphore::class);
        if ($semaphore === null) {
            ShutdownRelease::forget($id);

            return;
        }
        $server = $this->server;
        ShutdownRelease::untilDestructed($id, $semaphore, static fn (): bool => Server::call($server, static fn (): bool => \RedisSemaphore::releaseOwner($name, $token)));
    }

    private function getUniqueToken(Key $key): string
    {
        if (!$key->hasState(__CLASS__)) {
            $key->setState(__CLASS__, \RedisMutexLock::newOwner());
        }

        return $key->getState(__CLASS__);
    }

    /**
     * @template T
     * @param \Closure(): T $call
     * @return T
     */
    private function call(\Closure $call): mixed
    {
        try {
            return Server::call($this->server, $call);
        } catch (\RedisLockException $e) {
            $class = class_exists(SemaphoreStorageException::class) ? SemaphoreStorageException::class : RuntimeException::class;

            throw new $class($e->getMessage(), 0, $e);
        }
    }

    private static function milliseconds(float $seconds): int
    {
        $milliseconds = ceil($seconds * 1000);
        if (!($milliseconds < self::MAX_TTL)) { // also NAN and INF
            return self::MAX_TTL;
        }

        return max(3, (int) $milliseconds);
    }
}
