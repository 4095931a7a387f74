<?php

declare(strict_types=1);

namespace RedisLock\Internal;

/**
 * Runs one extension call against a given server, and with a given key
 * prefix. The static API of the extension reads the INI settings
 * redis_lock.server and redis_lock.prefix at each call, so a store bound to
 * another server, or whose keys carry another prefix (the key compatibility
 * settings of the adapters: Laravel's or symfony's own lock keys), sets them
 * for the call and restores them afterwards, also when the call throws. PHP
 * runs one request per process at a time, so nothing else sees the temporary
 * values; a lock keeps the key and the server it was taken with, and the
 * extension's renewal thread keeps renewing it there.
 *
 * @internal
 */
final class Server
{
    private const INI = 'redis_lock.server';

    private const PREFIX = 'redis_lock.prefix';

    /**
     * @template T
     * @param string|null   $server a redis_lock.server DSN (null: the setting as it is)
     * @param \Closure(): T $call
     * @param string|null   $prefix a redis_lock.prefix (null: the setting as it is)
     * @return T
     */
    public static function call(?string $server, \Closure $call, ?string $prefix = null): mixed
    {
        $set = [];
        if ($server !== null) {
            $set[self::INI] = $server;
        }
        if ($prefix !== null) {
            $set[self::PREFIX] = $prefix;
        }
        $previous = [];
        try {
            foreach ($set as $name => $value) {
                $old = ini_get($name);
                if ($old === $value) {
                    continue;
                }
                if (ini_set($name, $value) === false) {
                    throw new \LogicException("cannot set $name: is the redis_lock extension loaded?");
                }
                $previous[$name] = (string) $old;
            }

            return $call();
        } finally {
            foreach ($previous as $name => $value) {
                ini_set($name, $value);
            }
        }
    }
}
