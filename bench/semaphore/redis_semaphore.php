<?php
/**
 * RedisSemaphore (this extension), blocking as applications call it:
 * RedisSemaphore::acquire($key, <permits>, 30, 10), then
 * RedisSemaphore::release($key). The worker is started with
 * -d redis_lock.server=….
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port, int $n): SharedContender => new class($n) implements SharedContender {
    public function __construct(private int $permits)
    {
        if (!class_exists(\RedisSemaphore::class, false)) {
            fail('this build of the redis_lock extension has no RedisSemaphore (or the extension is not loaded)');
        }
    }

    public function hold(string $key, string $mode, callable $section): void
    {
        $taken = \RedisSemaphore::acquire($key, $this->permits, CONTENTION_TIMEOUT_SECONDS, CONTENTION_TTL_SECONDS);
        $taken === true || fail('RedisSemaphore::acquire() returned ' . var_export($taken, true) . ' after waiting up to '
            . CONTENTION_TIMEOUT_SECONDS . ' s');
        $section();
        \RedisSemaphore::release($key) === true || fail('RedisSemaphore::release() returned false');
    }
};
