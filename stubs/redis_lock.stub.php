<?php

/**
 * Stubs for the redis_lock extension: what IDEs and static analysers read.
 * Kept identical to the extension (php-tests/install/stub_matches_reflection.phpt).
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
     * @return int|null null when this process does not hold the key (or no longer does,
     *         or holds it only for an owner token taken with acquire(): that lock is the
     *         owner's, as for release() and inspect())
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
 * A fair read/write lock on one Redis server (redis_lock.server): many
 * readers or one writer. Waiters queue in FIFO order across readers and
 * writers: a reader that arrives after a queued writer waits behind it, and
 * consecutive readers at the head of the queue are let in together. A
 * release hands the lock to the next waiters directly and wakes exactly
 * those it lets in. Each hold has its own lease ($lockSecond); holds still
 * taken at the end of the request are released, and renewed meanwhile when
 * redis_lock.auto_renew is on. The Redis keys of one name hold one kind of
 * lock: a name used for a RedisMutexLock or a RedisSemaphore as well fails
 * with a RedisLockException.
 */
final class RedisReadWriteLock
{
    /** Static methods only. */
    private function __construct() {}

    /**
     * Takes a read (shared) hold on $key for $lockSecond seconds, waiting up to
     * $timeout seconds in the key's queue. A process holding the write lock on
     * $key downgrades it to a read hold (at once; readers queued at the head
     * are let in). A process already holding a read hold takes it once more
     * (redis_lock.reentrant) or gets false (reentrant off).
     *
     * @return bool true when this process now holds $key for reading, false when busy until $timeout
     * @throws RedisLockException when Redis cannot answer, or the name holds another kind of lock
     * @throws ValueError on an empty key, a negative or non-finite timeout or a lockSecond out of range
     */
    public static function lockRead(string $key, float $timeout = 0, int $lockSecond = 20): bool {}

    /**
     * Takes the write (exclusive) lock on $key for $lockSecond seconds, waiting
     * up to $timeout seconds in the key's queue. A process holding a read hold
     * on $key upgrades it when it is the only holder, at once and without
     * waiting (two readers waiting to upgrade would wait for each other):
     * otherwise false, and the read hold stays.
     *
     * @return bool true when this process now holds $key for writing, false when busy
     * @throws RedisLockException when Redis cannot answer, or the name holds another kind of lock
     * @throws ValueError on an empty key, a negative or non-finite timeout or a lockSecond out of range
     */
    public static function lockWrite(string $key, float $timeout = 0, int $lockSecond = 20): bool {}

    /**
     * Releases this process' hold on $key, read or write (one of several holds
     * when it was taken again), handing the lock to the next waiters.
     *
     * @return bool true when released; false when this process did not hold it or it expired
     * @throws RedisLockLostException when a renewed hold was lost
     * @throws RedisLockException when Redis cannot answer
     */
    public static function release(string $key): bool {}

    /**
     * Sets the lease of this process' hold on $key to $lockSecond seconds.
     *
     * @return bool true when extended; false when this process does not hold it or it expired
     * @throws RedisLockLostException when a renewed hold was lost
     * @throws RedisLockException when Redis cannot answer
     */
    public static function extend(string $key, int $lockSecond = 20): bool {}

    /**
     * Everything about $key in one round trip: held (this process holds it
     * now), count and lost (as for RedisMutexLock::inspect()), mode ('read' or
     * 'write': this process' live hold, else null), writer (somebody holds it
     * for writing), readers (read holds), holders (each with mode, host, pid,
     * since and ttl in ms) and waiters (in the key's queue).
     *
     * @return array{held: bool, count: int, lost: bool, mode: ?string, writer: bool, readers: int, holders: list<array{mode: string, host: ?string, pid: ?int, since: ?float, ttl: int}>, waiters: int}
     * @throws RedisLockException when Redis cannot answer
     */
    public static function inspect(string $key): array {}

    /**
     * Owner-level operations for framework adapters: a hold taken for the
     * caller's $owner token (from RedisMutexLock::newOwner()), not released at
     * request end nor renewed; $ttl in milliseconds. A hold of $owner in the
     * other mode is upgraded (only when it is the only holder: else false at
     * once, whatever $timeout, and the read hold stays) or downgraded.
     *
     * @throws RedisLockException when Redis cannot answer
     * @throws ValueError on an empty key or owner, a ttl out of range or a negative timeout
     */
    public static function acquireOwner(string $key, string $owner, bool $write, int $ttl, float $timeout = 0): bool {}

    /** Releases the hold of $owner, from any process. */
    public static function releaseOwner(string $key, string $owner): bool {}

    /** Sets the lease (ms) of the hold of $owner. */
    public static function extendOwner(string $key, string $owner, int $ttl): bool {}

    /**
     * The mode of the hold of $owner: 'read', 'write', or null when it holds none.
     */
    public static function modeOf(string $key, string $owner): ?string {}
}

/**
 * A fair counting semaphore on one Redis server (redis_lock.server): at most
 * $limit holders of $key at once, each permit with its own lease
 * ($lockSecond), so the permits of crashed holders come back by themselves.
 * Waiters queue in FIFO order; a release hands its permit to the next
 * waiter directly. Each caller passes its own limit: it is let in only while
 * fewer than its $limit permits are held, so holders never exceed the
 * largest limit any of them passed, and a caller is never let in past the
 * limit it passed itself.
 */
final class RedisSemaphore
{
    /** Static methods only. */
    private function __construct() {}

    /**
     * Takes a permit of $key for $lockSecond seconds, waiting up to $timeout
     * seconds in the key's queue. A process already holding a permit of $key
     * takes it once more (redis_lock.reentrant; it still counts as one
     * permit) or gets false (reentrant off).
     *
     * @return bool true when this process now holds a permit, false when none came free before $timeout
     * @throws RedisLockException when Redis cannot answer, or the name holds another kind of lock
     * @throws ValueError on an empty key, a limit below 1, a negative or non-finite timeout or a lockSecond out of range
     */
    public static function acquire(string $key, int $limit, float $timeout = 0, int $lockSecond = 20): bool {}

    /**
     * Gives this process' permit of $key back (one of several holds when it
     * was taken again), handing it to the next waiter.
     *
     * @return bool true when released; false when this process held none or it expired
     * @throws RedisLockLostException when a renewed permit was lost
     * @throws RedisLockException when Redis cannot answer
     */
    public static function release(string $key): bool {}

    /**
     * Sets the lease of this process' permit of $key to $lockSecond seconds.
     *
     * @return bool true when extended; false when this process holds none or it expired
     * @throws RedisLockLostException when a renewed permit was lost
     * @throws RedisLockException when Redis cannot answer
     */
    public static function extend(string $key, int $lockSecond = 20): bool {}

    /**
     * Everything about $key in one round trip: held, count, lost (as for
     * RedisMutexLock::inspect()), used (permits held), limit (the largest
     * limit of the holders; null when nobody holds one), free (limit - used,
     * null when nobody holds one), holders (host, pid, since, ttl in ms,
     * limit and weight of each) and waiters.
     *
     * @return array{held: bool, count: int, lost: bool, used: int, limit: ?int, free: ?int, holders: list<array{host: ?string, pid: ?int, since: ?float, ttl: int, limit: int, weight: int}>, waiters: int}
     * @throws RedisLockException when Redis cannot answer
     */
    public static function inspect(string $key): array {}

    /**
     * Owner-level operations for framework adapters: $weight permits taken for
     * the caller's $owner token, not released at request end nor renewed;
     * $ttl in milliseconds.
     *
     * @throws RedisLockException when Redis cannot answer
     * @throws ValueError on an empty key or owner, a limit or weight below 1, a weight above the limit,
     *         a ttl out of range or a negative timeout
     */
    public static function acquireOwner(string $key, string $owner, int $limit, int $ttl, float $timeout = 0, int $weight = 1): bool {}

    /** Gives back the permits of $owner, from any process. */
    public static function releaseOwner(string $key, string $owner): bool {}

    /** Sets the lease (ms) of the permits of $owner. */
    public static function extendOwner(string $key, string $owner, int $ttl): bool {}

    /** Whether $owner holds permits of $key now. */
    public static function holds(string $key, string $owner): bool {}
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
     * @param int $retryDelay milliseconds. With $retryCount > 1 and $retryDelay > 0, a
     *        refused lock() waits in the resource's queue on every node, in the order
     *        the calls began, for retryCount × retryDelay ms in all; otherwise (and after
     *        an outage) a failed attempt waits a random time in [retryDelay/2, retryDelay]
     *        before the next one
     * @param int $retryCount attempts in total without the queue (at least 1)
     * @throws ValueError on an invalid server list, a negative retryDelay or retryCount < 1
     */
    public function __construct(#[\SensitiveParameter] array $servers, int $retryDelay = 200, int $retryCount = 3) {}

    /**
     * @param int $ttl milliseconds
     * @return array{validity: float, resource: string, token: string}|false
     *         false when others still hold the resource once the patience is over
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

/**
 * Units of work inside one request, for processes that serve many of them
 * before their request ends: queue workers (queue:work, messenger:consume),
 * Octane, RoadRunner, FrankenPHP's worker mode. Ending a unit does for the
 * locks taken in it what request end does for all: a lock the unit leaked
 * goes to the next waiter at once instead of staying held (and renewed) for
 * as long as the worker lives. The framework adapters open and end scopes
 * from the frameworks' own events; a hand-written worker loop calls them
 * around each unit. See docs/workers.md.
 */
final class RedisLock
{
    private function __construct() {}

    /**
     * Opens a unit of work inside the innermost one open.
     *
     * @return int its id, for endScope() (ids are never reused within a process)
     */
    public static function beginScope(): int {}

    /**
     * Ends scope $scope and every scope opened inside it: releases the locks
     * taken in them that this process still holds (of every class, each with
     * its hand-off to the next waiter, in one round per server) and ends
     * their renewals. Locks taken for an owner token (acquire() with $owner,
     * the framework adapters) are left held, no longer renewed. Locks taken
     * before the scope are left alone, also when taken again inside it.
     * A scope that is not open (ended already, never opened, or opened in a
     * parent process) ends nothing. Never throws for Redis: a lock whose
     * server does not answer is counted in 'failed' and left to its TTL.
     *
     * @param int $scope the id beginScope() returned; 0: the innermost scope open
     * @return array{keys: list<string>, failed: int, owner_locks: int}
     *         keys: the Redis keys of the locks the scope still held (what the
     *         unit left behind); failed: how many of them could not be released;
     *         owner_locks: owner-token locks taken in it, left held
     * @throws ValueError when $scope is negative
     */
    public static function endScope(int $scope = 0): array {}

    /**
     * The locks whose key, after redis_lock.prefix, matches the glob $pattern
     * (SCAN MATCH syntax: * ? [abc] \\x), of every kind, on redis_lock.server
     * (every master of a Cluster), sorted by key. Read only: SCAN ... TYPE
     * string and TYPE zset over each master's whole keyspace (never KEYS),
     * then one read-only script per lock key, pipelined. See docs/operating.md.
     *
     * Each entry: key (without the prefix), redis_key, kind ('mutex',
     * 'read-write', 'semaphore'), node (host:port that answered), ttl_ms (the
     * key's; -1 no expiry), fence (the holder's fencing token, if it asked for
     * one), holders (token, host, pid, since in Unix seconds, label, ttl_ms,
     * mode 'read'/'write' for a read/write lock, weight and limit for a
     * semaphore; host, pid and since are null for a value that is not one of
     * our tokens), waiters (first in line first, a RedLock resource's by the
     * time each call began, the same on every node; at most 100: token, host,
     * pid, label, waited_ms: the server's time now minus the time the
     * waiter's token says it began, place_ms: what is left of its place, 0 or
     * less for a dead waiter that the next hand-off passes over, mode) and
     * queued (how many wait in all).
     *
     * @param string $pattern '*' for every lock
     * @param int $limit at most this many locks (1 to 100000); more matching keys are left out
     * @return list<array{key: string, redis_key: string, kind: string, node: string, ttl_ms: ?int, fence: ?int, holders: list<array{token: string, host: ?string, pid: ?int, since: ?float, label: ?string, ttl_ms: ?int, mode: ?string, weight: ?int, limit: ?int}>, waiters: list<array{token: string, host: ?string, pid: ?int, label: ?string, waited_ms: ?int, place_ms: int, mode: ?string}>, queued: int}>
     * @throws ValueError when $pattern is empty or $limit is out of range
     * @throws RedisLockException when a server cannot answer
     */
    public static function locks(string $pattern, int $limit = 1000): array {}

    /**
     * The lock at $key (after redis_lock.prefix), as an entry of locks(), or
     * null when the key holds no lock.
     *
     * @return array{key: string, redis_key: string, kind: string, node: string, ttl_ms: ?int, fence: ?int, holders: list<array>, waiters: list<array>, queued: int}|null
     * @throws ValueError when $key is empty or too long
     * @throws RedisLockException when the server cannot answer
     */
    public static function describe(string $key): ?array {}

    /**
     * Drops the place of the waiter $token (as locks() shows it) from $key's
     * queue: for a waiter that died waiting, whose place would otherwise
     * stay until it runs out. A live waiter joins again at its next look: at
     * the back, or for a RedLock resource (one node at a time) at the place
     * its call's start gives it.
     *
     * @return bool true when the waiter was in the queue
     * @throws ValueError when $key or $token is empty or too long, or $token has a NUL byte
     * @throws RedisLockException when the server cannot answer
     */
    public static function evict(string $key, string $token): bool {}

    /**
     * The label that the lock tokens this process makes from now until the
     * end of the request carry (a request id, a job id, a trace id), shown by
     * locks(), describe() and redis-lock. Bytes other than [A-Za-z0-9._-]
     * become '_'; at most 64 bytes are kept. '' goes back to redis_lock.label.
     */
    public static function setLabel(string $label): void {}
}

/**
 * The lock counters as OpenMetrics text, for an application's /metrics
 * route (docs/operating-metrics.md). Under PHP-FPM they cover every worker
 * of the pool (a table shared by the processes the master forks); from the
 * CLI, this process and its forks. Counters are `redis_lock_<name>_total`,
 * histograms (wait and hold time, in seconds) `_bucket{le=...}` (cumulative),
 * `_sum`, `_count`; labels `kind` (mutex, redlock, read-write, semaphore)
 * and `pattern` (the first of redis_lock.metrics_patterns the Redis key
 * matches, else "other"); the text ends with `# EOF`. A series appears once
 * it counted something.
 */
function redis_lock_metrics(): string {}

/**
 * The same counters as numbers, of the pool and of this process alone.
 *
 * @return array{
 *     shared: bool,
 *     buckets_ms: list<int>,
 *     pool: list<array{kind: string, pattern: string, acquisitions: int, contended: int, timeouts: int,
 *         busy: int, handoffs: int, renewals: int, lost_leases: int, errors: array<string, int>,
 *         wait: array{buckets: list<int>, sum_ms: float, count: int},
 *         hold: array{buckets: list<int>, sum_ms: float, count: int}}>,
 *     process: list<array{kind: string, pattern: string, acquisitions: int, contended: int, timeouts: int,
 *         busy: int, handoffs: int, renewals: int, lost_leases: int, errors: array<string, int>,
 *         wait: array{buckets: list<int>, sum_ms: float, count: int},
 *         hold: array{buckets: list<int>, sum_ms: float, count: int}}>
 * }
 *   shared: whether `pool` covers every process forked after startup (false:
 *   the shared table could not be mapped, and `pool` is this process' counts);
 *   buckets_ms: the histograms' upper bounds in ms; each histogram's `buckets`
 *   has one count per bound then one for longer (+Inf), NOT cumulative;
 *   errors: by cause (connect, auth, timeout, io, reply, protocol, same_server,
 *   interrupted, unresolved, redirected, slot_unstable, replicas,
 *   outlived_by_wait), one per server that failed. Only series that counted
 *   something are listed.
 */
function redis_lock_metrics_array(): array {}
