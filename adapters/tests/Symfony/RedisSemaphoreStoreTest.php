<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use RedisLock\Symfony\RedisSemaphoreStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Semaphore\Exception\ExceptionInterface;
use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\RuntimeException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\PersistingStoreInterface;
use Symfony\Component\Semaphore\SemaphoreFactory;

/**
 * RedisSemaphoreStore under symfony/semaphore's SemaphoreFactory and
 * Semaphore: the semaphore is a RedisSemaphore on the key
 * redis_lock.prefix . resource. Skipped where symfony/semaphore is not
 * installed.
 */
final class RedisSemaphoreStoreTest extends TestCase
{
    private RedisSemaphoreStore $store;
    private SemaphoreFactory $factory;

    protected function setUp(): void
    {
        if (!interface_exists(PersistingStoreInterface::class)) {
            $this->markTestSkipped('symfony/semaphore is not installed (Debian: php-symfony-semaphore)');
        }
        parent::setUp();
        $this->store = new RedisSemaphoreStore();
        $this->factory = new SemaphoreFactory($this->store);
    }

    private function token(Key $key): string
    {
        return $key->getState(RedisSemaphoreStore::class);
    }

    public function testLimitWeightsAndRelease(): void
    {
        $key1 = new Key($this->name, 2);
        $first = $this->factory->createSemaphoreFromKey($key1, 10);
        $second = $this->factory->createSemaphore($this->name, 2, 1, 10);
        $third = $this->factory->createSemaphore($this->name, 2, 1, 10);

        $this->assertTrue($first->acquire());
        $this->assertTrue($second->acquire());
        $this->assertFalse($third->acquire(), 'two permits of two are held');
        $this->assertSame('zset', $this->redis->command('TYPE', 'lock:' . $this->name), 'a RedisSemaphore key');
        $this->assertMatchesRegularExpression('/^[0-9A-F]{32}:/', $this->token($key1), 'a RedisMutexLock::newOwner() token in the Key state');
        $this->assertTrue(\RedisSemaphore::holds($this->name, $this->token($key1)));
        $info = \RedisSemaphore::inspect($this->name);
        $this->assertSame(2, $info['used']);
        $this->assertSame(2, $info['limit']);
        $this->assertSame(0, $info['free']);
        foreach ($info['holders'] as $holder) {
            $this->assertGreaterThan(9000, $holder['ttl']);
            $this->assertLessThanOrEqual(10000, $holder['ttl']);
            $this->assertSame(1, $holder['weight']);
        }
        $this->assertTrue($first->isAcquired());
        $this->assertFalse($third->isAcquired());
        $this->assertGreaterThan(9.0, $first->getRemainingLifetime());

        $first->release();
        $this->assertFalse($first->isAcquired());
        $this->assertTrue($third->acquire(), 'the released permit');
        $second->release();
        $third->release();
        $this->assertSame([], $this->redis->keys());

        $heavy = $this->factory->createSemaphore($this->name, 4, 3, 10);
        $light = $this->factory->createSemaphore($this->name, 4, 1, 10);
        $other = $this->factory->createSemaphore($this->name, 4, 1, 10);
        $this->assertTrue($heavy->acquire());
        $this->assertTrue($light->acquire());
        $this->assertFalse($other->acquire(), 'weights 3 + 1 fill a limit of 4');
        $this->assertSame(4, \RedisSemaphore::inspect($this->name)['used']);
        $heavy->release();
        $light->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testAKeyIsLetInOnlyUnderItsOwnLimit(): void
    {
        $held = [];
        foreach ([3, 3] as $limit) {
            $this->assertTrue(($held[] = $this->factory->createSemaphore($this->name, $limit, 1, 10))->acquire());
        }
        $this->assertFalse(($held[] = $this->factory->createSemaphore($this->name, 2, 1, 10))->acquire(), 'two held: not under a limit of 2');
        $this->assertTrue(($held[] = $this->factory->createSemaphore($this->name, 3, 1, 10))->acquire(), 'still under a limit of 3');
        $this->assertSame(3, \RedisSemaphore::inspect($this->name)['used']);
        $held = []; // Semaphore releases on destruction
        $this->assertSame([], $this->redis->keys());
    }

    public function testSaveTwiceKeepsOnePermitAndSetsItsLease(): void
    {
        $key = new Key($this->name, 1);
        $this->store->save($key, 10);
        $this->store->save($key, 30);
        $info = \RedisSemaphore::inspect($this->name);
        $this->assertSame(1, $info['used'], 'the same Key: one permit');
        $this->assertGreaterThan(29000, $info['holders'][0]['ttl']);
        $this->store->delete($key);
        $this->assertFalse($this->store->exists($key));
        $this->store->delete($key); // nothing held: no exception, as symfony's RedisStore
        $this->assertSame([], $this->redis->keys());
    }

    public function testRefreshSetsTheLeaseAndExpiryGivesThePermitBack(): void
    {
        $key = new Key($this->name, 1);
        $semaphore = $this->factory->createSemaphoreFromKey($key, 0.4);
        $this->assertTrue($semaphore->acquire());
        $this->assertLessThanOrEqual(400, \RedisSemaphore::inspect($this->name)['holders'][0]['ttl']);
        $semaphore->refresh(20);
        $this->assertGreaterThan(19000, \RedisSemaphore::inspect($this->name)['holders'][0]['ttl']);
        $this->assertGreaterThan(19.0, $semaphore->getRemainingLifetime());
        $semaphore->refresh();
        $this->assertLessThanOrEqual(400, \RedisSemaphore::inspect($this->name)['holders'][0]['ttl'], 'refresh() uses the Semaphore\'s TTL');

        usleep(600000);
        $this->assertTrue($semaphore->isExpired());
        $this->assertFalse($semaphore->isAcquired());
        $other = $this->factory->createSemaphore($this->name, 1, 1, 5);
        $this->assertTrue($other->acquire(), 'the expired permit came back');
        try {
            $semaphore->refresh();
            $this->fail('SemaphoreExpiredException expected');
        } catch (SemaphoreExpiredException $e) {
            $this->assertSame(sprintf('The semaphore "%s" has expired: its permits are not held.', $this->name), $e->getMessage());
        }
        $this->assertTrue($other->isAcquired(), 'the other permit untouched');
        $other->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testLimitIsNeverExceededAcrossProcesses(): void
    {
        $limit = 2;
        $children = [];
        for ($i = 0; $i < 5; $i++) {
            $children[] = Child::run(sprintf('
                $redis = new RedisLock\Tests\Support\RespClient((int) getenv("REDIS_LOCK_TEST_PORT"));
                $factory = new Symfony\Component\Semaphore\SemaphoreFactory(new RedisLock\Symfony\RedisSemaphoreStore());
                $max = 0;
                for ($round = 0; $round < 6; $round++) {
                    $semaphore = $factory->createSemaphore(%s, %d, 1, 10);
                    while (!$semaphore->acquire()) {
                        usleep(random_int(1000, 5000));
                    }
                    $inside = $redis->command("INCR", "inside");
                    $max = max($max, $inside);
                    usleep(30000);
                    $redis->command("DECR", "inside");
                    $semaphore->release();
                }
                out("max=" . $max);
            ', var_export($this->name, true), $limit));
        }
        $used = [];
        $deadline = microtime(true) + 30;
        $maxes = [];
        foreach ($children as $child) {
            while (true) {
                try {
                    $line = $child->readLine(0.05);
                    break;
                } catch (\RuntimeException $e) {
                    $used[] = \RedisSemaphore::inspect($this->name)['used'];
                    if (microtime(true) > $deadline) {
                        throw $e;
                    }
                }
            }
            $this->assertMatchesRegularExpression('/^max=\d+$/', $line);
            $maxes[] = (int) substr($line, 4);
            $this->assertSame(0, $child->wait(), $child->stderr());
        }
        $this->assertLessThanOrEqual($limit, max($maxes), 'never more than the limit inside at once');
        $this->assertSame($limit, max($maxes), 'the limit was reached (the test had contention)');
        $this->assertLessThanOrEqual($limit, max($used), 'never more permits held than the limit');
        $this->assertSame('0', $this->redis->get('inside'));
        $this->redis->command('DEL', 'inside');
        $this->assertSame([], $this->redis->keys());
    }

    public function testSerializedKeyFromAnotherProcess(): void
    {
        $key = new Key($this->name, 1);
        $semaphore = $this->factory->createSemaphoreFromKey($key, 10, false);
        $this->assertTrue($semaphore->acquire());
        $child = Child::run(sprintf('$key = unserialize(base64_decode(%s)); $store = new RedisLock\Symfony\RedisSemaphoreStore(); ', var_export(base64_encode(serialize($key)), true)) . '
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
        $this->assertFalse($semaphore->isAcquired());
        $this->assertSame([], $this->redis->keys(), 'released by the other process');
    }

    public function testAKilledHoldersPermitComesBackAfterItsLease(): void
    {
        $child = Child::run(sprintf('
            $semaphore = (new Symfony\Component\Semaphore\SemaphoreFactory(new RedisLock\Symfony\RedisSemaphoreStore()))->createSemaphore(%s, 1, 1, 1);
            out($semaphore->acquire() ? "held" : "refused");
            sleep(30);
        ', var_export($this->name, true)));
        $this->assertSame('held', $child->readLine());
        $child->kill();
        $this->assertSame(128 + SIGKILL, $child->wait());
        $semaphore = $this->factory->createSemaphore($this->name, 1, 1, 5);
        $this->assertFalse($semaphore->acquire(), 'held by the killed process until its lease ends');
        $waited = $this->waitUntil(fn () => $semaphore->acquire(), 3.0, 'the permit comes back');
        $this->assertLessThan(1.5, $waited);
        $semaphore->release();
        $this->assertSame([], $this->redis->keys());
    }

    public function testInvalidTtl(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->store->save(new Key($this->name, 1), -1);
    }

    public function testANameHoldsOneKindOfLock(): void
    {
        $this->assertTrue(\RedisMutexLock::lock($this->name, 0, 10));
        try {
            $this->factory->createSemaphore($this->name, 2)->acquire();
            $this->fail('RuntimeException expected: the name holds a mutex');
        } catch (RuntimeException $e) {
            $this->assertSame(sprintf('Failed to acquire the "%s" semaphore.', $this->name), $e->getMessage());
            $this->assertInstanceOf(ExceptionInterface::class, $e->getPrevious());
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious()->getPrevious());
        }
        $this->assertTrue(\RedisMutexLock::release($this->name));
        $this->assertSame([], $this->redis->keys());
    }

    public function testOtherServerAndOutage(): void
    {
        $server = $this->extraServer();
        $store = new RedisSemaphoreStore($server->dsn());
        $before = ini_get('redis_lock.server');
        $key = new Key($this->name, 1);
        $semaphore = (new SemaphoreFactory($store))->createSemaphoreFromKey($key, 10, false);
        $this->assertTrue($semaphore->acquire());
        $this->assertSame($before, ini_get('redis_lock.server'), 'redis_lock.server restored');
        $this->assertSame('zset', $server->client()->command('TYPE', 'lock:' . $this->name));
        $this->assertSame([], $this->redis->keys(), 'nothing on the default server');
        $this->assertTrue($this->factory->createSemaphore($this->name, 1)->acquire(), 'independent servers');

        $server->kill();
        $refused = sprintf('Redis at 127.0.0.1:%d: cannot connect: Connection refused (os error 111)', $server->port);
        foreach (['acquire' => 'Failed to acquire the "%s" semaphore.', 'refresh' => 'Failed to define an expiration for the "%s" semaphore.', 'release' => 'Failed to release the "%s" semaphore.'] as $method => $message) {
            try {
                $semaphore->$method();
                $this->fail("$method(): RuntimeException expected");
            } catch (RuntimeException $e) {
                $this->assertSame(sprintf($message, $this->name), $e->getMessage());
                $storage = $e->getPrevious();
                $this->assertInstanceOf(ExceptionInterface::class, $storage);
                $this->assertSame($refused, $storage->getMessage());
                $this->assertInstanceOf(\RedisLockException::class, $storage->getPrevious());
            }
        }
        try {
            $store->exists($key);
            $this->fail('exists(): exception expected');
        } catch (ExceptionInterface $e) {
            $this->assertInstanceOf(\RuntimeException::class, $e);
            $this->assertInstanceOf(\RedisLockException::class, $e->getPrevious());
        }
        $this->assertSame($before, ini_get('redis_lock.server'), 'restored after an exception too');
    }

    public function testSaveRefusedIsSemaphoreAcquiringException(): void
    {
        $this->store->save(new Key($this->name, 1), 10);
        try {
            $this->store->save(new Key($this->name, 1), 10);
            $this->fail('SemaphoreAcquiringException expected');
        } catch (SemaphoreAcquiringException $e) {
            $this->assertSame(sprintf('The semaphore "%s" could not be acquired: too few permits are free.', $this->name), $e->getMessage());
        }
    }
}
