<?php

declare(strict_types=1);

namespace RedisLock\Tests\Upstream\Laravel\Support;

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Illuminate\Support\Carbon;
use Illuminate\Support\Facades\Facade;
use RedisLock\Laravel\RedisLockServiceProvider;
use RedisLock\Tests\Support\TestCase;

/**
 * Stands in for Orchestra\Testbench\TestCase (not packaged by Debian) under
 * laravel/framework's lock tests vendored next to this directory: a Container
 * with config, the CacheManager and RedisLockServiceProvider, behind the Cache
 * facade ($this->app['config'] works as in Testbench). Every store the
 * upstream tests name ('redis', 'file', 'memcached') is a `redis_lock` store
 * whose cache operations go to an 'array' store, so Cache::store('redis')->lock()
 * and Cache::lock() make RedisLock\Laravel\NativeLocks on the suite's
 * throwaway redis-server (emptied before each test by the parent TestCase).
 *
 * A test listed by Skips is skipped here, before its body runs, with the
 * reason given there; the vendored test bodies stay as upstream wrote them.
 */
abstract class FrameworkTestCase extends TestCase
{
    /** cache.default (upstream: #[WithConfig('cache.default', ...)] or Testbench's default). */
    protected const CACHE_DEFAULT = 'redis';

    /** @var Container */
    protected $app;

    protected function setUp(): void
    {
        parent::setUp();

        $this->app = new Container();
        Container::setInstance($this->app);
        $redisLock = ['driver' => RedisLockServiceProvider::DRIVER, 'cache' => 'array'];
        $this->app->instance('config', new Config(['cache' => [
            'default' => static::CACHE_DEFAULT,
            'stores' => [
                'array' => ['driver' => 'array'],
                'redis' => $redisLock,
                'file' => $redisLock,
                'memcached' => $redisLock,
            ],
        ]]));
        $this->app->singleton('cache', fn ($app) => new CacheManager($app));
        $this->app->alias('cache', CacheManager::class);
        Facade::clearResolvedInstances();
        Facade::setFacadeApplication($this->app);
        (new RedisLockServiceProvider($this->app))->register();

        $reason = Skips::reason(static::class, $this->testMethod());
        if ($reason !== null) {
            $this->markTestSkipped($reason);
        }
    }

    protected function tearDown(): void
    {
        if (class_exists(Carbon::class)) {
            Carbon::setTestNow();
        }
        Facade::clearResolvedInstances();
        Facade::setFacadeApplication(null);
        Container::setInstance(null);
        parent::tearDown();
    }

    /** The running test method's name (PHPUnit 9: getName(false); 10+: name()). */
    private function testMethod(): string
    {
        return method_exists($this, 'name') ? $this->name() : $this->getName(false);
    }
}
