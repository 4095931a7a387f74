<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use Illuminate\Cache\Repository;
use Illuminate\Contracts\Cache\CanFlushLocks;
use Illuminate\Contracts\Cache\LockTimeoutException;
use RedisLock\Laravel\NativeLockStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;

/**
 * The store's lock-level API: flushLocks() and hasSeparateLockStore() (every
 * Laravel version; the CanFlushLocks contract where Laravel has it), and the
 * framework features built on the store's lock(): Cache::withoutOverlapping()
 * and Cache::funnel() (Laravel 12+).
 */
final class NativeLockStoreTest extends TestCase
{
    public function testDeclaresCanFlushLocksWhereLaravelHasIt(): void
    {
        $store = new NativeLockStore(null, 'app:');
        $this->assertSame(interface_exists(CanFlushLocks::class), $store instanceof CanFlushLocks);
        $this->assertTrue($store->hasSeparateLockStore(), 'locks live under redis_lock.prefix . prefix');
    }

    public function testFlushLocksReleasesOnlyThisStoresLocks(): void
    {
        $store = new NativeLockStore(null, 'app:');
        $this->assertTrue($store->lock('a', 30)->get());
        $this->assertTrue($store->lock('b', 0)->get());
        // A fencing counter beside the lock key (lock:app:user:{42}:c:f): left
        // by a hold of the process' own that asked for a fence (an owner
        // token's lock has none of its own).
        $this->assertTrue(\RedisMutexLock::lock('app:user:{42}:c', 0, 30));
        $this->assertIsInt(\RedisMutexLock::fence('app:user:{42}:c'), 'a fencing counter lock:app:user:{42}:c:f');
        $this->assertTrue(\RedisMutexLock::release('app:user:{42}:c'));
        $tagged = $store->lock('user:{42}:c', 30);
        $this->assertTrue($tagged->get());
        $other = new NativeLockStore(null, 'other:');
        $this->assertTrue($other->lock('a', 30)->get());
        $this->redis->command('SET', 'app:data', 'cache value');
        $this->redis->command('SET', 'lockapp:x', 'near the prefix');
        $this->redis->command('HSET', 'lock:app:hash', 'field', 'not a lock');

        $this->assertTrue($store->flushLocks());
        $this->assertSame(
            ['app:data', 'lock:app:hash', 'lock:app:user:{42}:c:f', 'lock:other:a', 'lockapp:x'],
            $this->redis->keys(),
            'its locks gone; another store\'s lock, other data and the fencing counter left',
        );
        $this->assertTrue($store->lock('a', 10)->get(), 'free again');
        $this->assertTrue($store->flushLocks(), 'nothing but the new lock to flush');
        $this->assertFalse($this->redis->exists('lock:app:a'));
    }

    public function testFlushLocksHandsALockToItsWaiter(): void
    {
        $store = new NativeLockStore(null, 'app:');
        $this->assertTrue($store->lock($this->name, 30)->get());
        $child = Child::run(sprintf('
            $lock = new RedisLock\Laravel\NativeLock(%s, 30);
            out("waiting");
            out($lock->block(10) ? "held " . $lock->owner() : "refused");
            in();
            $lock->release();', var_export('app:' . $this->name, true)));
        $this->assertSame('waiting', $child->readLine());
        $this->waitUntil(fn () => \RedisMutexLock::inspect('app:' . $this->name)['waiters'] === 1, 5.0, 'the child waits');

        $start = microtime(true);
        $this->assertTrue($store->flushLocks());
        $line = $child->readLine();
        $this->assertLessThan(1.0, microtime(true) - $start, 'handed over at the flush, as at any release');
        $this->assertStringStartsWith('held ', $line);
        $this->assertSame(substr($line, 5), $this->redis->get('lock:app:' . $this->name));
        $child->send('release');
        $this->assertSame(0, $child->wait());
        $this->assertSame([], $this->redis->keys(), 'no queue key left');
    }

    public function testWithoutAPrefixFlushLocksRefuses(): void
    {
        ini_set('redis_lock.prefix', '');
        $store = new NativeLockStore();
        $this->assertFalse($store->hasSeparateLockStore());
        $this->assertTrue($store->lock($this->name, 30)->get());
        $this->redis->command('SET', 'data', 'cache value');
        try {
            $store->flushLocks();
            $this->fail('RuntimeException expected');
        } catch (\RuntimeException $e) {
            $this->assertStringStartsWith('Flushing locks is only supported when the lock store is separate', $e->getMessage());
        }
        $this->assertSame(['data', $this->name], $this->redis->keys(), 'nothing removed');
    }

    public function testFlushLocksOnTheStoresServer(): void
    {
        $server = $this->extraServer();
        $store = new NativeLockStore($server->dsn(), 'app:');
        $this->assertTrue($store->lock('a', 30)->get());
        $this->assertTrue((new NativeLockStore(null, 'app:'))->lock('a', 30)->get());
        $this->assertTrue($store->flushLocks());
        $this->assertSame([], $server->client()->keys());
        $this->assertSame(['lock:app:a'], $this->redis->keys(), 'the main server untouched');
    }

    public function testFlushLocksWithPasswordAndDatabase(): void
    {
        $server = $this->extraServer();
        $admin = $server->client();
        $admin->command('CONFIG', 'SET', 'requirepass', 'p@ss:/word');
        $admin->command('AUTH', 'p@ss:/word');
        $store = new NativeLockStore(sprintf('redis://:%s@127.0.0.1:%d/2', rawurlencode('p@ss:/word'), $server->port), 'app:');
        $this->assertTrue($store->lock('a', 30)->get());
        $admin->command('SELECT', '2');
        $admin->command('SET', 'data', 'kept');
        $this->assertSame(['data', 'lock:app:a'], $admin->keys());

        $this->assertTrue($store->flushLocks());
        $this->assertSame(['data'], $admin->keys(), 'flushed in database 2, logged in with the DSN\'s password');
        $admin->command('CONFIG', 'SET', 'requirepass', '');
    }

    public function testFlushLocksRefusesClusterAndSentinelServers(): void
    {
        foreach (['redis-cluster://127.0.0.1:7000,127.0.0.1:7001', 'redis-sentinel://127.0.0.1:26379/mymaster'] as $dsn) {
            try {
                (new NativeLockStore($dsn, 'app:'))->flushLocks();
                $this->fail("$dsn: LogicException expected");
            } catch (\LogicException $e) {
                $this->assertStringContainsString('Cluster and Sentinel are not supported', $e->getMessage());
            }
        }
    }

    public function testFlushLocksThroughTheRepository(): void
    {
        $repository = new Repository(new NativeLockStore(null, 'app:'));
        if (!method_exists($repository, 'flushLocks')) {
            $this->markTestSkipped('Repository::flushLocks() comes with Laravel 13');
        }
        $this->assertTrue($repository->supportsFlushingLocks());
        $this->assertTrue($repository->lock('a', 30)->get());
        $this->assertTrue($repository->flushLocks());
        $this->assertSame([], $this->redis->keys());
    }

    public function testWithoutOverlapping(): void
    {
        $repository = new Repository(new NativeLockStore(null, 'app:'));
        if (!method_exists($repository, 'withoutOverlapping')) {
            $this->markTestSkipped('Repository::withoutOverlapping() comes with Laravel 12');
        }
        $result = $repository->withoutOverlapping('job', function () {
            $this->assertNotNull($this->redis->get('lock:app:job'), 'held while the callback runs');
            $pttl = $this->redis->pttl('lock:app:job');
            $this->assertGreaterThan(4000, $pttl);
            $this->assertLessThanOrEqual(5000, $pttl);

            return 'done';
        }, 5, 1);
        $this->assertSame('done', $result);
        $this->assertSame([], $this->redis->keys(), 'released after the callback');

        $holder = $repository->lock('job', 30);
        $this->assertTrue($holder->get());
        $start = microtime(true);
        try {
            $repository->withoutOverlapping('job', fn () => $this->fail('ran while held'), 5, 1);
            $this->fail('LockTimeoutException expected');
        } catch (LockTimeoutException $e) {
        }
        $this->assertGreaterThanOrEqual(0.95, microtime(true) - $start);
        $this->assertLessThan(2.0, microtime(true) - $start);
        $this->assertSame($holder->owner(), $this->redis->get('lock:app:job'));
        $this->assertTrue($holder->release());
    }

    public function testFunnel(): void
    {
        $repository = new Repository(new NativeLockStore(null, 'app:'));
        if (!method_exists($repository, 'funnel')) {
            $this->markTestSkipped('Repository::funnel() comes with Laravel 12');
        }
        $funnel = fn () => $repository->funnel('f')->limit(2)->releaseAfter(10)->block(0);
        $failed = null;
        $result = $funnel()->then(function () use ($funnel, &$failed) {
            $this->assertSame(['lock:app:f1'], $this->redis->keys(), 'the first slot');
            $this->assertGreaterThan(9000, $this->redis->pttl('lock:app:f1'));

            return $funnel()->then(function () use ($funnel, &$failed) {
                $this->assertSame(['lock:app:f1', 'lock:app:f2'], $this->redis->keys(), 'the second slot');
                $funnel()->then(fn () => $this->fail('a third runner in a funnel of 2'), function ($e) use (&$failed) {
                    $failed = $e;
                });

                return 'inner';
            });
        });
        $this->assertSame('inner', $result);
        $this->assertInstanceOf(\Illuminate\Cache\Limiters\LimiterTimeoutException::class, $failed);
        $this->assertSame([], $this->redis->keys(), 'both slots released');
    }
}
