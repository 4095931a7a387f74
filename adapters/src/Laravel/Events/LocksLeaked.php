<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Events;

/**
 * A unit of work (a queue job, an Octane request, task or tick) ended with
 * locks of this process still held, which WorkerScopes released then
 * (docs/workers.md): code that forgot a release(), or a job that died
 * between lock and release. Locks of the extension's own API
 * (RedisMutexLock::lock() and the other classes); a Cache::lock() is an
 * owner-token lock that another process may release, and is not counted.
 * Dispatched only when a listener is registered for it (the warning in the
 * log is written either way).
 */
final class LocksLeaked
{
    /**
     * @param list<string> $keys   the Redis keys of the locks left held (with redis_lock.prefix)
     * @param string       $unit   which unit ended ("every unit still open" when the worker stopped)
     * @param int          $failed how many of them could not be released (left to their TTL)
     */
    public function __construct(
        public readonly array $keys,
        public readonly string $unit,
        public readonly int $failed,
    ) {
    }
}
