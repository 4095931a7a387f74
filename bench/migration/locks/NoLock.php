<?php
/**
 * No lock at all: the harness' self-check. `--mix=none:4` must report lost
 * updates (and exit 1); if it does not, the critical section is too short to
 * catch two holders at once on this machine.
 */

declare(strict_types=1);

namespace Bench\Migration;

final class NoLock implements MixLock
{
    public function __construct(Options $o)
    {
    }

    public static function label(Options $o): string
    {
        return 'no lock (harness self-check, must lose updates)';
    }

    public static function unavailable(Options $o): ?string
    {
        return null;
    }

    public function acquire(string $key): bool
    {
        return true;
    }

    public function release(): bool
    {
        return true;
    }
}
