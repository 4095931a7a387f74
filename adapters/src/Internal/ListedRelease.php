<?php

declare(strict_types=1);

namespace RedisLock\Internal;

/**
 * The release of a lock an operator picked from RedisLock::locks() /
 * describe(), shared by the framework consoles: whoever holds it, or only
 * the holds it listed, each by its token and owner-checked, so that a lock
 * that changed hands meanwhile stays with its new holder. A released lock
 * goes to its first waiter, as at any release.
 *
 * @internal
 */
final class ListedRelease
{
    /**
     * Releases $lock (an entry of RedisLock::locks()): with $holders null,
     * whoever holds it (a mutex by RedisMutexLock::forceRelease(), each
     * listed holder of a read/write lock or semaphore by its token); else
     * only the holds of $holders. $on runs each extension call (on the
     * console's server and prefix).
     *
     * @param list<array{token: string}>|null $holders
     * @param \Closure(\Closure(): bool): bool $on
     * @return int how many holds were released
     */
    public static function release(array $lock, ?array $holders, \Closure $on): int
    {
        $key = $lock['key'];
        if ($holders === null && $lock['kind'] === 'mutex') {
            return $on(static fn (): bool => \RedisMutexLock::forceRelease($key)) ? 1 : 0;
        }
        $released = 0;
        foreach ($holders ?? $lock['holders'] as $holder) {
            $token = $holder['token'];
            $released += $on(match ($lock['kind']) {
                'read-write' => static fn (): bool => \RedisReadWriteLock::releaseOwner($key, $token),
                'semaphore' => static fn (): bool => \RedisSemaphore::releaseOwner($key, $token),
                default => static fn (): bool => \RedisMutexLock::releaseOwner($key, $token),
            }) ? 1 : 0;
        }

        return $released;
    }
}
