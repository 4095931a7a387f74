<?php
/**
 * RedLock (this extension) over 5 masters: the scenario's server and the 4
 * that BENCH_REDLOCK_MORE lists ("host:port host:port …", started by the
 * scenario). new RedLock($servers, 200, 150): 30 s of patience
 * (retryCount × retryDelay), waiting in its queue; lock($key, TTL), unlock().
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port): BlockingContender => new class ($host, $port) implements BlockingContender {
    private \RedLock $rl;
    private array $lock = [];

    public function __construct(string $host, int $port)
    {
        extension_loaded('redis_lock') || fail('the redis_lock extension is not loaded');
        $this->rl = new \RedLock(redlock_masters($host, $port), 200, CONTENTION_TIMEOUT_SECONDS * 5);
    }

    public function redisKey(string $key): string
    {
        return $key;
    }

    public function acquire(string $key): void
    {
        $lock = $this->rl->lock($key, CONTENTION_TTL_SECONDS * 1000);
        is_array($lock) || fail('RedLock::lock() returned false after waiting ' . CONTENTION_TIMEOUT_SECONDS . ' s');
        $this->lock = $lock;
    }

    public function release(): void
    {
        $this->rl->unlock($this->lock) || fail('RedLock::unlock() returned false');
    }
};
