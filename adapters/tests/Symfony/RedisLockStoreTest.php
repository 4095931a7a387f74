<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use RedisLock\Symfony\RedisLockStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockAcquiringException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

final class RedisLockStoreTest extends TestCase
{
    private const TOKEN = '/^[0-9A-F]{32}:[A-Za-z0-9._-]+:\d+:\d+$/';

    private RedisLockStore $store;
    private LockFactory $factory;

    protected function setUp(): void
    {
        parent::setUp();
        $this->store = new RedisLockStore();
        $this->factory = new LockFactory($this->store);
    }

    private function token(Key $key): string
    {
        return $key->getState(RedisLockStore::class);
    }

    /** Child code that rebuilds $key (serialized) as $key and a store as $store. */
    private static function childWithKey(Key $key, string $code): string
    {
        return sprintf('$key = unserialize(base64_decode(%s)); $store = new RedisLock\Symfony\RedisLockStore(); ', var_export(base64_encode(serialize($key)), true)) . $code;
    }

    public function testIsABlockingStore(): void
    {
        $this->assertInstanceOf(BlockingStoreInterface::class, $this->store);
    }

    public function testAcquireIsAcquiredLifetimeAndRelease(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10);

        $this->assertTrue($lock->acquire());
        $token = $this->token($key);
        $this->assertMatchesRegularExpression(self::TOKEN, $token, 'a RedisMutexLock::newOwner() token in the Key state');
        $this->assertSame($token, $this->redis->get('lock:' . $this->name));
        $pttl = $this->redis->pttl('lock:' . $this->name);
        $this->assertGreaterThan(9000, $pttl, 'save() took it for 300 s, refresh() set 10 s');
        $this->assertLessThanOrEqual(10000, $pttl);
        $this->assertTrue($lock->isAcquired());
        $this->assertFalse($lock->isExpired());
        $this->assertGreaterThan(9.0, $lock->getRemainingLifetime());
        $this->assertLessThanOrEqual(10.0, $lock->getRemainingLifetime());

        $lock->release();
        $this->assertFalse($lock->isAcquired());
        $this->assertSame([], $this->redis->keys(), 'nothing left in Redis');

        $this->assertTrue($lock->acquire(), 'the same Lock again');
        $this->assertSame($token, $this->redis->get('lock:' . $this->name), 'the token stays in the Key');
        $lock->release();
    }

    public function testSaveUsesInitialTtlAndKeyLifetime(): void
    {
        $store = new RedisLockStore(null, 2.5);
        $key = new Key($this->name);
        $store->save($key);
        $this->assertTrue($store->exists($key));
        $this->assertGreaterThan(2400, $this->redis->pttl('lock:' . $this->name));
        $this->assertLessThanOrEqual(2500, $this->redis->pttl('lock:' . $this->name));
        $this->assertGreaterThan(2.3, $key->getRemainingLifetime());
        $this->assertLessThanOrEqual(2.5, $key->getRemainingLifetime());

        $store->save($key);
        $this->assertTrue($store->exists($key), 'save() of a key this process holds refreshes it');

        $store->delete($key);
        $this->assertFalse($store->exists($key));
        $this->assertSame([], $this->redis->keys());
    }

    public function testConflictingLocks(): void
    {
        $first = $this->factory->createLock($this->name, 10);
        $second = $this->factory->createLock($this->name, 10);

        $this->assertTrue($first->acquire());
        $this->assertFalse($second->acquire(), 'refused: another Key holds it');
        $this->assertFalse($second->isAcquired());
        $this->assertTrue($first->isAcquired());

        $other = new Key($this->name);
        try {
            $this->store->save($other);
            $this->fail('save() of a held lock must throw');
        } catch (LockConflictedException $e) {
        }
        try {
            $this->store->putOffExpiration($other, 10);
            $this->fail('putOffExpiration() of a lock held by another Key must throw');
        } catch (LockConflictedException $e) {
        }
        $this->store->delete($other);
        $this->assertTrue($first->isAcquired(), 'delete() of another Key leaves the lock alone');

        try {
            $second->refresh();
            $this->fail('refresh() of a lock held by another Key must throw');
        } catch (LockConflictedException $e) {
        }

        $first->release();
        $this->assertTrue($second->acquire());
        $this->assertFalse($first->isAcquired());
        $second->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testBlockingAcquireIsHandedOverWhenAnotherProcessReleases(): void
    {
        $child = Child::run(sprintf('
            $lock = (new Symfony\Component\Lock\LockFactory(new RedisLock\Symfony\RedisLockStore()))->createLock(%s, 30);
            out($lock->acquire() ? "held" : "refused");
            %s
            usleep(300000);
            out("released at " . microtime(true));
            $lock->release();
        ', var_export($this->name, true), self::childAwaitWaiter($this->name)));
        $this->assertSame('held', $child->readLine());

        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10);
        $start = microtime(true);
        $this->assertTrue($lock->acquire(true));
        $acquired = microtime(true);

        $this->assertSame('waiters=1', $child->readLine(), 'the blocking acquire waited in the FIFO queue');
        $released = (float) substr($child->readLine(), strlen('released at '));
        $this->assertSame(0, $child->wait());
        $this->assertGreaterThanOrEqual(0.25, $acquired - $start);
        $this->assertLessThan(5.0, $acquired - $start);
        $this->assertLessThan(1.0, $acquired - $released, 'handed over at the release');
        $this->assertSame($this->token($key), $this->redis->get('lock:' . $this->name));
        $this->assertTrue($lock->isAcquired());
        $this->assertGreaterThan(9000, $this->redis->pttl('lock:' . $this->name));
        $this->assertGreaterThan(9.0, $lock->getRemainingLifetime());

        $lock->release();
        $this->assertSame([], $this->redis->keys(), 'no queue, lease or wake-up key left');
    }

    public function testWaitAndSaveDirectly(): void
    {
        $store = new RedisLockStore(null, 5);
        $key = new Key($this->name);
        $store->waitAndSave($key);
        $this->assertTrue($store->exists($key));
        $this->assertGreaterThan(4800, $this->redis->pttl('lock:' . $this->name));
        $this->assertGreaterThan(4.8, $key->getRemainingLifetime());

        $child = Child::run(self::childWithKey($key, sprintf('
            $other = new Symfony\Component\Lock\Key(%s);
            $start = microtime(true);
            out("waiting");
            $store->waitAndSave($other);
            out(sprintf("saved after %%.3f", microtime(true) - $start));
            out($store->exists($other) ? "exists" : "missing");
            $store->delete($other);
        ', var_export($this->name, true))));
        // From the child's start of waiting, not of its process: a busy
        // machine may take longer than the test's margin to start PHP.
        $this->assertSame('waiting', $child->readLine());
        usleep(500000);
        $store->delete($key);
        $line = $child->readLine();
        $this->assertMatchesRegularExpression('/^saved after \d+\.\d+$/', $line);
        $this->assertGreaterThan(0.3, (float) substr($line, 12));
        $this->assertSame('exists', $child->readLine());
        $this->assertSame(0, $child->wait());
        $this->assertSame([], $this->redis->keys());
    }

    public function testRefreshPutsOffExpiration(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 2);
        $this->assertTrue($lock->acquire());
        $this->assertLessThanOrEqual(2000, $this->redis->pttl('lock:' . $this->name));

        $lock->refresh(20);
        $this->assertGreaterThan(19000, $this->redis->pttl('lock:' . $this->name));
        $this->assertGreaterThan(19.0, $lock->getRemainingLifetime());

        $lock->refresh();
        $this->assertLessThanOrEqual(2000, $this->redis->pttl('lock:' . $this->name), 'refresh() uses the Lock\'s TTL');
        $this->assertLessThanOrEqual(2.0, $lock->getRemainingLifetime());
        $lock->release();
    }

    public function testExpiry(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 0.4);
        $this->assertTrue($lock->acquire());
        $this->assertLessThanOrEqual(400, $this->redis->pttl('lock:' . $this->name));

        usleep(600000);
        $this->assertTrue($lock->isExpired());
        $this->assertFalse($this->redis->exists('lock:' . $this->name), 'expired in Redis');
        $this->assertFalse($lock->isAcquired());
        try {
            $lock->refresh();
            $this->fail('refresh() of an expired lock must throw');
        } catch (LockConflictedException $e) {
        }

        $this->assertTrue($lock->acquire(), 'the same Lock takes it again after expiry');
        $this->assertSame($this->token($key), $this->redis->get('lock:' . $this->name));
        $lock->release();

        $other = $this->factory->createLock($this->name, 5);
        $this->assertTrue($other->acquire(), 'free for others after expiry');
        $other->release();
    }

    public function testLockExpiredExceptionWhenTheLifetimeRunsOutDuringTheCall(): void
    {
        $key = new Key($this->name);
        $this->store->save($key);
        try {
            $this->store->putOffExpiration($key, 0.000001);
            $this->fail('LockExpiredException expected');
        } catch (LockExpiredException $e) {
            $this->assertSame(sprintf('Failed to store the "%s" lock.', $this->name), $e->getMessage());
        }
        $this->assertFalse($this->redis->exists('lock:' . $this->name), 'released by checkNotExpired()');

        $lock = $this->factory->createLock($this->name, 10);
        $this->assertTrue($lock->acquire());
        try {
            $lock->refresh(-1);
            $this->fail('refresh() with a TTL already over must throw');
        } catch (LockAcquiringException $e) {
            $this->assertInstanceOf(LockExpiredException::class, $e->getPrevious(), 'as with symfony\'s RedisStore');
        }
        $this->assertFalse($lock->isAcquired());
    }

    public function testSerializedKeyIsCheckedRefreshedAndReleasedFromAnotherProcess(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10, false);
        $this->assertTrue($lock->acquire());

        $child = Child::run(self::childWithKey($key, '
            out($store->exists($key) ? "exists" : "missing");
            $store->putOffExpiration($key, 60);
            out("refreshed");
            $store->delete($key);
            out($store->exists($key) ? "exists" : "missing");
        '));
        $this->assertSame('exists', $child->readLine());
        $this->assertSame('refreshed', $child->readLine());
        $this->assertSame('missing', $child->readLine());
        $this->assertSame(0, $child->wait(), $child->stderr());
        $this->assertSame([], $this->redis->keys(), 'released by the other process');
        $this->assertFalse($lock->isAcquired());
        $lock->release(); // nothing to release: no exception, as with symfony's RedisStore
    }

    public function testSerializedKeyRefreshInAnotherProcess(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 5, false);
        $this->assertTrue($lock->acquire());
        $child = Child::run(self::childWithKey($key, '
            (new Symfony\Component\Lock\LockFactory($store))->createLockFromKey($key, 60, false)->refresh();
            out("ok");
        '));
        $this->assertSame('ok', $child->readLine());
        $this->assertSame(0, $child->wait());
        $this->assertGreaterThan(59000, $this->redis->pttl('lock:' . $this->name));
        $this->assertTrue($lock->isAcquired());
        $lock->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testReacquireAfterAnotherProcessReleasedTheSerializedKey(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10, false);
        $this->assertTrue($lock->acquire());
        $child = Child::run(self::childWithKey($key, '$store->delete($key); out("deleted");'));
        $this->assertSame('deleted', $child->readLine());
        $this->assertSame(0, $child->wait());
        $this->assertSame([], $this->redis->keys());

        $this->assertTrue($lock->acquire(), 'the key is free: symfony\'s RedisStore::save() takes it again');
        $this->assertSame($this->token($key), $this->redis->get('lock:' . $this->name));
        $lock->release();
    }

    public function testSaveOfTheSameKeyInAnotherProcessWhileHeld(): void
    {
        $key = new Key($this->name);
        $lock = $this->factory->createLockFromKey($key, 10, false);
        $this->assertTrue($lock->acquire());
        // save() first: once waitAndSave() took it, the child holds it and save() refreshes.
        $child = Child::run(self::childWithKey($key, '
            try { $store->save($key); out("saved"); } catch (Symfony\Component\Lock\Exception\LockConflictedException $e) { out("conflict"); }
            $start = microtime(true);
            $store->waitAndSave($key);
            out(sprintf("waitAndSave %.3f", microtime(true) - $start));
        '));
        $saved = $child->readLine();
        $waited = $child->readLine();
        $this->assertSame(0, $child->wait(), $child->stderr());
        $this->assertMatchesRegularExpression('/^waitAndSave \d+\.\d+$/', $waited);
        $this->assertLessThan(1.0, (float) substr($waited, 12), 'waitAndSave() of the same token: at once, as symfony\'s');
        $this->assertGreaterThan(299000, $this->redis->pttl('lock:' . $this->name), 'refreshed to the initial TTL');
        $lock->release();
        $this->assertSame([], $this->redis->keys());
        $this->assertSame('saved', $saved, 'save() of the same token held by another process succeeds and refreshes, as symfony\'s RedisStore');
    }

    public function testAutoReleaseOnDestruct(): void
    {
        $lock = $this->factory->createLock($this->name, 10);
        $this->assertTrue($lock->acquire());
        $this->assertTrue($this->redis->exists('lock:' . $this->name));
        unset($lock);
        $this->assertSame([], $this->redis->keys());
    }

    public function testOtherServerIsUsedAndTheSettingRestored(): void
    {
        $other = $this->extraServer();
        $store = new RedisLockStore($other->dsn());
        $factory = new LockFactory($store);
        $before = ini_get('redis_lock.server');

        $key = new Key($this->name);
        $lock = $factory->createLockFromKey($key, 10);
        $this->assertTrue($lock->acquire());
        $this->assertSame($before, ini_get('redis_lock.server'), 'redis_lock.server restored');
        $this->assertSame($this->token($key), $other->client()->get('lock:' . $this->name));
        $this->assertSame([], $this->redis->keys(), 'nothing on the default server');
        $this->assertFalse($this->store->exists($key), 'the default store looks at the default server');
        $this->assertTrue($lock->isAcquired());
        $this->assertTrue($this->factory->createLock($this->name)->acquire(), 'independent servers');
        $lock->release();
        $this->assertSame([], $other->client()->keys());

        $other->kill();
        try {
            $store->exists($key);
            $this->fail('LockStorageException expected');
        } catch (LockStorageException $e) {
        }
        $this->assertSame($before, ini_get('redis_lock.server'), 'restored after an exception too');
    }

    public function testOutageSurfacesAsSymfonyExceptionsWrappingRedisLockException(): void
    {
        $server = $this->extraServer();
        $store = new RedisLockStore($server->dsn());
        $factory = new LockFactory($store);
        $held = $factory->createLock($this->name, 10, false); // no release attempt at destruction
        $this->assertTrue($held->acquire());
        $server->kill();
        $refused = sprintf('Redis at 127.0.0.1:%d: cannot connect: Connection refused (os error 111)', $server->port);

        try {
            $factory->createLock($this->name)->acquire();
            $this->fail('LockAcquiringException expected');
        } catch (LockAcquiringException $e) {
            $this->assertSame(sprintf('Failed to acquire the "%s" lock.', $this->name), $e->getMessage());
            $storage = $e->getPrevious();
            $this->assertInstanceOf(LockStorageException::class, $storage);
            $this->assertSame($refused, $storage->getMessage());
            $this->assertInstanceOf(\RedisLockException::class, $storage->getPrevious());
            $this->assertSame($refused, $storage->getPrevious()->getMessage());
        }

        try {
            $factory->createLock($this->name)->acquire(true);
            $this->fail('LockAcquiringException expected from a blocking acquire');
        } catch (LockAcquiringException $e) {
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious()->getPrevious());
        }

        try {
            $held->isAcquired();
            $this->fail('LockStorageException expected');
        } catch (LockStorageException $e) {
            $this->assertSame($refused, $e->getMessage());
        }

        try {
            $held->refresh();
            $this->fail('LockAcquiringException expected');
        } catch (LockAcquiringException $e) {
            $this->assertSame(sprintf('Failed to define an expiration for the "%s" lock.', $this->name), $e->getMessage());
            $this->assertInstanceOf(LockStorageException::class, $e->getPrevious());
        }

        try {
            $held->release();
            $this->fail('LockReleasingException expected');
        } catch (LockReleasingException $e) {
            $this->assertSame(sprintf('Failed to release the "%s" lock.', $this->name), $e->getMessage());
            $this->assertInstanceOf(LockStorageException::class, $e->getPrevious());
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious()->getPrevious());
        }
    }

    public function testHungServerSurfacesAsLockStorageException(): void
    {
        $server = $this->extraServer();
        $store = new RedisLockStore($server->dsn());
        ini_set('redis_lock.read_timeout', '0.3');
        $key = new Key($this->name);
        $store->save($key);
        $server->freeze();
        $start = microtime(true);
        try {
            $store->exists($key);
            $this->fail('LockStorageException expected');
        } catch (LockStorageException $e) {
            $this->assertSame(sprintf('Redis at 127.0.0.1:%d: no reply within 0.3 s', $server->port), $e->getMessage());
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious());
        }
        $this->assertLessThan(2.0, microtime(true) - $start);
        $server->thaw();
        $this->assertTrue($store->exists($key));
        $store->delete($key);
    }

    public function testInvalidTtl(): void
    {
        $this->expectException(InvalidTtlException::class);
        new RedisLockStore(null, 0);
    }
}
