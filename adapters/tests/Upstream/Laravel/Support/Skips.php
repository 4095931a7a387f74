<?php

declare(strict_types=1);

namespace RedisLock\Tests\Upstream\Laravel\Support;

/**
 * The vendored laravel/framework lock tests that do not run against the
 * redis_lock store, and why: each tests something that is not a lock store's
 * behaviour (another store's internals, a faked clock), or needs a class the
 * installed Laravel lacks.
 */
final class Skips
{
    private const FAKE_CLOCK = 'moves time with Carbon::setTestNow(): a redis_lock lock expires by its TTL on the Redis server\'s clock, which no test can move (RedisCacheLockTest::testConcurrentRedisLocksAreReleasedSafely lets a lock expire for real)';

    /** @var array<string, array<string, string>> short class name => test => reason */
    private const BY_DESIGN = [
        'RedisCacheLockTest' => [
            'testRedisLockCanHaveASeparateConnection' => 'Laravel\'s RedisStore option lock_connection and RedisLock::getConnectionName() name a Laravel Redis connection; the redis_lock store takes its server from its "server" option (or redis_lock.server), not from Laravel\'s Redis connections',
        ],
        'FileCacheLockTest' => [
            'testConcurrentLocksAreReleasedSafely' => 'fakes the passing of 2 s with Sleep::fake(): a redis_lock lock expires by its TTL on the Redis server\'s clock (RedisCacheLockTest::testConcurrentRedisLocksAreReleasedSafely runs the same steps with a real sleep(2))',
        ],
        'MemcachedCacheLockTest' => [
            'testConcurrentMemcachedLocksAreReleasedSafely' => 'ends with Cache::has(\'bar\'): a Memcached lock is an item of the cache; a redis_lock lock is not (the store\'s cache calls go to its "cache" store). The same steps up to that assertion are RedisCacheLockTest::testConcurrentRedisLocksAreReleasedSafely',
        ],
        'CacheArrayStoreLockTest' => [
            'testLocksCanBeFlushed' => 'reads ArrayStore\'s public $locks array (that store\'s internals) and flushes locks of a store without a prefix, which the redis_lock store refuses (its locks would share the key space of every redis_lock lock on the server), as Laravel\'s stores refuse it when locks share the cache\'s key space; flushLocks() with a prefix is tested in tests/Laravel/NativeLockStoreTest.php',
            'testCanAcquireLockAgainAfterExpiry' => self::FAKE_CLOCK,
            'testLockExpirationLowerBoundary' => self::FAKE_CLOCK,
            'testExpiredLockCannotBeRefreshedByPreviousOwner' => self::FAKE_CLOCK,
        ],
    ];

    /** @var array<string, array<string, string>> short class name => test => class it needs */
    private const NEEDS_CLASS = [
        'FileCacheLockTest' => [
            'testExceptionIfBlockCanNotAcquireLock' => 'Illuminate\Support\Sleep',
        ],
    ];

    /** @var array<string, array{class-string, string}> short class name => the method all its tests need */
    private const NEEDS_METHOD = [
        'RedisLockCacheFunnelTest' => ['Illuminate\Cache\Repository', 'funnel'],
    ];

    public static function reason(string $class, string $test): ?string
    {
        $short = substr(strrchr('\\' . $class, '\\'), 1);
        if (isset(self::NEEDS_METHOD[$short]) && !method_exists(...self::NEEDS_METHOD[$short])) {
            return sprintf('needs %s::%s(), which the installed Laravel lacks (Laravel 12+)', ...self::NEEDS_METHOD[$short]);
        }
        if (isset(self::BY_DESIGN[$short][$test])) {
            return 'not applicable to the redis_lock store: ' . self::BY_DESIGN[$short][$test];
        }
        $needs = self::NEEDS_CLASS[$short][$test] ?? null;
        if ($needs !== null && !class_exists($needs)) {
            return "needs $needs, which the installed Laravel lacks (Laravel 10+)";
        }

        return null;
    }
}
