<?php
/**
 * RedisMutexLock (this extension). The worker is started with
 * -d redis_lock.server=redis://host:port; the extension keeps its own
 * connection open across calls (and across requests under PHP-FPM).
 */

declare(strict_types=1);

namespace Bench;

return fn (array $servers): Contender => new class implements Contender {
    private const KEY = 'bench:redis_mutex_lock';

    public function __construct()
    {
        if (!extension_loaded('redis_lock')) {
            fail('the redis_lock extension is not loaded');
        }
    }

    public function redisKey(): string
    {
        return ini_get('redis_lock.prefix') . self::KEY;
    }

    public function acquire(): void
    {
        \RedisMutexLock::lock(self::KEY, 0, TTL_SECONDS) || fail('RedisMutexLock::lock() returned false');
    }

    public function release(): void
    {
        \RedisMutexLock::release(self::KEY) || fail('RedisMutexLock::release() returned false');
    }
};
