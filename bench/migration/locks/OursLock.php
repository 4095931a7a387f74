<?php
/**
 * RedisMutexLock of whatever build this worker loaded: lock($name, $timeout,
 * $ttl) waits in the key's FIFO queue; release($name). "ours" is the current
 * build, "old:<.so>" another one (run.php loads it with php -n). Positional
 * arguments only, so that older builds with other parameter names work too.
 */

declare(strict_types=1);

namespace Bench\Migration;

final class OursLock implements MixLock
{
    private string $name = '';

    public function __construct(private Options $o)
    {
    }

    public static function label(Options $o): string
    {
        return sprintf('RedisMutexLock::lock(…, %g, %d), %s', $o->timeout, $o->ttl, build());
    }

    public static function unavailable(Options $o): ?string
    {
        return extension_loaded('redis_lock') ? null : 'the redis_lock extension is not loaded';
    }

    public function acquire(string $key): bool
    {
        $this->name = extension_name($key);
        return \RedisMutexLock::lock($this->name, $this->o->timeout, $this->o->ttl);
    }

    public function release(): bool
    {
        return \RedisMutexLock::release($this->name);
    }
}
