<?php

declare(strict_types=1);

namespace RedisLock\Symfony;

use RedisLock\Internal\Server;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\Store\ExpiringStoreTrait;

/**
 * A symfony/lock store on the redis_lock extension (RedisMutexLock's
 * owner-level API), with the semantics of symfony's own RedisStore:
 *
 * - the lock is the Redis key redis_lock.prefix . (string) $key, its value the
 *   Key's token, kept in the Key's state under this class (a fresh
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
 * Renewal is symfony's: Lock::refresh(). Locks of this store are never renewed
 * by the extension, whatever redis_lock.auto_renew says, and outlive the request
 * that took them (until released or expired), as with symfony's RedisStore.
 * TTLs are sent in whole milliseconds, rounded up, at least 3 ms (the
 * extension's minimum).
 */
class RedisLockStore implements BlockingStoreInterface
{
    use ExpiringStoreTrait;

    /** The timeout of waitAndSave(): seconds, in practice forever. */
    public const WAIT_SECONDS = 1e9;

    /** The extension's largest TTL in milliseconds. */
    private const MAX_TTL = 4611686018427387903;

    private ?string $server;
    private float $initialTtl;

    /**
     * @param string|null $server     a redis_lock.server DSN for this store's calls (null: redis_lock.server)
     * @param float       $initialTtl the expiration delay of locks in seconds
     */
    public function __construct(?string $server = null, float $initialTtl = 300.0)
    {
        if ($initialTtl <= 0) {
            throw new InvalidTtlException(sprintf('"%s()" expects a strictly positive TTL. Got %d.', __METHOD__, $initialTtl));
        }
        $this->server = $server;
        $this->initialTtl = $initialTtl;
    }

    public function save(Key $key): void
    {
        $token = $this->getUniqueToken($key);
        $key->reduceLifetime($this->initialTtl);
        $ttl = self::milliseconds($this->initialTtl);
        if (!$this->call(static fn (): bool => \RedisMutexLock::acquire((string) $key, $token, $ttl, 0, false))) {
            throw new LockConflictedException();
        }

        $this->checkNotExpired($key);
    }

    public function waitAndSave(Key $key): void
    {
        $token = $this->getUniqueToken($key);
        $ttl = self::milliseconds($this->initialTtl);
        if (!$this->call(static fn (): bool => \RedisMutexLock::acquire((string) $key, $token, $ttl, self::WAIT_SECONDS, false))) {
            throw new LockConflictedException();
        }

        // The TTL of a lock handed over after a wait began when the extension
        // confirmed it, at a moment this call is not told: set it again from
        // now, so that the Key's lifetime is a lower bound of the real one.
        $key->reduceLifetime($this->initialTtl);
        if (!$this->call(static fn (): bool => \RedisMutexLock::extendOwner((string) $key, $token, $ttl))) {
            throw new LockConflictedException();
        }

        $this->checkNotExpired($key);
    }

    public function putOffExpiration(Key $key, float $ttl): void
    {
        $token = $this->getUniqueToken($key);
        $key->reduceLifetime($ttl);
        $milliseconds = self::milliseconds($ttl);
        if (!$this->call(static fn (): bool => \RedisMutexLock::extendOwner((string) $key, $token, $milliseconds))) {
            throw new LockConflictedException();
        }

        $this->checkNotExpired($key);
    }

    public function delete(Key $key): void
    {
        $token = $this->getUniqueToken($key);
        // Like symfony's RedisStore: a lock that is not ours is left alone
        // silently; Lock::release() then checks exists().
        $this->call(static fn (): bool => \RedisMutexLock::releaseOwner((string) $key, $token));
    }

    public function exists(Key $key): bool
    {
        $token = $this->getUniqueToken($key);

        return $this->call(static fn (): ?string => \RedisMutexLock::owner((string) $key)) === $token;
    }

    /** The server of this store's calls; null: redis_lock.server. */
    public function getServer(): ?string
    {
        return $this->server;
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
