<?php

declare(strict_types=1);

namespace RedisLock\Tests\Upstream\Symfony;

use RedisLock\Symfony\RedisLockStore;
use Symfony\Component\Lock\PersistingStoreInterface;

/**
 * symfony/lock's own store tests (vendored next to this file) against
 * RedisLock\Symfony\RedisLockStore on the suite's throwaway redis-server, as
 * symfony runs them against its RedisStore (Tests/Store/RedisStoreTest.php:
 * AbstractStoreTestCase, ExpiringStoreTestTrait with a clock delay of
 * 250 ms, BlockingStoreTestTrait where the store is a BlockingStoreInterface).
 *
 * Not used here: SharedLockStoreTestTrait (this store, $shared = false,
 * takes read locks exclusively, as symfony's Lock does with a store without
 * shared locks; RedisLockSharedStoreTest runs it, with the other traits,
 * against the store with $shared = true), UnserializableTestTrait (a Key of
 * this store serializes, as with RedisStore: another process may release it),
 * AbstractRedisStoreTestCase::testBackwardCompatibility (the Lua script and
 * key value layout of symfony's RedisStore), Tests/LockTest.php (Lock against
 * mocked stores, no store of ours).
 *
 * testBlockingLocks forks and hands SIGHUP between parent and child, blocked
 * with pcntl_sigprocmask() for PHP's thread; the extension's own threads
 * block every signal, so it holds with a renewal thread running too.
 */
final class RedisLockStoreTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use ExpiringStoreTestTrait;

    /** As symfony's AbstractRedisStoreTestCase::getClockDelay(). */
    protected function getClockDelay(): int
    {
        return 250000;
    }

    protected function getStore(): PersistingStoreInterface
    {
        return new RedisLockStore();
    }
}
