<?php
/**
 * RedisMutexLock (this extension) on a Redis Cluster. The worker is started
 * with -d redis_lock.server=redis-cluster://seed,…; the extension learns the
 * slot map (CLUSTER SLOTS) and sends each key's commands to its master.
 * Cycle i locks bench:redis_mutex_lock_cluster:k(i mod 1000), so the cycles
 * go round all the masters.
 */

declare(strict_types=1);

namespace Bench;

return fn (array $servers): Contender => new class implements Contender, OnCluster {
    use SpreadKeys;

    private const KEY = 'bench:redis_mutex_lock_cluster';

    public function redisKey(): string
    {
        return ini_get('redis_lock.prefix') . $this->key();
    }

    public function acquire(): void
    {
        \RedisMutexLock::lock($this->key(), 0, TTL_SECONDS) || fail('RedisMutexLock::lock() returned false');
    }

    public function release(): void
    {
        \RedisMutexLock::release($this->key()) || fail('RedisMutexLock::release() returned false');
        $this->nextKey();
    }
};
