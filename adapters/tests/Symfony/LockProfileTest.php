<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use RedisLock\Symfony\Profiler\LockProfile;
use RedisLock\Symfony\RedisLockStore;
use RedisLock\Symfony\RedisSemaphoreStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

/**
 * What the stores record for the profiler's panel (LockProfile): per lock
 * its kind, wait, queue position, hold time and outcome, from real
 * contention with other processes; and nothing extra on the wire without a
 * recorder.
 */
final class LockProfileTest extends TestCase
{
    private LockProfile $profile;
    private RedisLockStore $store;

    protected function setUp(): void
    {
        parent::setUp();
        $this->profile = new LockProfile();
        $this->store = new RedisLockStore();
        $this->store->setRecorder($this->profile);
    }

    /** A child that holds $name, lets $waiters others queue behind it, keeps it 300 ms more and releases it. */
    private function holder(int $waiters): Child
    {
        return Child::run(sprintf('
            $owner = RedisMutexLock::newOwner();
            out(RedisMutexLock::acquire(%1$s, $owner, 30000) ? "held" : "refused");
            $deadline = microtime(true) + 10;
            while (RedisMutexLock::inspect(%1$s)["waiters"] < %2$d && microtime(true) < $deadline) { usleep(5000); }
            usleep(300000);
            RedisMutexLock::releaseOwner(%1$s, $owner);
            out("released");
        ', var_export($this->name, true), $waiters));
    }

    public function testAContendedLockRecordsItsWaitPositionAndHold(): void
    {
        $holder = $this->holder(2);
        $this->assertSame('held', $holder->readLine());
        // Another process queues first: one waiter ahead of ours.
        $other = Child::run(sprintf('
            $lock = (new Symfony\Component\Lock\LockFactory(new RedisLock\Symfony\RedisLockStore()))->createLock(%s, 30);
            $lock->acquire(true);
            out("other got it");
            $lock->release();
        ', var_export($this->name, true)));
        $this->waitUntil(fn (): bool => \RedisMutexLock::inspect($this->name)['waiters'] === 1, 10, 'the other waiter queued');

        $lock = (new LockFactory($this->store))->createLock($this->name, 30);
        $this->assertTrue($lock->acquire(true));
        $this->assertSame('released', $holder->readLine());
        $this->assertSame('other got it', $other->readLine());
        usleep(20000);
        $lock->release();

        $locks = $this->profile->locks();
        $this->assertCount(1, $locks);
        $this->assertSame($this->name, $locks[0]['key']);
        $this->assertSame('mutex', $locks[0]['kind']);
        $this->assertSame(1, $locks[0]['position'], 'one waiter was ahead');
        $this->assertGreaterThan(250, $locks[0]['wait_ms']);
        $this->assertLessThan(5000, $locks[0]['wait_ms']);
        $this->assertSame('released', $locks[0]['outcome']);
        $this->assertGreaterThanOrEqual(15, $locks[0]['hold_ms']);
        $this->assertLessThan(2000, $locks[0]['hold_ms']);
        // symfony's Lock has no fencing token: none is issued for a Key's owner token.
        $this->assertNull($locks[0]['fence']);
        $this->assertSame(0, $holder->wait());
        $this->assertSame(0, $other->wait());
    }

    public function testAnUncontendedLockDidNotWaitAndAHeldOneRunsToTheEnd(): void
    {
        $lock = (new LockFactory($this->store))->createLock($this->name, 30);
        $this->assertTrue($lock->acquire(true));
        usleep(30000);
        [$entry] = $this->profile->locks();
        $this->assertNull($entry['position']);
        $this->assertLessThan(250, $entry['wait_ms']);
        $this->assertSame('acquired', $entry['outcome']);
        $this->assertGreaterThanOrEqual(25, $entry['hold_ms'], 'held: its hold runs to now');
        // A second save() of the held Key is the same hold.
        $this->assertTrue($lock->acquire());
        $this->assertCount(1, $this->profile->locks());
        $lock->release();
    }

    public function testARefusedAttemptTimesOutAndARefreshOfALostLockIsLost(): void
    {
        $this->assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        $refused = (new LockFactory($this->store))->createLock($this->name, 30);
        $this->assertFalse($refused->acquire());
        \RedisMutexLock::release($this->name);

        $lock = (new LockFactory($this->store))->createLock($this->name, 30);
        $this->assertTrue($lock->acquire());
        $this->assertTrue(\RedisMutexLock::forceRelease($this->name));
        try {
            $lock->refresh();
            $this->fail('the refresh of a lock released from elsewhere succeeded');
        } catch (\Symfony\Component\Lock\Exception\LockConflictedException $e) {
        }
        $outcomes = array_column($this->profile->locks(), 'outcome');
        $this->assertSame(['timed out', 'lost'], $outcomes);
    }

    public function testASharedStoresWriteLockWaitsBehindAReader(): void
    {
        $store = new RedisLockStore(null, 30.0, true);
        $store->setRecorder($this->profile);
        $reader = Child::run(sprintf('
            $owner = RedisMutexLock::newOwner();
            out(RedisReadWriteLock::acquireOwner(%1$s, $owner, false, 30000) ? "reading" : "refused");
            $deadline = microtime(true) + 10;
            while (RedisReadWriteLock::inspect(%1$s)["waiters"] < 1 && microtime(true) < $deadline) { usleep(5000); }
            usleep(200000);
            RedisReadWriteLock::releaseOwner(%1$s, $owner);
        ', var_export($this->name, true)));
        $this->assertSame('reading', $reader->readLine());
        $lock = (new LockFactory($store))->createLock($this->name, 30);
        $this->assertTrue($lock->acquire(true));
        $lock->release();
        $this->assertSame(0, $reader->wait());
        [$entry] = $this->profile->locks();
        $this->assertSame('read-write', $entry['kind']);
        $this->assertSame(0, $entry['position'], 'it waited, nobody queued ahead');
        $this->assertGreaterThan(150, $entry['wait_ms']);
        $this->assertSame('released', $entry['outcome']);
    }

    public function testSemaphorePermitsAreRecorded(): void
    {
        if (!class_exists(\Symfony\Component\Semaphore\SemaphoreFactory::class)) {
            $this->markTestSkipped('symfony/semaphore is not installed (apt-get install php-symfony-semaphore)');
        }
        $store = new RedisSemaphoreStore();
        $store->setRecorder($this->profile);
        $factory = new \Symfony\Component\Semaphore\SemaphoreFactory($store);
        $first = $factory->createSemaphore($this->name, 1);
        $second = $factory->createSemaphore($this->name, 1);
        $this->assertTrue($first->acquire());
        $this->assertFalse($second->acquire());
        $first->release();
        $this->assertSame(['released', 'timed out'], array_column($this->profile->locks(), 'outcome'));
        $this->assertSame(['semaphore', 'semaphore'], array_column($this->profile->locks(), 'kind'));
    }

    public function testWithoutARecorderAnAcquisitionSendsNoMoreCommands(): void
    {
        $plain = new RedisLockStore();
        $commands = function (RedisLockStore $store, string $name): int {
            $before = $this->processed();
            $key = new Key($name);
            $store->save($key);
            $store->delete($key);

            return $this->processed() - $before - 1; // INFO itself
        };
        $commands($plain, $this->name . '-warm'); // scripts loaded, connection made
        $this->assertSame($commands($plain, $this->name . '-a'), $commands($this->store, $this->name . '-b'), 'an uncontended lock costs the same with the recorder');
    }

    private function processed(): int
    {
        preg_match('/total_commands_processed:(\d+)/', $this->redis->command('INFO', 'stats'), $m);

        return (int) $m[1];
    }
}
