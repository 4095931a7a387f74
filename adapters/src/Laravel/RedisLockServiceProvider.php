<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Support\ServiceProvider;

/**
 * Registers the `redis_lock` cache driver. In config/cache.php:
 *
 *     'default' => 'redis_lock',          // Laravel 8 takes Cache::lock() from the default store
 *     'stores' => [
 *         'redis_lock' => [
 *             'driver' => 'redis_lock',
 *             'cache'  => 'redis',          // where Cache::get()/put()/… go (null: they throw)
 *             'server' => null,             // a redis_lock.server DSN (null: redis_lock.server)
 *             'prefix' => '',               // prepended to lock names (after redis_lock.prefix)
 *             'lease'  => 30,               // seconds: renewed lease of locks with $seconds = 0
 *         ],
 *         'redis' => [...],
 *     ],
 *
 * Cache::store('redis_lock')->lock(...) works whatever the default store is.
 */
class RedisLockServiceProvider extends ServiceProvider
{
    public const DRIVER = 'redis_lock';

    public function register()
    {
        $this->callAfterResolving('cache', static function (CacheManager $manager): void {
            // Not static: CacheManager::extend() binds the creator to itself.
            $manager->extend(self::DRIVER, function ($app, array $config) use ($manager) {
                $cache = $config['cache'] ?? null;

                return $manager->repository(new NativeLockStore(
                    $config['server'] ?? null,
                    (string) ($config['prefix'] ?? ''),
                    (int) ($config['lease'] ?? NativeLock::LEASE_SECONDS),
                    $cache === null ? null : static fn () => $manager->store($cache),
                ));
            });
        });
    }
}
