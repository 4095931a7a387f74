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
     * @return bool true when this process now holds the lock, false when somebody else holds it
     * @throws RedisLockException when Redis cannot answer
     * @throws ValueError on an empty key, a negative or non-finite timeout,
     *         a lockSecond out of range, a negative sleep or a malformed redis_lock.server
     */
    public static function lock(string $key, float $timeout = 0, int $lockSecond = 20, int $sleep = 100000): bool {}

    /**
     * Releases the lock if this process still holds it (owner-checked, atomic).
     *
     * @return bool true when our lock was deleted; false when this process did not
     *         hold it or it expired (another owner's lock is never touched)
     * @throws RedisLockException when Redis cannot answer
     */
    public static function release(string $key): bool {}
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
     */
    public function unlock(array $lock): bool {}

    /**
     * @param array{resource: string, token: string} $lock as returned by lock() or extend()
     * @param int $ttl the new TTL in milliseconds
     * @return array{validity: float, resource: string, token: string}|false
     */
    public function extend(array $lock, int $ttl): array|false {}
}
