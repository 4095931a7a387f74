<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Cache\RedisLock;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Redis\RedisManager;
use Illuminate\Support\Facades\Cache;
use Illuminate\Support\Facades\Facade;
use RedisLock\Internal\Server;
use RedisLock\Laravel\NativeLock;
use RedisLock\Laravel\RedisLockServiceProvider;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;

/**
 * The `key_prefix` option of the redis_lock cache store: Laravel's own
 * Cache::lock() on its Redis store (Illuminate\Cache\RedisLock, through a
 * RedisManager with a connection prefix, as config/database.php sets it) and
 * the redis_lock store configured with that key prefix lock one Redis key, so
 * that during a rolling deploy old and new code exclude each other.
 */
final class KeyCompatibilityTest extends TestCase
{
    /** The connection prefix (config/database.php: redis.options.prefix), applied by phpredis / predis. */
    private const CONNECTION_PREFIX = 'shop_database_';

    /** The cache prefix (config/cache.php: prefix): Laravel 11+ uses it as is, 8 to 10 add ":". */
    private const CACHE_PREFIX = 'shop_cache_';

    private ?Container $app = null;

    /** The key prefix of Laravel's lock keys, as its RedisStore builds them: the redis_lock store's key_prefix. */
    private string $keyPrefix;

    protected function setUp(): void
    {
        parent::setUp();
        $autoload = stream_resolve_include_path('Illuminate/Redis/autoload.php') ?: '/usr/share/php/Illuminate/Redis/autoload.php';
        if (!is_file($autoload)) {
            $this->markTestSkipped('illuminate/redis is not installed (apt-get install php-illuminate-redis): Laravel\'s own RedisLock cannot run');
        }
        require_once $autoload;
        $client = extension_loaded('redis') ? 'phpredis' : null;
        if ($client === null && is_file($predis = (stream_resolve_include_path('Predis/autoload.php') ?: '/usr/share/php/Predis/autoload.php'))) {
            require_once $predis;
            $client = 'predis';
        }
        if ($client === null) {
            $this->markTestSkipped('neither phpredis nor predis is installed (apt-get install php-redis): Laravel\'s RedisStore has no client');
        }

        $this->app = $app = new Container();
        Container::setInstance($app);
        $redisConfig = [
            'client' => $client,
            'options' => ['prefix' => self::CONNECTION_PREFIX],
            'default' => ['host' => '127.0.0.1', 'port' => (int) getenv('REDIS_LOCK_TEST_PORT'), 'database' => 0],
        ];
        // Laravel's RedisStore prefix: its setPrefix() of this Laravel version.
        $storePrefix = (new \ReflectionClass(\Illuminate\Cache\RedisStore::class))->newInstanceWithoutConstructor();
        $storePrefix->setPrefix(self::CACHE_PREFIX);
        $this->keyPrefix = self::CONNECTION_PREFIX . $storePrefix->getPrefix();
        $app->instance('config', new Config([
            'database' => ['redis' => $redisConfig],
            'cache' => [
                'default' => 'redis',
                'prefix' => self::CACHE_PREFIX,
                'stores' => [
                    'redis' => ['driver' => 'redis', 'connection' => 'default'],
                    'locks' => ['driver' => 'redis_lock', 'cache' => 'redis', 'key_prefix' => $this->keyPrefix],
                ],
            ],
        ]));
        $app->singleton('redis', static fn ($app) => new RedisManager($app, $client, $redisConfig));
        $app->singleton('cache', static fn ($app) => new CacheManager($app));
        Facade::clearResolvedInstances();
        Facade::setFacadeApplication($app);
        (new RedisLockServiceProvider($app))->register();
    }

    protected function tearDown(): void
    {
        if ($this->app !== null) {
            Facade::clearResolvedInstances();
            Facade::setFacadeApplication(null);
            Container::setInstance(null);
        }
        parent::tearDown();
    }

    private function laravelKey(): string
    {
        return $this->keyPrefix . $this->name;
    }

    public function testTheKeyPrefixIsLaravelsConnectionPrefixAndCachePrefix(): void
    {
        // Laravel 8 to 10: "shop_database_shop_cache_:"; 11 and later: "shop_database_shop_cache_".
        $this->assertContains($this->keyPrefix, [self::CONNECTION_PREFIX . self::CACHE_PREFIX, self::CONNECTION_PREFIX . self::CACHE_PREFIX . ':']);

        $theirs = Cache::store('redis')->lock($this->name, 10);
        $this->assertInstanceOf(RedisLock::class, $theirs, 'Laravel\'s own lock');
        $this->assertTrue($theirs->get());
        $this->assertSame([$this->laravelKey()], $this->redis->keys(), 'Laravel\'s lock key, read with a raw client');
        $this->assertSame($theirs->owner(), $this->redis->get($this->laravelKey()));
        $this->assertTrue($theirs->release());

        $ours = Cache::store('locks')->lock($this->name, 10);
        $this->assertInstanceOf(NativeLock::class, $ours);
        $this->assertTrue($ours->get());
        $this->assertSame([$this->laravelKey()], $this->redis->keys(), 'the same key');
        $this->assertSame($ours->owner(), $this->redis->get($this->laravelKey()));
        $this->assertTrue($ours->release());
        $this->assertSame('lock:', ini_get('redis_lock.prefix'), 'the INI setting is left as it was');
    }

    public function testOursIsRefusedWhileLaravelsLockIsHeldAndGetsItAfterItsRelease(): void
    {
        $theirs = Cache::store('redis')->lock($this->name, 10);
        $this->assertTrue($theirs->get());

        $ours = Cache::store('locks')->lock($this->name, 10);
        $this->assertFalse($ours->get(), 'refused while Laravel\'s lock is held');
        $start = microtime(true);
        try {
            $ours->block(0.3);
            $this->fail('LockTimeoutException expected');
        } catch (LockTimeoutException) {
            $this->assertGreaterThanOrEqual(0.29, microtime(true) - $start, 'block() waited its time out');
        }
        $this->assertSame($theirs->owner(), $this->redis->get($this->laravelKey()), 'Laravel\'s lock is untouched');

        // A waiter (another process, the new code) is let in when Laravel's lock is released.
        $child = Child::run(sprintf('
            $lock = new RedisLock\Laravel\NativeLock(%s, 10, null, null, %s);
            out($lock->block(10) ? "held " . $lock->owner() : "refused");
            in();
            out(var_export($lock->release(), true));',
            var_export($this->name, true), var_export($this->keyPrefix, true)));
        $this->waitUntil(fn () => Server::call(null, fn (): int => \RedisMutexLock::inspect($this->name)['waiters'], $this->keyPrefix) === 1, 5.0, 'the child waits');
        $this->assertTrue($theirs->release());
        $released = microtime(true);
        $line = $child->readLine();
        $this->assertStringStartsWith('held ', $line, 'the waiter got the lock after Laravel\'s release');
        $this->assertLessThan(1.0, microtime(true) - $released);
        $childOwner = substr($line, 5);
        $this->assertSame($childOwner, $this->redis->get($this->laravelKey()));

        // While the new code holds it, Laravel's own lock is refused.
        $this->assertFalse(Cache::store('redis')->lock($this->name, 10)->get(), 'Laravel\'s lock is refused while ours is held');
        $child->send('release');
        $this->assertSame('true', $child->readLine());
        $this->assertSame(0, $child->wait());

        $again = Cache::store('redis')->lock($this->name, 10);
        $this->assertTrue($again->get(), 'Laravel\'s lock after our release');
        $this->assertTrue($again->release());
        $this->assertSame([], $this->redis->keys());
    }

    public function testOwnersCarryOverBothWays(): void
    {
        // A unique job dispatched by old code (Laravel's lock, its owner in the
        // job) and released by new code with restoreLock(), and the other way.
        $theirs = Cache::store('redis')->lock($this->name, 10);
        $this->assertTrue($theirs->get());
        $restored = Cache::store('locks')->restoreLock($this->name, $theirs->owner());
        $this->assertTrue($restored->isOwnedByCurrentProcess());
        $this->assertTrue($restored->release());
        $this->assertSame([], $this->redis->keys());

        $ours = Cache::store('locks')->lock($this->name, 10);
        $this->assertTrue($ours->get());
        $this->assertFalse(Cache::store('redis')->restoreLock($this->name, 'someone else')->release(), 'owner-checked');
        $this->assertTrue(Cache::store('redis')->restoreLock($this->name, $ours->owner())->release(), 'Laravel releases our lock with its owner');
        $this->assertSame([], $this->redis->keys());
    }

    public function testARenewedLockIsRenewedUnderItsKey(): void
    {
        $ours = Cache::store('locks')->lock($this->name)->lease(1);
        $this->assertTrue($ours->get());
        usleep(1_500_000);
        $this->assertSame($ours->owner(), $this->redis->get($this->laravelKey()), 'renewed past its 1 s lease');
        $this->assertFalse(Cache::store('redis')->lock($this->name, 10)->get());
        $this->assertTrue($ours->release());
        $this->assertSame([], $this->redis->keys());
    }

    public function testTheStoreSharesTheCacheKeySpaceSoFlushLocksRefuses(): void
    {
        $this->assertTrue(Cache::store('redis')->put('answer', 42, 60));
        $store = Cache::store('locks')->getStore();
        $this->assertSame($this->keyPrefix, $store->getKeyPrefix());
        $this->assertFalse($store->hasSeparateLockStore());
        try {
            $store->flushLocks();
            $this->fail('RuntimeException expected');
        } catch (\RuntimeException $e) {
            $this->assertStringContainsString('separate', $e->getMessage());
        }
        $this->assertSame(42, (int) Cache::store('redis')->get('answer'), 'the cache data is left alone');
        $this->assertSame(42, (int) Cache::store('locks')->get('answer'), 'cache calls go to the delegate');
    }
}
