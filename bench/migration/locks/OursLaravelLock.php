<?php
/**
 * The Laravel adapter: RedisLock\Laravel\NativeLock (adapters/src/Laravel),
 * what Cache::lock() returns from the redis_lock cache store, built directly
 * as `new NativeLock($name, $ttl)` (no framework needed). block($timeout)
 * waits in the extension's FIFO queue and throws LockTimeoutException when
 * it gives up. Its key is redis_lock.prefix . $name, as for RedisMutexLock.
 */

declare(strict_types=1);

namespace Bench\Migration;

use RedisLock\Laravel\NativeLock;

require_once __DIR__ . '/FrameworkLocks.php';

final class OursLaravelLock implements MixLock
{
    use LaravelBlocking;

    public function __construct(private Options $o)
    {
    }

    public static function label(Options $o): string
    {
        return sprintf('adapters NativeLock(…, %d)->block(%g), %s, %s', $o->ttl, $o->timeout, build(),
            package_version('php-illuminate-cache', 'illuminate/cache'));
    }

    public static function unavailable(Options $o): ?string
    {
        if (!extension_loaded('redis_lock')) {
            return 'the redis_lock extension is not loaded';
        }
        if (!require_debian('Illuminate/Cache/autoload.php')) {
            return 'illuminate/cache is not installed (apt-get install php-illuminate-cache)';
        }
        require_once $o->adapters . '/autoload.php';
        return null;
    }

    public function acquire(string $key): bool
    {
        return $this->block(new NativeLock(extension_name($key), $this->o->ttl));
    }
}
