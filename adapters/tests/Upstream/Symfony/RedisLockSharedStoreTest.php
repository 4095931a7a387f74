<?php

declare(strict_types=1);

namespace RedisLock\Tests\Upstream\Symfony;

use RedisLock\Symfony\RedisLockStore;
use Symfony\Component\Lock\PersistingStoreInterface;

/**
 * symfony/lock's own store tests (vendored next to this file) against
 * RedisLock\Symfony\RedisLockStore with $shared = true (every lock of the
 * store a RedisReadWriteLock), as symfony runs them against its RedisStore
 * (Tests/Store/RedisStoreTest.php: AbstractStoreTestCase,
 * ExpiringStoreTestTrait with a clock delay of 250 ms, SharedLockStoreTestTrait),
 * and BlockingStoreTestTrait, since the store is a BlockingStoreInterface. The
 * write locks of this store go through the read/write lock too, so the tests
 * of exclusive locks run again here, on that path.
 *
 * Not used: as in RedisLockStoreTest.
 */
final class RedisLockSharedStoreTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use ExpiringStoreTestTrait;
    use SharedLockStoreTestTrait;

    /** As symfony's AbstractRedisStoreTestCase::getClockDelay(). */
    protected function getClockDelay(): int
    {
        return 250000;
    }

    protected function getStore(): PersistingStoreInterface
    {
        return new RedisLockStore(null, 300.0, true);
    }
}
