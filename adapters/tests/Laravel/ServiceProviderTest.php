<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Cache\Repository;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Illuminate\Support\Facades\Cache;
use Illuminate\Support\Facades\Facade;
use RedisLock\Laravel\NativeLock;
use RedisLock\Laravel\NativeLockStore;
use RedisLock\Laravel\RedisLockServiceProvider;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;

/** The `redis_lock` cache driver in a minimal container: Container + Config + CacheManager. */
final class ServiceProviderTest extends TestCase
{
    private Container $app;

    private function boot(array $cache, bool $resolveCacheFirst = false): void
    {
        $this->app = new Container();
        Container::setInstance($this->app);
        $this->app->instance('config', new Config(['cache' => $cache]));
        $this->app->singleton('cache', fn ($app) => new CacheManager($app));
        $this->app->alias('cache', CacheManager::class);
        Facade::clearResolvedInstances();
        Facade::setFacadeApplication($this->app);
        if ($resolveCacheFirst) {
            $this->app->make('cache');
        }
        (new RedisLockServiceProvider($this->app))->register();
    }

    protected function tearDown(): void
    {
        Facade::clearResolvedInstances();
        Facade::setFacadeApplication(null);
        Container::setInstance(null);
        parent::tearDown();
    }

    private static function stores(array $redisLock = []): array
    {
        return [
            'array' => ['driver' => 'array'],
            'redis_lock' => ['driver' => 'redis_lock'] + $redisLock,
        ];
    }

    public function testStoreLockIsNative(): void
    {
        $this->boot(['default' => 'array', 'stores' => self::stores(['prefix' => 'app:'])]);

        $repository = Cache::store('redis_lock');
        $this->assertInstanceOf(Repository::class, $repository);
        $this->assertInstanceOf(NativeLockStore::class, $repository->getStore());
        $this->assertSame('app:', $repository->getPrefix());

        $lock = $repository->lock($this->name, 10);
        $this->assertInstanceOf(NativeLock::class, $lock);
        $this->assertTrue($lock->get());
        $this->assertSame($lock->owner(), $this->redis->get('lock:app:' . $this->name));
        $this->assertFalse(Cache::store('redis_lock')->lock($this->name, 10)->get(), 'another owner is refused');

        $restored = Cache::store('redis_lock')->restoreLock($this->name, $lock->owner());
        $this->assertTrue($restored->isOwnedByCurrentProcess());
        $this->assertTrue($restored->release());
        $this->assertSame([], $this->redis->keys());

        $this->assertSame('done', Cache::store('redis_lock')->lock($this->name, 10)->block(1, fn () => 'done'));
        $this->assertSame([], $this->redis->keys());
    }

    public function testZeroSecondsUsesTheConfiguredLease(): void
    {
        $this->boot(['default' => 'array', 'stores' => self::stores(['lease' => 7])]);
        $lock = Cache::store('redis_lock')->lock($this->name);
        $this->assertTrue($lock->get());
        $this->assertGreaterThan(6000, $this->redis->pttl('lock:' . $this->name));
        $this->assertLessThanOrEqual(7000, $this->redis->pttl('lock:' . $this->name));
        $this->assertTrue($lock->release());
    }

    public function testDefaultLockStoreMakesCacheLockNativeAndDelegatesCacheCalls(): void
    {
        // Laravel 8 takes Cache::lock() from the default store: make redis_lock
        // the default and send the cache calls to the array store.
        $this->boot(['default' => 'redis_lock', 'stores' => self::stores(['cache' => 'array'])]);

        $lock = Cache::lock($this->name, 10);
        $this->assertInstanceOf(NativeLock::class, $lock);
        $this->assertTrue($lock->get());
        $this->assertSame($lock->owner(), $this->redis->get('lock:' . $this->name));
        $this->assertTrue(Cache::restoreLock($this->name, $lock->owner())->release());
        $this->assertSame([], $this->redis->keys());

        $this->assertTrue(Cache::put('answer', 42, 60));
        $this->assertSame(42, Cache::get('answer'));
        $this->assertSame(42, Cache::store('array')->get('answer'), 'stored in the delegate');
        $this->assertSame(43, Cache::increment('answer'));
        $this->assertSame(['answer' => 43, 'missing' => null], Cache::many(['answer', 'missing']));
        $this->assertSame('computed', Cache::remember('other', 60, fn () => 'computed'));
        $this->assertTrue(Cache::forget('answer'));
        $this->assertNull(Cache::get('answer'));
        $this->assertTrue(Cache::flush());
        $this->assertNull(Cache::store('array')->get('other'));
        $this->assertSame([], $this->redis->keys(), 'cache values never go to the lock server');
    }

    public function testCacheCallsWithoutADelegateThrow(): void
    {
        $this->boot(['default' => 'array', 'stores' => self::stores()]);
        try {
            Cache::store('redis_lock')->get('x');
            $this->fail('BadMethodCallException expected');
        } catch (\BadMethodCallException $e) {
            $this->assertStringStartsWith('The redis_lock cache store holds locks only', $e->getMessage());
        }
        $this->expectException(\BadMethodCallException::class);
        Cache::store('redis_lock')->put('x', 1, 10);
    }

    public function testADelegateThatIsItselfRefused(): void
    {
        $this->boot(['default' => 'array', 'stores' => self::stores(['cache' => 'redis_lock'])]);
        $this->expectException(\InvalidArgumentException::class);
        Cache::store('redis_lock')->get('x');
    }

    public function testRegisteredAfterTheCacheManagerWasResolved(): void
    {
        $this->boot(['default' => 'array', 'stores' => self::stores()], true);
        $this->assertInstanceOf(NativeLock::class, Cache::store('redis_lock')->lock($this->name, 1));
    }

    public function testServerOption(): void
    {
        $other = $this->extraServer();
        $this->boot(['default' => 'array', 'stores' => self::stores(['server' => $other->dsn()])]);
        $lock = Cache::store('redis_lock')->lock($this->name, 10);
        $this->assertTrue($lock->get());
        $this->assertSame($lock->owner(), $other->client()->get('lock:' . $this->name));
        $this->assertSame([], $this->redis->keys());
        $this->assertTrue($lock->release());
    }

    public function testRestoreLockInAnotherProcessThroughTheContainer(): void
    {
        $this->boot(['default' => 'array', 'stores' => self::stores()]);
        $lock = Cache::store('redis_lock')->lock($this->name, 30);
        $this->assertTrue($lock->get());

        $child = Child::run(sprintf('
            $app = new Illuminate\Container\Container();
            $app->instance("config", new Illuminate\Config\Repository(["cache" => ["default" => "redis_lock", "stores" => ["redis_lock" => ["driver" => "redis_lock"]]]]));
            $app->singleton("cache", fn ($app) => new Illuminate\Cache\CacheManager($app));
            (new RedisLock\Laravel\RedisLockServiceProvider($app))->register();
            out(var_export($app["cache"]->restoreLock(%s, %s)->release(), true));
        ', var_export($this->name, true), var_export($lock->owner(), true)));
        $this->assertSame('true', $child->readLine());
        $this->assertSame(0, $child->wait());
        $this->assertSame([], $this->redis->keys());
    }
}
