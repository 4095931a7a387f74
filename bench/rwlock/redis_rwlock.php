<?php
/**
 * RedisReadWriteLock (this extension), blocking as applications call it:
 * RedisReadWriteLock::lockRead($key, 30, 10) or ::lockWrite($key, 30, 10),
 * then RedisReadWriteLock::release($key). The worker is started with
 * -d redis_lock.server=….
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port, int $n): SharedContender => new class implements SharedContender {
    public function __construct()
    {
        if (!class_exists(\RedisReadWriteLock::class, false)) {
            fail('this build of the redis_lock extension has no RedisReadWriteLock (or the extension is not loaded)');
        }
    }

    public function hold(string $key, string $mode, callable $section): void
    {
        $taken = $mode === 'write'
            ? \RedisReadWriteLock::lockWrite($key, CONTENTION_TIMEOUT_SECONDS, CONTENTION_TTL_SECONDS)
            : \RedisReadWriteLock::lockRead($key, CONTENTION_TIMEOUT_SECONDS, CONTENTION_TTL_SECONDS);
        $taken === true || fail("RedisReadWriteLock::lock" . ucfirst($mode) . '() returned ' . var_export($taken, true)
            . ' after waiting up to ' . CONTENTION_TIMEOUT_SECONDS . ' s');
        $section();
        \RedisReadWriteLock::release($key) === true || fail("RedisReadWriteLock::release() of a $mode hold returned false");
    }
};
