<?php
/**
 * Not a lock: hold() runs the section at once. Only for checking the harness
 * itself (BENCH_RWLOCK_IMPLS=no_lock): the time stamps and the check file
 * must both report violations and the scenario must report this
 * "implementation" as failed. Never in the default list.
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port, int $n): SharedContender => new class implements SharedContender {
    public function hold(string $key, string $mode, callable $section): void
    {
        $section();
    }
};
