<?php
/**
 * Laravel's own lock: Illuminate\Cache\RedisStore::lock($key, $ttl)->block($timeout)
 * (Debian php-illuminate-cache + php-illuminate-redis), on a RedisManager with
 * the phpredis driver (php-redis), else predis (php-predis). block() tries
 * SET NX EX and sleeps 250 ms after each refusal; LockTimeoutException after
 * $timeout s. release() is Laravel's owner-checked Lua script. The store's and
 * the connection's prefixes are empty, so the Redis key is $key itself.
 */

declare(strict_types=1);

namespace Bench\Migration;

use Illuminate\Cache\RedisStore;
use Illuminate\Redis\RedisManager;

require_once __DIR__ . '/FrameworkLocks.php';

final class LaravelLock implements MixLock
{
    use LaravelBlocking;

    private RedisStore $store;

    public function __construct(private Options $o)
    {
        $redis = new RedisManager(null, client(), [
            'default' => ['host' => $o->host, 'port' => $o->port, 'timeout' => 1.0],
        ]);
        $this->store = new RedisStore($redis, '', 'default');
    }

    public static function label(Options $o): string
    {
        return sprintf('Laravel RedisStore lock(…, %d)->block(%g), retried every 250 ms (%s, %s)', $o->ttl, $o->timeout,
            package_version('php-illuminate-cache', 'illuminate/cache'), client());
    }

    public static function unavailable(Options $o): ?string
    {
        $missing = [];
        require_debian('Illuminate/Cache/autoload.php') || $missing[] = 'php-illuminate-cache';
        require_debian('Illuminate/Redis/autoload.php') || $missing[] = 'php-illuminate-redis';
        client() !== null || $missing[] = 'php-redis or php-predis';
        return $missing ? 'needs ' . implode(', ', $missing) . ' (apt-get install them)' : null;
    }

    public function acquire(string $key): bool
    {
        return $this->block($this->store->lock($key, $this->o->ttl));
    }
}

/** 'phpredis' when the redis extension is loaded, else 'predis' when installed, else null. */
function client(): ?string
{
    if (extension_loaded('redis')) {
        return 'phpredis';
    }
    return require_debian('Predis/autoload.php') ? 'predis' : null;
}
