<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use RedisLock\Symfony\RedisLockStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\Exception\LockAcquiringException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\SharedLockStoreInterface;

/**
 * Shared (read) locks of RedisLockStore: with $shared = true every lock of
 * the store is a RedisReadWriteLock (the key redis_lock.prefix . resource, a
 * sorted set of holds); with the default $shared = false, read locks are taken
 * exclusively, as RedisMutexLocks (a string key holding the token).
 */
final class RedisLockStoreSharedTest extends TestCase
{
    private RedisLockStore $store;
    private LockFactory $factory;

    protected function setUp(): void
    {
        parent::setUp();
        $this->store = new RedisLockStore(null, 300.0, true);
        $this->factory = new LockFactory($this->store);
    }

    private function key(): string
    {
        return 'lock:' . $this->name;
    }

    private function token(Key $key): string
    {
        return $key->getState(RedisLockStore::class);
    }

    /** Child code with a shared store as $store and a LockFactory on it as $factory. */
    private static function child(string $code): string
    {
        return '$store = new RedisLock\Symfony\RedisLockStore(null, 300.0, true); $factory = new Symfony\Component\Lock\LockFactory($store); ' . $code;
    }

    /** Child code: wait (up to 10 s) until $n wait in the read/write lock's queue, then write "waiters=N". */
    private function childAwaitWaiters(int $n): string
    {
        return sprintf('
            $deadline = microtime(true) + 10;
            do { $w = RedisReadWriteLock::inspect(%s)["waiters"]; } while ($w < %d && microtime(true) < $deadline && usleep(5000) === null);
            out("waiters=" . $w);', var_export($this->name, true), $n);
    }

    private function waitForWaiters(int $n): void
    {
        $this->waitUntil(fn () => \RedisReadWriteLock::inspect($this->name)['waiters'] >= $n, 10.0, "$n waiters in the queue");
    }

    /** The time in "<word> at <time>" from a child. */
    private static function timeIn(string $line, string $word): float
    {
        if (!preg_match('/^' . preg_quote($word, '/') . ' at (\d+\.\d+)$/', $line, $m)) {
            throw new \RuntimeException("expected \"$word at <time>\", got " . json_encode($line));
        }

        return (float) $m[1];
    }

    public function testDeclaresTheSharedLockInterfaces(): void
    {
        foreach ([new RedisLockStore(), $this->store] as $store) {
            $this->assertInstanceOf(SharedLockStoreInterface::class, $store);
            $this->assertInstanceOf(BlockingSharedLockStoreInterface::class, $store);
        }
        $this->assertFalse((new RedisLockStore())->isShared());
        $this->assertTrue($this->store->isShared());
    }

    public function testWithoutSharedReadLocksAreExclusiveMutexes(): void
    {
        $factory = new LockFactory(new RedisLockStore());
        $key = new Key($this->name);
        $first = $factory->createLockFromKey($key, 10);
        $second = $factory->createLock($this->name, 10);

        $this->assertTrue($first->acquireRead());
        $this->assertSame('string', $this->redis->command('TYPE', $this->key()), 'a plain RedisMutexLock key');
        $this->assertSame($this->token($key), $this->redis->get($this->key()));
        $this->assertFalse($second->acquireRead(), 'exclusive: symfony\'s fallback for a store without shared locks');
        $this->assertFalse($second->acquire());
        $this->assertTrue($first->acquire(), 'the holder itself: refreshed');

        $first->release();
        $this->assertSame([], $this->redis->keys());
        $this->assertTrue($second->acquireRead(true), 'blocking: the free lock at once');
        $second->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testReadLocksAreSharedAndExcludeTheWriter(): void
    {
        $key1 = new Key($this->name);
        $key2 = new Key($this->name);
        $reader1 = $this->factory->createLockFromKey($key1, 10);
        $reader2 = $this->factory->createLockFromKey($key2, 10);
        $writer = $this->factory->createLock($this->name, 10);

        $this->assertTrue($reader1->acquireRead());
        $this->assertTrue($reader2->acquireRead());
        $this->assertFalse($writer->acquire(), 'readers hold it');
        $this->assertSame('zset', $this->redis->command('TYPE', $this->key()), 'a RedisReadWriteLock key');
        $this->assertSame('read', \RedisReadWriteLock::modeOf($this->name, $this->token($key1)));
        $this->assertSame('read', \RedisReadWriteLock::modeOf($this->name, $this->token($key2)));
        $info = \RedisReadWriteLock::inspect($this->name);
        $this->assertFalse($info['writer']);
        $this->assertSame(2, $info['readers']);
        foreach ($info['holders'] as $holder) {
            $this->assertSame('read', $holder['mode']);
            $this->assertGreaterThan(9000, $holder['ttl'], 'save() took 300 s, Lock::refresh() set the Lock\'s 10 s');
            $this->assertLessThanOrEqual(10000, $holder['ttl']);
        }
        $this->assertTrue($reader1->isAcquired());
        $this->assertGreaterThan(9.0, $reader1->getRemainingLifetime());

        $reader1->release();
        $this->assertFalse($reader1->isAcquired());
        $this->assertTrue($reader2->isAcquired());
        $this->assertFalse($writer->acquire(), 'one reader left');
        $reader2->release();
        $this->assertSame([], $this->redis->keys(), 'nothing left once the readers are gone');

        $this->assertTrue($writer->acquire());
        $info = \RedisReadWriteLock::inspect($this->name);
        $this->assertTrue($info['writer']);
        $this->assertSame(0, $info['readers']);
        $this->assertFalse($reader1->acquireRead(), 'a writer holds it');
        $writer->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testBlockingAcquireReadIsWokenByTheWritersRelease(): void
    {
        $child = Child::run(self::child(sprintf('
            $lock = $factory->createLock(%s, 30);
            out($lock->acquire() ? "writing" : "refused");
            %s
            usleep(300000);
            out("released at " . microtime(true));
            $lock->release();
        ', var_export($this->name, true), $this->childAwaitWaiters(1))));
        $this->assertSame('writing', $child->readLine());

        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10);
        $start = microtime(true);
        $this->assertTrue($lock->acquireRead(true));
        $acquired = microtime(true);

        $this->assertSame('waiters=1', $child->readLine(), 'the blocking acquireRead() waited in the lock\'s queue (symfony\'s Lock would poll saveRead() and never queue)');
        $released = self::timeIn($child->readLine(), 'released');
        $this->assertSame(0, $child->wait(), $child->stderr());
        $this->assertGreaterThanOrEqual(0.25, $acquired - $start);
        $this->assertLessThan(5.0, $acquired - $start);
        $this->assertGreaterThan($released - 0.05, $acquired, 'not before the release');
        $this->assertLessThan(0.5, $acquired - $released, 'woken by the release');
        $this->assertSame('read', \RedisReadWriteLock::modeOf($this->name, $this->token($key)));
        $this->assertTrue($lock->isAcquired());
        $this->assertGreaterThan(9.0, $lock->getRemainingLifetime());
        $this->assertSame(1, \RedisReadWriteLock::inspect($this->name)['readers']);

        $lock->release();
        $this->assertSame([], $this->redis->keys(), 'no queue, lease or wake-up key left');
    }

    public function testOneReleaseLetsAllWaitingReadersIn(): void
    {
        $writer = $this->factory->createLock($this->name, 30);
        $this->assertTrue($writer->acquire());
        $readers = [];
        foreach ([1, 2] as $i) {
            $readers[$i] = Child::run(self::child(sprintf('
                $lock = $factory->createLock(%s, 30);
                out("waiting");
                $lock->acquireRead(true);
                out("reading at " . microtime(true));
                in();
                $lock->release();
                out("done");
            ', var_export($this->name, true))));
            $this->assertSame('waiting', $readers[$i]->readLine());
        }
        $this->waitForWaiters(2);

        $released = microtime(true);
        $writer->release();
        foreach ($readers as $reader) {
            $reading = self::timeIn($reader->readLine(), 'reading');
            $this->assertLessThan(1.0, $reading - $released, 'woken by the one release');
        }
        $info = \RedisReadWriteLock::inspect($this->name);
        $this->assertSame(2, $info['readers'], 'both read at once');
        $this->assertSame(0, $info['waiters']);
        foreach ($readers as $reader) {
            $reader->send('release');
            $this->assertSame('done', $reader->readLine());
            $this->assertSame(0, $reader->wait(), $reader->stderr());
        }
        $this->assertSame([], $this->redis->keys());
    }

    public function testAQueuedWriterIsNotStarvedByLaterReaders(): void
    {
        $first = $this->factory->createLock($this->name, 30);
        $this->assertTrue($first->acquireRead());

        $writer = Child::run(self::child(sprintf('
            $lock = $factory->createLock(%s, 30);
            out("waiting");
            $lock->acquire(true);
            out("writing at " . microtime(true));
            usleep(300000);
            out("released at " . microtime(true));
            $lock->release();
        ', var_export($this->name, true))));
        $this->assertSame('waiting', $writer->readLine());
        $this->waitForWaiters(1);

        $late = $this->factory->createLock($this->name, 30);
        $this->assertFalse($late->acquireRead(), 'a reader arriving after a queued writer does not pass it');
        $lateReader = Child::run(self::child(sprintf('
            $lock = $factory->createLock(%s, 30);
            out("waiting");
            $lock->acquireRead(true);
            out("reading at " . microtime(true));
            $lock->release();
        ', var_export($this->name, true))));
        $this->assertSame('waiting', $lateReader->readLine());
        $this->waitForWaiters(2);
        usleep(200000);
        $this->assertSame(1, \RedisReadWriteLock::inspect($this->name)['readers'], 'the late reader still waits behind the writer');

        $released = microtime(true);
        $first->release();
        $writing = self::timeIn($writer->readLine(), 'writing');
        $writerReleased = self::timeIn($writer->readLine(), 'released');
        $reading = self::timeIn($lateReader->readLine(), 'reading');
        $this->assertSame(0, $writer->wait(), $writer->stderr());
        $this->assertSame(0, $lateReader->wait(), $lateReader->stderr());

        $this->assertLessThan(1.0, $writing - $released, 'the writer is handed the lock at the last reader\'s release');
        $this->assertGreaterThanOrEqual($writerReleased - 0.05, $reading, 'the late reader only after the writer');
        $this->assertLessThan(1.0, $reading - $writerReleased);
        $this->assertSame([], $this->redis->keys());
    }

    public function testPromoteAndDemote(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10);
        $other = $this->factory->createLock($this->name, 10);

        $this->assertTrue($lock->acquireRead());
        $this->assertTrue($lock->acquire(), 'promoted: the only reader');
        $this->assertSame('write', \RedisReadWriteLock::modeOf($this->name, $this->token($key)));
        $this->assertFalse($other->acquireRead(), 'a writer holds it');

        $this->assertTrue($lock->acquireRead(), 'demoted');
        $this->assertSame('read', \RedisReadWriteLock::modeOf($this->name, $this->token($key)));
        $this->assertTrue($other->acquireRead(), 'readers share it again');
        $this->assertSame(2, \RedisReadWriteLock::inspect($this->name)['readers']);

        $this->assertFalse($lock->acquire(), 'no promotion while another reader holds it');
        $this->assertSame('read', \RedisReadWriteLock::modeOf($this->name, $this->token($key)), 'the read lock stays');
        $this->assertTrue($lock->isAcquired());

        $other->release();
        $lock->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testBlockingPromotionWaitsForTheOtherReaders(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10);
        $this->assertTrue($lock->acquireRead());
        $reader = Child::run(self::child(sprintf('
            $lock = $factory->createLock(%s, 30);
            out($lock->acquireRead() ? "reading" : "refused");
            in();
            usleep(400000);
            out("released at " . microtime(true));
            $lock->release();
        ', var_export($this->name, true))));
        $this->assertSame('reading', $reader->readLine());

        $reader->send('go');
        $start = microtime(true);
        $this->assertTrue($lock->acquire(true), 'promoted once the other reader is gone');
        $promoted = microtime(true);
        $released = self::timeIn($reader->readLine(), 'released');
        $this->assertSame(0, $reader->wait(), $reader->stderr());

        $this->assertGreaterThanOrEqual(0.3, $promoted - $start);
        $this->assertGreaterThan($released - 0.05, $promoted);
        $this->assertLessThan(1.0, $promoted - $released);
        $this->assertSame('write', \RedisReadWriteLock::modeOf($this->name, $this->token($key)));
        $info = \RedisReadWriteLock::inspect($this->name);
        $this->assertTrue($info['writer']);
        $this->assertSame(0, $info['readers']);
        $this->assertGreaterThan(9.0, $lock->getRemainingLifetime());
        $lock->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testBlockingPromotionEndsWhenTheReadLockIsLost(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 0.5, false);
        $this->assertTrue($lock->acquireRead());
        $reader = Child::run(self::child(sprintf('
            $lock = $factory->createLock(%s, 3);
            out($lock->acquireRead() ? "reading" : "refused");
            in();
            $lock->release();
        ', var_export($this->name, true))));
        $this->assertSame('reading', $reader->readLine());

        $start = microtime(true);
        try {
            $lock->acquire(true);
            $this->fail('LockConflictedException expected: the read lock expired while waiting to promote it');
        } catch (LockConflictedException $e) {
        }
        $elapsed = microtime(true) - $start;
        $this->assertGreaterThanOrEqual(0.4, $elapsed);
        $this->assertLessThan(2.0, $elapsed, 'ended once the read lock (0.5 s) had run out');
        $this->assertNull(\RedisReadWriteLock::modeOf($this->name, $this->token($key)), 'never taken afresh');
        $this->assertSame(1, \RedisReadWriteLock::inspect($this->name)['readers'], 'the other reader only');

        $reader->send('release');
        $this->assertSame(0, $reader->wait(), $reader->stderr());
        $this->assertSame([], $this->redis->keys());
    }

    public function testWaitAndSaveReadDirectly(): void
    {
        $store = new RedisLockStore(null, 5, true);
        $writerKey = new Key($this->name);
        $store->waitAndSave($writerKey);
        $this->assertTrue($store->exists($writerKey));

        $child = Child::run(sprintf('
            $store = new RedisLock\Symfony\RedisLockStore(null, 5, true);
            $key = new Symfony\Component\Lock\Key(%1$s);
            $start = microtime(true);
            $store->waitAndSaveRead($key);
            out(sprintf("saved after %%.3f", microtime(true) - $start));
            out($store->exists($key) ? "exists" : "missing");
            out(RedisReadWriteLock::modeOf(%1$s, $key->getState(RedisLock\Symfony\RedisLockStore::class)));
            $store->delete($key);
        ', var_export($this->name, true)));
        $this->waitForWaiters(1);
        usleep(300000);
        $store->delete($writerKey);
        $this->assertFalse($store->exists($writerKey));
        $line = $child->readLine();
        $this->assertMatchesRegularExpression('/^saved after \d+\.\d+$/', $line);
        $this->assertGreaterThan(0.25, (float) substr($line, 12));
        $this->assertSame('exists', $child->readLine());
        $this->assertSame('read', $child->readLine());
        $this->assertSame(0, $child->wait(), $child->stderr());
        $this->assertSame([], $this->redis->keys());
    }

    public function testSerializedKeyReadLockFromAnotherProcess(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10, false);
        $this->assertTrue($lock->acquireRead());

        $child = Child::run(sprintf('$key = unserialize(base64_decode(%s)); $store = new RedisLock\Symfony\RedisLockStore(null, 300.0, true); ', var_export(base64_encode(serialize($key)), true)) . '
            out($store->exists($key) ? "exists" : "missing");
            $store->putOffExpiration($key, 60);
            out("refreshed");
            $store->delete($key);
            out($store->exists($key) ? "exists" : "missing");
        ');
        $this->assertSame('exists', $child->readLine());
        $this->assertSame('refreshed', $child->readLine());
        $this->assertSame('missing', $child->readLine());
        $this->assertSame(0, $child->wait(), $child->stderr());
        $this->assertFalse($lock->isAcquired());
        $this->assertSame([], $this->redis->keys(), 'released by the other process');
    }

    public function testReadLockExpires(): void
    {
        $lock = $this->factory->createLock($this->name, 0.4);
        $this->assertTrue($lock->acquireRead());
        $this->assertFalse($this->factory->createLock($this->name)->acquire());
        usleep(600000);
        $this->assertTrue($lock->isExpired());
        $this->assertFalse($lock->isAcquired());
        $writer = $this->factory->createLock($this->name, 5);
        $this->assertTrue($writer->acquire(), 'free for a writer once the read lock expired');
        $writer->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testANameHoldsOneKindOfLock(): void
    {
        $shared = $this->factory->createLock($this->name, 10);
        $this->assertTrue($shared->acquireRead());
        $exclusive = new RedisLockStore();
        try {
            $exclusive->save(new Key($this->name));
            $this->fail('LockStorageException expected: the name holds a read/write lock');
        } catch (LockStorageException $e) {
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious());
        }
        try {
            (new LockFactory($exclusive))->createLock($this->name)->acquire();
            $this->fail('LockAcquiringException expected');
        } catch (LockAcquiringException $e) {
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious()->getPrevious());
        }
        $this->assertTrue($shared->isAcquired(), 'the read lock is untouched');
        $shared->release();
        $this->assertSame([], $this->redis->keys());

        $this->assertTrue(\RedisMutexLock::lock($this->name, 0, 10));
        try {
            $this->factory->createLock($this->name)->acquireRead();
            $this->fail('LockAcquiringException expected: the name holds a mutex');
        } catch (LockAcquiringException $e) {
            $this->assertInstanceOf(LockStorageException::class, $e->getPrevious());
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious()->getPrevious());
        }
        $this->assertTrue(\RedisMutexLock::release($this->name));
        $this->assertSame([], $this->redis->keys());
    }

    public function testOutageSurfacesAsLockStorageException(): void
    {
        $server = $this->extraServer();
        $factory = new LockFactory(new RedisLockStore($server->dsn(), 300.0, true));
        $held = $factory->createLock($this->name, 10, false);
        $this->assertTrue($held->acquireRead());
        $server->kill();
        try {
            $factory->createLock($this->name)->acquireRead(true);
            $this->fail('LockAcquiringException expected');
        } catch (LockAcquiringException $e) {
            $this->assertInstanceOf(LockStorageException::class, $e->getPrevious());
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious()->getPrevious());
            $this->assertStringContainsString(sprintf('127.0.0.1:%d', $server->port), $e->getPrevious()->getMessage());
        }
        try {
            $held->isAcquired();
            $this->fail('LockStorageException expected');
        } catch (LockStorageException $e) {
        }
    }
}
