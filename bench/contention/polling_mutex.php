<?php
/**
 * The seed's polling mutex, emulated in PHP with the extension's non-waiting
 * call: one SET NX per attempt, 100 ms apart, which is exactly what
 * RedisMutexLock::lock($key, $timeout > 0, …) did before it learnt to queue:
 *
 *     while (!RedisMutexLock::lock($key, 0, 10)) usleep(100000);
 *
 * (plus a 30 s deadline, so that a broken run fails instead of hanging).
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port): BlockingContender => new class implements BlockingContender {
    use RedisMutexLockCycle;

    private const SLEEP_US = 100_000;

    public function acquire(string $key): void
    {
        $deadline = hrtime(true) + CONTENTION_TIMEOUT_SECONDS * 1_000_000_000;
        while (!\RedisMutexLock::lock($key, 0, CONTENTION_TTL_SECONDS)) {
            hrtime(true) < $deadline || fail('not acquired within ' . CONTENTION_TIMEOUT_SECONDS . ' s');
            usleep(self::SLEEP_US);
        }
        $this->key = $key;
    }
};
