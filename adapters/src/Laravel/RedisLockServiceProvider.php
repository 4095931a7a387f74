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
 *             'key_prefix' => null,         // null: keys start with redis_lock.prefix; a string: with it instead
 *         ],
 *         'redis' => [...],
 *     ],
 *
 * Cache::store('redis_lock')->lock(...) works whatever the default store is.
 *
 * It also makes each queue job and each Octane request, task and tick a unit
 * of work (WorkerScopes, docs/workers.md): locks a job leaves held are
 * released when it ends, and their renewals stop.
 *
 * `key_prefix` is the key compatibility setting for a migration from
 * Laravel's own Redis locks: set to their prefix (the lock connection's Redis
 * prefix . the cache prefix; Laravel 8 to 10 add ":" after a non-empty cache
 * prefix), Cache::store('redis_lock')->lock($name) and the `redis` store's
 * lock($name) are the same Redis key. See docs/migration.md.
 *
 * In the console (Laravel 9+), it registers the artisan commands
 * redis-lock:list, redis-lock:show and redis-lock:release (Console\, see
 * docs/operating-laravel.md). With an event dispatcher bound, the stores'
 * locks dispatch the events of Events\ to whoever listens for them.
 */
class RedisLockServiceProvider extends ServiceProvider
{
    public const DRIVER = 'redis_lock';

    public function boot()
    {
        if ($this->app->bound('events') && class_exists(\RedisLock::class, false)) {
            $app = $this->app;
            WorkerScopes::listen($app['events'], static fn () => $app->bound('log') ? $app['log'] : null);
        }
        // Laravel 9+'s console (its output components); not on a plain container.
        if (class_exists(\Illuminate\Console\View\Components\Factory::class)
            && method_exists($this->app, 'runningInConsole') && $this->app->runningInConsole()) {
            $this->commands([Console\ListLocksCommand::class, Console\ShowLockCommand::class, Console\ReleaseLockCommand::class]);
        }
    }

    public function register()
    {
        $this->callAfterResolving('cache', static function (CacheManager $manager): void {
            // Not static: CacheManager::extend() binds the creator to itself.
            $manager->extend(self::DRIVER, function ($app, array $config) use ($manager) {
                $cache = $config['cache'] ?? null;
                $store = new NativeLockStore(
                    $config['server'] ?? null,
                    (string) ($config['prefix'] ?? ''),
                    (int) ($config['lease'] ?? NativeLock::LEASE_SECONDS),
                    $cache === null ? null : static fn () => $manager->store($cache),
                    isset($config['key_prefix']) ? (string) $config['key_prefix'] : null,
                );
                if ($app->bound('events')) {
                    $store->setLockEventDispatcher($app['events']);
                }

                return $manager->repository($store);
            });
        });
    }
}
