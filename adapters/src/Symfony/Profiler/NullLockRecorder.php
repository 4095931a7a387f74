<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Profiler;

/** The recorder of a store without profiler: records nothing, costs one call. */
final class NullLockRecorder implements LockRecorder
{
    private static ?self $instance = null;

    public static function instance(): self
    {
        return self::$instance ??= new self();
    }

    public function isEnabled(): bool
    {
        return false;
    }

    public function acquired(string $key, string $kind, string $token, float $waitMs, ?int $position, ?int $fence = null): void
    {
    }

    public function timedOut(string $key, string $kind, string $token, float $waitMs, ?int $position): void
    {
    }

    public function released(string $key, string $token): void
    {
    }

    public function lost(string $key, string $token): void
    {
    }
}
