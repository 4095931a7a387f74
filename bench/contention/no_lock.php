<?php
/**
 * Not a lock: acquire() and release() do nothing. Only for checking the
 * harness itself (BENCH_CONTENTION_IMPLS=no_lock): the shared counter must
 * show lost updates and the scenario must report this "implementation" as
 * failed. Never in the default list.
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port): BlockingContender => new class implements BlockingContender {
    public function redisKey(string $key): string
    {
        return $key;
    }

    public function acquire(string $key): void
    {
    }

    public function release(): void
    {
    }
};
