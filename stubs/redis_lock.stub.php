<?php

/**
 * Stubs for the redis_lock extension: what IDEs and static analysers read.
 * Kept identical to the extension (php-tests/stub_matches_reflection.phpt).
 *
 * @generate-class-entries
 */

/**
 * Thrown when Redis cannot answer: unreachable, authentication refused,
 * no reply within redis_lock.read_timeout, or an error reply. The message
 * names the server as host:port (never a password) and the cause.
 */
class RedisLockException extends RuntimeException
{
}

/**
 * Thrown by release(), extend() and unlock() for a lock that was renewed
 * (redis_lock.auto_renew) and lost: a renewal was refused (another owner took
 * it, or it had expired), Redis could not be reached to renew it before its
 * TTL ran out, or it was held for redis_lock.max_hold. The code that ran under
 * it was not protected from some point on. Reported once; the lock is then
 * forgotten.
 */
class RedisLockLostException extends RedisLockException
{
}

/**
 * A mutex on one Redis server (redis_lock.server), key redis_lock.prefix . $key.
 */
final class RedisMutexLock
{
    /** Static methods only. */
    private function __construct() {}

    /**
     * Takes the lock for $lockSecond seconds. $timeout = 0: one attempt. With
     * $timeout > 0, waits in the key's FIFO queue until the lock is handed over
     * or $timeout seconds have passed; $sleep (µs, at least 10 ms) is the
     * longest a waiter goes without looking at the queue again.
     *
     * A key this process already holds (redis_lock.reentrant, on by default):
     * true at once after Redis confirmed that our token still holds it (its
     * TTL raised to at least $lockSecond); each lock() needs its own release().
     * With redis_lock.auto_renew on, the TTL is renewed every third of it
     * while this process holds the lock (at most redis_lock.max_hold seconds).
     *
     * @return bool true when this process now holds the lock, false when somebody else holds it
     * @throws RedisLockException when Redis cannot answer, or when fewer replicas than
     *         redis_lock.wait_replicas have the lock within redis_lock.wait_timeout (it is then released)
     * @throws ValueError on an empty key, a negative or non-finite timeout,
     *         a lockSecond out of range, a negative sleep or a malformed redis_lock.server
     */
    public static function lock(string $key, float $timeout = 0, int $lockSecond = 20, int $sleep = 100000): bool {}

    /**
     * Releases the lock if this process still holds it (owner-checked, atomic).
     * A lock taken N times (redis_lock.reentrant) needs N releases: the
     * earlier ones check that our token still holds it, the last deletes it.
     *
     * @return bool true when our lock was released; false when this process did not
     *         hold it or it expired (another owner's lock is never touched)
     * @throws RedisLockLostException when a renewed lock was lost
     * @throws RedisLockException when Redis cannot answer
     */
    public static function release(string $key): bool {}

    /**
     * Sets the lock's TTL to $lockSecond seconds if our token still holds it
     * (owner-checked, atomic); renewals, if on, go on with the new TTL.
     *
     * @return bool true when extended; false when this process does not hold it
     *         or it expired
     * @throws RedisLockLostException when a renewed lock was lost
     * @throws RedisLockException when Redis cannot answer, or when fewer replicas than
     *         redis_lock.wait_replicas have the extension in time (the lock stays held)
     * @throws ValueError on an empty key or a lockSecond out of range
     */
    public static function extend(string $key, int $lockSecond = 20): bool {}

    /**
     * The fencing token of this process' hold on $key: an integer greater than
     * that of every earlier hold of the key, also across a restart of Redis
     * without persistence. A storage layer that remembers the largest token it
     * saw and refuses writes with a smaller one is safe from a holder that
     * paused past its lease. The first call of a hold costs one round trip.
     *
     * @return int|null null when this process does not hold the key (or no longer does)
     * @throws RedisLockException when Redis cannot answer, or when fewer replicas than
     *         redis_lock.wait_replicas have the fencing token in time (the lock stays held)
     */
    public static function fence(string $key): ?int {}

    /**
     * Everything about $key in one round trip: held (this process holds it
     * now), count (how many times this process took it), lost (a renewal of
     * ours failed), holder (host, pid and since, a Unix time in seconds: when
     * the holder began to acquire it; null fields for a lock of another
     * library), ttl (ms left; null when free, -1 without expiry), fence (the
     * holder's fencing token, if it asked for one) and waiters (live waiters
     * in the key's queue).
     *
     * @return array{held: bool, count: int, lost: bool, holder: array{host: ?string, pid: ?int, since: ?float}|null, ttl: ?int, fence: ?int, waiters: int}
     * @throws RedisLockException when Redis cannot answer
     */
    public static function inspect(string $key): array {}

    /**
     * Owner-level operations, for adapters of frameworks whose locks carry an
     * owner token of their own (Laravel's lock owner, Symfony's key state).
     * Takes the lock with $owner as its value, for $ttl milliseconds; $timeout
     * as lock()'s (FIFO queue, checked at least every 100 ms). Not re-entrant:
     * a key that already holds $owner (taken by any process) counts as taken
     * and gets the new $ttl; one held for another owner is refused. Such a
     * lock outlives the request that took it (it is not released at request
     * end, and its renewals end there). $renew: renew it while this process'
     * request runs (null: as redis_lock.auto_renew says).
     *
     * @return bool true when $owner now holds the lock, false when somebody else holds it
     * @throws RedisLockException when Redis cannot answer
     * @throws ValueError on an empty key, an empty, non-UTF-8, over 1024 bytes or NUL-containing
     *         owner, a ttl out of range or a negative or non-finite timeout
     */
    public static function acquire(string $key, string $owner, int $ttl, float $timeout = 0, ?bool $renew = null): bool {}

    /**
     * Releases the lock if $owner holds it, from any process (to the first
     * waiter, if any).
     *
     * @return bool true when released; false when $owner does not hold it
     * @throws RedisLockException when Redis cannot answer
     */
    public static function releaseOwner(string $key, string $owner): bool {}

    /**
     * Sets the lock's TTL to $ttl milliseconds if $owner holds it.
     *
     * @return bool true when extended; false when $owner does not hold it
     * @throws RedisLockException when Redis cannot answer
     */
    public static function extendOwner(string $key, string $owner, int $ttl): bool {}

    /**
     * The value (owner token) of the lock on $key, or null when it is free.
     *
     * @throws RedisLockException when Redis cannot answer
     */
    public static function owner(string $key): ?string {}

    /**
     * Releases the lock whoever holds it (to the first waiter, if any).
     *
     * @return bool true when a lock was released; false when the key was free
     * @throws RedisLockException when Redis cannot answer
     */
    public static function forceRelease(string $key): bool {}

    /** A fresh owner token, made as lock() makes its own (its hex digits in upper case). */
    public static function newOwner(): string {}
}

/**
 * The Redlock algorithm over N independent Redis masters: a lock is held when
 * floor(N/2)+1 of them granted it within its validity.
 */
final class RedLock
{
    /**
     * @param array $servers list of [host, port], [host, port, timeout] (timeout in
     *        seconds, float) and/or DSN strings as in redis_lock.server; no server twice
     * @param int $retryDelay milliseconds; a failed attempt waits a random time in
     *        [retryDelay/2, retryDelay] before the next one
     * @param int $retryCount attempts in total (at least 1)
     * @throws ValueError on an invalid server list, a negative retryDelay or retryCount < 1
     */
    public function __construct(#[\SensitiveParameter] array $servers, int $retryDelay = 200, int $retryCount = 3) {}

    /**
     * @param int $ttl milliseconds
     * @return array{validity: float, resource: string, token: string}|false
     *         false when others hold the resource on too many nodes
     * @throws RedisLockException when fewer than a quorum of nodes could be reached
     */
    public function lock(string $resource, int $ttl): array|false {}

    /**
     * @param array{resource: string, token: string} $lock as returned by lock()
     * @return bool true when a majority of nodes deleted our token
     * @throws RedisLockLostException when a renewed lock was lost
     */
    public function unlock(array $lock): bool {}

    /**
     * @param array{resource: string, token: string} $lock as returned by lock() or extend()
     * @param int $ttl the new TTL in milliseconds (renewals, if on, go on with it)
     * @return array{validity: float, resource: string, token: string}|false
     * @throws RedisLockLostException when a renewed lock was lost
     */
    public function extend(array $lock, int $ttl): array|false {}
}
