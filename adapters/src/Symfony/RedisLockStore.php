<?php

declare(strict_types=1);

namespace RedisLock\Symfony;

use RedisLock\Internal\Server;
use Psr\Log\LoggerAwareInterface;
use Psr\Log\LoggerAwareTrait;
use RedisLock\Internal\ShutdownRelease;
use RedisLock\Symfony\Profiler\LockRecorder;
use RedisLock\Symfony\Profiler\NullLockRecorder;
use RedisLock\Symfony\Profiler\WatchedAcquisition;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\Lock;
use Symfony\Component\Lock\Store\ExpiringStoreTrait;

/**
 * A symfony/lock store on the redis_lock extension, with the semantics of
 * symfony's own RedisStore:
 *
 * - the lock is the Redis key redis_lock.prefix . (string) $key (with a
 *   $keyPrefix: $keyPrefix . (string) $key), its value the Key's token, kept in the Key's state under this class (a fresh
 *   RedisMutexLock::newOwner() the first time); a serialized Key carries it to
 *   another process, which can then refresh, check or release the lock;
 * - save(): one attempt (SET NX PX) for $initialTtl seconds, refreshed when
 *   this process already holds it for the same token; LockConflictedException
 *   when someone else holds it;
 * - waitAndSave() (Lock::acquire(true)): waits in the extension's FIFO queue
 *   and is handed the lock by the releasing process, instead of symfony's
 *   100 ms polling;
 * - putOffExpiration(): owner-checked PEXPIRE; delete(): owner-checked release
 *   (to the first waiter, if any); exists(): the key holds the Key's token;
 * - the Key's lifetime is reduced to the TTL from before each write, and
 *   LockExpiredException is thrown (after releasing) where the lifetime ran out
 *   during the call, as symfony's stores do;
 * - a RedisLockException (Redis unreachable, no reply, an error reply) becomes
 *   a LockStorageException with the same message and the RedisLockException as
 *   its previous exception; Lock turns it into LockAcquiringException /
 *   LockReleasingException as it does for any store.
 *
 * Shared (read) locks: the store is a BlockingSharedLockStoreInterface, and
 * what Lock::acquireRead() gets depends on $shared:
 *
 * - $shared = false (the default): every lock of the store is a
 *   RedisMutexLock, as above, and saveRead() / waitAndSaveRead() take it
 *   exclusively, exactly what symfony's Lock does with a store without shared
 *   locks ("fallback to WriteLock"): correct, never shared. The locks stay plain
 *   Redis strings holding the token, the same keys as Laravel's locks and
 *   RedisMutexLock::acquire() of the same name.
 * - $shared = true: every lock of the store, read or write, is a
 *   RedisReadWriteLock (owner-level calls), so that a write lock excludes the
 *   read locks of the same resource: saveRead() takes a read hold (many Keys at
 *   once), save() the write lock; waitAndSaveRead() (Lock::acquireRead(true))
 *   and waitAndSave() wait in the lock's FIFO queue, which serves readers and
 *   writers in arrival order (a reader that arrives after a queued writer waits
 *   behind it, so writers are not starved), and are woken by the release that
 *   lets them in, without polling. A Key that holds the write lock and calls
 *   saveRead() is demoted at once; a Key that holds a read lock and calls
 *   save() is promoted when it is the only holder, and gets
 *   LockConflictedException (keeping its read lock) otherwise. waitAndSave()
 *   of such a Key (Lock::acquire(true) after acquireRead(), symfony's
 *   documented promotion) keeps its read lock and waits until the other readers
 *   are gone, looking every 100 ms as symfony's Lock does: the extension never
 *   queues a promotion, since two readers waiting to promote would wait for each
 *   other. It ends with LockConflictedException if the Key's read lock is lost
 *   meanwhile (expired, or released from elsewhere). A resource's keys hold
 *   one kind of lock: the same name used by a store with $shared = false, by
 *   RedisMutexLock or by RedisSemaphore fails with a LockStorageException
 *   (the extension's RedisLockException), never silently.
 *
 * Renewal is symfony's: Lock::refresh(). Locks of this store are never renewed
 * by the extension, whatever redis_lock.auto_renew says, and outlive the request
 * that took them (until released or expired), as with symfony's RedisStore.
 * One addition: a lock taken by a Lock with autoRelease (LockFactory's default,
 * console's LockableTrait) is released by symfony in the Lock's destructor,
 * which PHP skips after a fatal error (memory_limit, max_execution_time);
 * when the request ends on one while that Lock holds the lock, a shutdown
 * function releases it (owner-checked) instead of leaving it to its TTL. Locks
 * with autoRelease = false, and every lock after an ordinary end (exception,
 * exit()), are left to symfony as they are.
 * TTLs are sent in whole milliseconds, rounded up, at least 3 ms (the
 * extension's minimum).
 *
 * Visibility: with a logger (setLogger(); the bundle config gives it the
 * `lock` channel) a blocking acquisition that found the lock held (its
 * first attempt is then made on its own) logs "Acquired the "{resource}"
 * lock after waiting {waited_ms} ms." (info) once it has it: symfony's Lock
 * logs the rest, through the LockFactory's logger. With a
 * recorder (setRecorder(); the bundle config gives it the profiler's
 * LockProfile when WebProfilerBundle is there) each acquisition, release
 * and loss is recorded for the profiler's panel, and a blocking acquisition
 * that finds the lock held first looks up how many wait ahead of it (one
 * round trip more); without one, nothing is timed or looked up.
 *
 * Key compatibility ($keyPrefix): the start of every key, in place of
 * redis_lock.prefix. symfony's own RedisStore locks the resource name itself
 * (a sorted set at (string) $key, no prefix unless its Redis client has one);
 * with $keyPrefix = '' this store locks that same key, so that during a
 * migration the two exclude each other: this store's save() is refused and
 * its waitAndSave() waits while symfony's store holds the resource (a key
 * of another type is another client's lock to the extension), and symfony's
 * scripts return false on this store's string key. symfony's read locks
 * (RedisStore::saveRead()) exclude the same way, but must not meet this
 * store with $shared = true: the two read/write locks do not understand each
 * other's holds.
 */
class RedisLockStore implements BlockingStoreInterface, BlockingSharedLockStoreInterface, LoggerAwareInterface
{
    use ExpiringStoreTrait;
    use LoggerAwareTrait;

    /** The timeout of waitAndSave(): seconds, in practice forever. */
    public const WAIT_SECONDS = 1e9;

    /** Microseconds between two attempts to promote a read lock that others share (symfony's Lock: 100 ms). */
    public const PROMOTION_POLL_MICROSECONDS = 100000;

    /** The extension's largest TTL in milliseconds. */
    private const MAX_TTL = 4611686018427387903;

    private ?string $server;
    private float $initialTtl;
    private bool $shared;
    private ?string $keyPrefix;
    private LockRecorder $recorder;

    /**
     * @param string|null $server     a redis_lock.server DSN for this store's calls (null: redis_lock.server)
     * @param float       $initialTtl the expiration delay of locks in seconds
     * @param bool        $shared     true: read/write locks (RedisReadWriteLock) for every resource of the store;
     *                                false: exclusive locks (RedisMutexLock), acquireRead() takes them exclusively
     * @param string|null $keyPrefix  the start of every key, in place of redis_lock.prefix (null: redis_lock.prefix);
     *                                '': the resource name itself, the key of symfony's own RedisStore
     */
    public function __construct(?string $server = null, float $initialTtl = 300.0, bool $shared = false, ?string $keyPrefix = null)
    {
        if ($initialTtl <= 0) {
            throw new InvalidTtlException(sprintf('"%s()" expects a strictly positive TTL. Got %d.', __METHOD__, $initialTtl));
        }
        $this->server = $server;
        $this->initialTtl = $initialTtl;
        $this->shared = $shared;
        $this->keyPrefix = $keyPrefix;
        $this->recorder = NullLockRecorder::instance();
    }

    /** Where the store tells of its locks (the profiler's LockProfile); default: nowhere. */
    public function setRecorder(LockRecorder $recorder): void
    {
        $this->recorder = $recorder;
    }

    public function save(Key $key): void
    {
        $token = $this->getUniqueToken($key);
        $key->reduceLifetime($this->initialTtl);
        if (!$this->acquire($key, $token, true, 0)) {
            throw new LockConflictedException();
        }
        $this->releaseAfterFatalError($key, $token);

        $this->checkNotExpired($key);
    }

    public function waitAndSave(Key $key): void
    {
        $token = $this->getUniqueToken($key);
        if (!$this->acquire($key, $token, true, self::WAIT_SECONDS)) {
            if (!$this->shared) {
                throw new LockConflictedException();
            }
            // A wait is refused only where it would promote this Key's read
            // lock while others share it: the extension never queues that.
            $this->awaitPromotion($key, $token);
        }
        $this->releaseAfterFatalError($key, $token);

        $this->resetTtlAfterWait($key, $token);
    }

    public function saveRead(Key $key): void
    {
        if (!$this->shared) {
            $this->save($key);

            return;
        }
        $token = $this->getUniqueToken($key);
        $key->reduceLifetime($this->initialTtl);
        if (!$this->acquire($key, $token, false, 0)) {
            throw new LockConflictedException();
        }
        $this->releaseAfterFatalError($key, $token);

        $this->checkNotExpired($key);
    }

    public function waitAndSaveRead(Key $key): void
    {
        if (!$this->shared) {
            $this->waitAndSave($key);

            return;
        }
        $token = $this->getUniqueToken($key);
        if (!$this->acquire($key, $token, false, self::WAIT_SECONDS)) {
            throw new LockConflictedException();
        }
        $this->releaseAfterFatalError($key, $token);

        $this->resetTtlAfterWait($key, $token);
    }

    public function putOffExpiration(Key $key, float $ttl): void
    {
        $token = $this->getUniqueToken($key);
        $key->reduceLifetime($ttl);
        if (!$this->extendOwner($key, $token, self::milliseconds($ttl))) {
            $this->recorder->lost((string) $key, $token);

            throw new LockConflictedException();
        }

        $this->checkNotExpired($key);
    }

    public function delete(Key $key): void
    {
        $token = $this->getUniqueToken($key);
        $name = (string) $key;
        ShutdownRelease::forget(self::class . "\0" . $name . "\0" . $token);
        // Like symfony's RedisStore: a lock that is not ours is left alone
        // silently; Lock::release() then checks exists().
        if ($this->call($this->releaseOwner($name, $token))) {
            $this->recorder->released($name, $token);
        } else {
            $this->recorder->lost($name, $token);
        }
    }

    public function exists(Key $key): bool
    {
        $token = $this->getUniqueToken($key);
        $name = (string) $key;
        if ($this->shared) {
            return $this->call(static fn (): ?string => \RedisReadWriteLock::modeOf($name, $token)) !== null;
        }

        return $this->call(static fn (): ?string => \RedisMutexLock::owner($name)) === $token;
    }

    /** The server of this store's calls; null: redis_lock.server. */
    public function getServer(): ?string
    {
        return $this->server;
    }

    /** Whether the store's locks are read/write locks (see the class comment). */
    public function isShared(): bool
    {
        return $this->shared;
    }

    /** The start of every key of this store; null: redis_lock.prefix. */
    public function getKeyPrefix(): ?string
    {
        return $this->keyPrefix;
    }

    /**
     * When the Lock that took $key releases it in its destructor
     * (autoRelease), a shutdown function releases it after a fatal error,
     * which skips destructors (see the class comment).
     */
    private function releaseAfterFatalError(Key $key, string $token): void
    {
        $name = (string) $key;
        $id = self::class . "\0" . $name . "\0" . $token;
        $lock = ShutdownRelease::autoReleasingCaller(Lock::class);
        if ($lock === null) {
            ShutdownRelease::forget($id);

            return;
        }
        $release = $this->releaseOwner($name, $token);
        $server = $this->server;
        $prefix = $this->keyPrefix;
        ShutdownRelease::untilDestructed($id, $lock, static fn (): bool => Server::call($server, $release, $prefix));
    }

    /** The owner-checked release of $name held by $token, as a call for call(). */
    private function releaseOwner(string $name, string $token): \Closure
    {
        if ($this->shared) {
            return static fn (): bool => \RedisReadWriteLock::releaseOwner($name, $token);
        }

        return static fn (): bool => \RedisMutexLock::releaseOwner($name, $token);
    }

    /**
     * One acquisition for the Key's token: write (exclusive) or read, waiting
     * up to $timeout seconds; watched when there is a recorder, or a logger
     * and a wait (WatchedAcquisition).
     */
    private function acquire(Key $key, string $token, bool $write, float $timeout): bool
    {
        if (!$this->recorder->isEnabled() && ($this->logger === null || $timeout <= 0)) {
            return $this->attempt($key, $token, $write, $timeout);
        }
        $name = (string) $key;
        $queued = $this->shared
            ? static fn (): int => \RedisReadWriteLock::inspect($name)['waiters']
            : static fn (): int => \RedisMutexLock::inspect($name)['waiters'];

        return WatchedAcquisition::run(
            fn (float $wait): bool => $this->attempt($key, $token, $write, $wait),
            fn (): int => $this->call($queued),
            $timeout, $this->recorder, $this->logger, $key, $this->shared ? 'read-write' : 'mutex', $token,
        );
    }

    private function attempt(Key $key, string $token, bool $write, float $timeout): bool
    {
        $name = (string) $key;
        $ttl = self::milliseconds($this->initialTtl);
        if ($this->shared) {
            return $this->call(static fn (): bool => \RedisReadWriteLock::acquireOwner($name, $token, $write, $ttl, $timeout));
        }

        return $this->call(static fn (): bool => \RedisMutexLock::acquire($name, $token, $ttl, $timeout, false));
    }

    private function extendOwner(Key $key, string $token, int $milliseconds): bool
    {
        $name = (string) $key;
        if ($this->shared) {
            return $this->call(static fn (): bool => \RedisReadWriteLock::extendOwner($name, $token, $milliseconds));
        }

        return $this->call(static fn (): bool => \RedisMutexLock::extendOwner($name, $token, $milliseconds));
    }

    /**
     * The TTL of a lock handed over after a wait began when the extension
     * confirmed it, at a moment this call is not told: set it again from now,
     * so that the Key's lifetime is a lower bound of the real one.
     */
    private function resetTtlAfterWait(Key $key, string $token): void
    {
        $key->reduceLifetime($this->initialTtl);
        if (!$this->extendOwner($key, $token, self::milliseconds($this->initialTtl))) {
            throw new LockConflictedException();
        }

        $this->checkNotExpired($key);
    }

    /**
     * Promotes the read lock of $token once no other reader holds the
     * resource, keeping it meanwhile (see the class comment).
     */
    private function awaitPromotion(Key $key, string $token): void
    {
        $name = (string) $key;
        while (true) {
            usleep(self::PROMOTION_POLL_MICROSECONDS + random_int(-10000, 10000));
            // Right before the attempt, so that an attempt never takes the
            // lock afresh for a Key whose read lock is gone (that would be no
            // promotion: others may have written meanwhile).
            if ($this->call(static fn (): ?string => \RedisReadWriteLock::modeOf($name, $token)) !== 'read') {
                throw new LockConflictedException();
            }
            if ($this->attempt($key, $token, true, 0)) {
                return;
            }
        }
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
            return Server::call($this->server, $call, $this->keyPrefix);
        } catch (\RedisLockException $e) {
            throw new LockStorageException($e->getMessage(), 0, $e);
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
