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
 * Not used: SharedLockStoreTestTrait (RedisLockStore is no
 * SharedLockStoreInterface: no read locks), UnserializableTestTrait (a Key of
 * this store serializes, as with RedisStore: another process may release it),
 * AbstractRedisStoreTestCase::testBackwardCompatibility (the Lua script and
 * key value layout of symfony's RedisStore), Tests/LockTest.php (Lock against
 * mocked stores, no store of ours).
 *
 * testBlockingLocks forks and hands SIGHUP between parent and child, blocked
 * with pcntl_sigprocmask(), which blocks it for PHP's thread only. Once this
 * process runs a thread of the extension (the renewal thread, started by the
 * first renewed lock and kept until the process ends), which does not block
 * signals, a SIGHUP that reaches the parent outside pcntl_sigwaitinfo() can be
 * delivered to that thread and end the whole process (it did, on a loaded
 * machine). phpunit.xml therefore runs this suite before the Laravel tests,
 * which renew locks, and the test is skipped, saying so, where a thread is
 * already running.
 */
final class RedisLockStoreTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use ExpiringStoreTestTrait;

    protected function setUp(): void
    {
        parent::setUp();
        $test = method_exists($this, 'name') ? $this->name() : $this->getName(false);
        if ($test === 'testBlockingLocks' && ($threads = self::threads()) > 1) {
            $this->markTestSkipped("this process runs $threads threads (the redis_lock extension's renewal thread, started by an earlier test's renewed lock, does not block signals): the test's SIGHUP, blocked for PHP's thread only, could reach that thread and end the process");
        }
    }

    /** Threads of this process (Linux), 1 where it cannot tell. */
    private static function threads(): int
    {
        $status = @file_get_contents('/proc/self/status');

        return $status !== false && preg_match('/^Threads:\s+(\d+)/m', $status, $m) ? (int) $m[1] : 1;
    }

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
