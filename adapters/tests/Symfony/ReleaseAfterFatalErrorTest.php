<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use RedisLock\Internal\ShutdownRelease;
use RedisLock\Symfony\RedisLockStore;
use RedisLock\Symfony\RedisSemaphoreStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Semaphore\SemaphoreFactory;

/**
 * The stores release the locks of autoRelease Locks (and Semaphores) from a
 * shutdown function when the request ends on a fatal error, which skips
 * symfony's destructor; nothing else. Here: that it happens in a process that
 * dies of one, and that the process' list of such locks holds only locks
 * held now (a long-running worker does not accumulate entries).
 * adapters/e2e/symfony_fatal_in_lockable.php has the rest.
 */
final class ReleaseAfterFatalErrorTest extends TestCase
{
    /** The number of locks the shutdown function would release after a fatal error. */
    private static function pending(): int
    {
        return count((new \ReflectionProperty(ShutdownRelease::class, 'pending'))->getValue());
    }

    public function testAutoReleaseLockOfAProcessKilledByAFatalErrorIsReleased(): void
    {
        $child = Child::run(sprintf('
            $lock = (new Symfony\Component\Lock\LockFactory(new RedisLock\Symfony\RedisLockStore()))->createLock(%s, 60);
            $lock->acquire();
            out("held");
            in();
            ini_set("memory_limit", (string) (memory_get_usage(true) + 4 * 1024 * 1024));
            for ($chain = null; true; $chain = $link) { $link = new stdClass(); $link->next = $chain; }', var_export($this->name, true)));
        $this->assertSame('held', $child->readLine());
        $this->assertSame(60, intdiv($this->redis->pttl($this->redisKey($this->name)) + 999, 1000));
        $child->send('die');
        $this->assertSame(255, $child->wait());
        $this->assertStringContainsString('Allowed memory size', $child->stderr());
        $this->assertSame([], $this->redis->keys('*'), 'released at the end of the process, not after its 60 s');
    }

    public function testLockWithoutAutoReleaseStaysAfterAFatalError(): void
    {
        $child = Child::run(sprintf('
            $lock = (new Symfony\Component\Lock\LockFactory(new RedisLock\Symfony\RedisLockStore()))->createLock(%s, 60, false);
            $lock->acquire();
            out("held");
            in();
            set_time_limit(1);
            while (true) {}', var_export($this->name, true)));
        $this->assertSame('held', $child->readLine());
        $child->send('die');
        $this->assertSame(255, $child->wait());
        $this->assertStringContainsString('Maximum execution time', $child->stderr());
        $this->assertGreaterThan(55000, $this->redis->pttl($this->redisKey($this->name)), 'left to its TTL, as with symfony\'s RedisStore');
    }

    public function testReleasedLocksLeaveNoEntry(): void
    {
        $factory = new LockFactory(new RedisLockStore());
        $before = self::pending();
        for ($i = 0; $i < 20; $i++) {
            $lock = $factory->createLock($this->name . $i, 30);
            $this->assertTrue($lock->acquire($i % 2 === 0));
            $this->assertSame($before + 1, self::pending());
            $i % 3 === 0 ? $lock->release() : $lock = null; // released, or by the destructor
            $this->assertSame($before, self::pending());
        }
        $shared = (new LockFactory(new RedisLockStore(null, 30, true)))->createLock($this->name);
        $this->assertTrue($shared->acquireRead());
        $this->assertSame($before + 1, self::pending());
        $shared->release();
        $this->assertSame($before, self::pending());
    }

    public function testLocksWithoutAutoReleaseLeaveNoEntry(): void
    {
        $lock = (new LockFactory(new RedisLockStore()))->createLock($this->name, 30, false);
        $before = self::pending();
        $this->assertTrue($lock->acquire());
        $this->assertSame($before, self::pending());
        $lock->release();
    }

    public function testEntriesOfLocksGoneWithoutReleaseAreDropped(): void
    {
        $factory = new LockFactory(new RedisLockStore());
        $before = self::pending();
        $lock = $factory->createLock($this->name, 0.05);
        $this->assertTrue($lock->acquire());
        usleep(100000);
        $lock = null; // expired: the destructor releases nothing
        $this->assertSame($before + 1, self::pending());
        $other = $factory->createLock($this->name . '-other', 30);
        $this->assertTrue($other->acquire());
        $this->assertSame($before + 1, self::pending(), 'the entry of the destroyed Lock is dropped');
        $other->release();
    }

    public function testSemaphorePermitsReleasedLeaveNoEntry(): void
    {
        if (!class_exists(SemaphoreFactory::class)) {
            $this->markTestSkipped('symfony/semaphore is not installed (Debian: php-symfony-semaphore)');
        }
        $factory = new SemaphoreFactory(new RedisSemaphoreStore());
        $before = self::pending();
        $semaphore = $factory->createSemaphore($this->name, 2, 1, 30);
        $this->assertTrue($semaphore->acquire());
        $this->assertSame($before + 1, self::pending());
        $semaphore->release();
        $this->assertSame($before, self::pending());
        $this->assertTrue($factory->createSemaphore($this->name, 2, 1, 30, false)->acquire());
        $this->assertSame($before, self::pending(), 'autoRelease = false: no entry');
    }
}
