<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Profiler;

use Psr\Log\LoggerInterface;

/**
 * An acquisition of RedisLockStore while a recorder (the profiler) or a
 * logger watches it: its first attempt is made on its own, and only when
 * that finds the lock held does it wait, after a look at the queue for the
 * recorder (how many wait ahead: one round trip). Logs the wait when it got
 * the lock after one; tells the recorder how it went.
 *
 * @internal
 */
final class WatchedAcquisition
{
    /**
     * @param \Closure(float): bool $attempt one attempt, waiting up to the given seconds
     * @param \Closure(): int       $queued  how many wait in the lock's queue now
     * @param \Stringable           $key     the lock (symfony's Key: what its own records carry)
     */
    public static function run(\Closure $attempt, \Closure $queued, float $timeout, LockRecorder $recorder, ?LoggerInterface $logger, \Stringable $key, string $kind, string $token): bool
    {
        $start = hrtime(true);
        $position = null;
        $taken = $attempt(0.0);
        $waited = !$taken && $timeout > 0;
        if ($waited) {
            if ($recorder->isEnabled()) {
                $position = $queued();
            }
            $taken = $attempt($timeout);
        }
        $ms = (hrtime(true) - $start) / 1e6;
        if ($waited && $taken && $logger !== null) {
            $logger->info('Acquired the "{resource}" lock after waiting {waited_ms} ms.', ['resource' => $key, 'waited_ms' => (int) round($ms)]);
        }
        if ($taken) {
            $recorder->acquired((string) $key, $kind, $token, $ms, $position);
        } else {
            $recorder->timedOut((string) $key, $kind, $token, $ms, $position);
        }

        return $taken;
    }
}
