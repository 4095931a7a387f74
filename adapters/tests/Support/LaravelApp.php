<?php

declare(strict_types=1);

namespace RedisLock\Tests\Support;

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository;
use Illuminate\Container\Container;
use Illuminate\Events\Dispatcher;
use Illuminate\Support\Facades\Facade;
use PHPUnit\Framework\Assert;
use RedisLock\Laravel\RedisLockServiceProvider;

/**
 * A Laravel container as the tests of the adapter's events and commands need
 * it: config, Laravel's own event dispatcher and cache manager, a redis_lock
 * store 'locks' (prefix 'app:', lease 1 s) on the test server as the default
 * store, the service provider registered and booted; a Foundation
 * application when 'Foundation' is among the packages it needs. Skips the test (with
 * the reason) where a Laravel package it needs is not installed.
 */
final class LaravelApp
{
    /**
     * @param list<string> $packages Illuminate packages needed, e.g. 'Events', 'Console'
     * @param bool $listing whether the test needs RedisLock::locks()
     */
    public static function make(string $server, array $packages, bool $listing = false): Container
    {
        foreach (array_unique(['Events', ...$packages]) as $package) {
            // Foundation has no autoloader of its own: the framework's (php-laravel-framework).
            $file = $package === 'Foundation' ? 'Illuminate/autoload.php' : "Illuminate/$package/autoload.php";
            $autoload = stream_resolve_include_path($file) ?: "/usr/share/php/$file";
            if (!is_file($autoload)) {
                Assert::markTestSkipped('illuminate/' . strtolower($package) . ' is not installed (apt-get install php-laravel-framework)');
            }
            require_once $autoload;
        }
        if ($listing && !method_exists(\RedisLock::class, 'locks')) {
            Assert::markTestSkipped('this build of the extension has no RedisLock::locks()');
        }
        // Laravel's commands ask the application what it runs in (Foundation's).
        $app = in_array('Foundation', $packages, true) ? new \Illuminate\Foundation\Application(sys_get_temp_dir()) : new Container();
        Container::setInstance($app);
        $app->instance('config', new Repository(['cache' => [
            'default' => 'locks',
            'stores' => [
                'locks' => ['driver' => 'redis_lock', 'server' => $server, 'prefix' => 'app:', 'lease' => 1],
                'array' => ['driver' => 'array'],
            ],
        ]]));
        $app->singleton('events', static fn ($app) => new Dispatcher($app));
        $app->singleton('cache', static fn ($app) => new CacheManager($app));
        Facade::setFacadeApplication($app);
        $provider = new RedisLockServiceProvider($app);
        $provider->register();
        $provider->boot();

        return $app;
    }
}
