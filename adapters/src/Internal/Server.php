<?php

declare(strict_types=1);

namespace RedisLock\Internal;

/**
 * Runs one extension call against a given server. The static API of
 * RedisMutexLock reads the INI setting redis_lock.server at each call, so a
 * store bound to another server sets it for the call and restores it
 * afterwards, also when the call throws. PHP runs one request per process at a
 * time, so nothing else sees the temporary value; the extension's renewal
 * thread keeps renewing a lock on the server it was taken on.
 *
 * @internal
 */
final class Server
{
    private const INI = 'redis_lock.server';

    /**
     * @template T
     * @param \Closure(): T $call
     * @return T
     */
    public static function call(?string $server, \Closure $call): mixed
    {
        if ($server === null) {
            return $call();
        }
        $previous = ini_get(self::INI);
        if ($previous === $server) {
            return $call();
        }
        if (ini_set(self::INI, $server) === false) {
            throw new \LogicException('cannot set redis_lock.server: is the redis_lock extension loaded?');
        }
        try {
            return $call();
        } finally {
            ini_set(self::INI, (string) $previous);
        }
    }
}
