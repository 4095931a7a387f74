<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use Illuminate\Container\Container;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Queue\Events\JobProcessed;
use Illuminate\Queue\Events\JobProcessing;
use RedisLock\Laravel\Events\LockAcquiredAfterWait;
use RedisLock\Laravel\Events\LockLeaseLost;
use RedisLock\Laravel\Events\LocksLeaked;
use RedisLock\Laravel\Events\LockWaitTimedOut;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\LaravelApp;
use RedisLock\Tests\Support\TestCase;

/**
 * The redis_lock store's events, through Laravel's own event dispatcher:
 * a block() that waited or timed out, a renewed lock found lost at release,
 * a job that left locks behind. Contention comes from another process.
 */
final class LockEventsTest extends TestCase
{
    private Container $app;

    /** @var list<object> what the listeners heard */
    private array $heard = [];

    protected function setUp(): void
    {
        parent::setUp();
        $this->app = LaravelApp::make($this->mainServer(), ['Events', 'Queue']);
        foreach ([LockAcquiredAfterWait::class, LockWaitTimedOut::class, LockLeaseLost::class, LocksLeaked::class] as $class) {
            $this->app['events']->listen($class, fn (object $event) => $this->heard[] = $event);
        }
    }

    /**
     * A child that holds 'app:' . $name until it sees a waiter, then $holdMore
     * ms more (null: until the test says "release").
     */
    private function holder(?int $holdMore): Child
    {
        $key = 'app:' . $this->name;
        $child = Child::run(sprintf('RedisMutexLock::lock(%s, 0, 30); out("held");', var_export($key, true))
            . self::childAwaitWaiter($key)
            . ($holdMore === null ? 'in();' : sprintf('usleep(%d);', $holdMore * 1000))
            . sprintf('RedisMutexLock::release(%s); out("released");', var_export($key, true)));
        $this->assertSame('held', $child->readLine());

        return $child;
    }

    public function testABlockThatWaitedSaysHowLongAndOneThatTimedOutToo(): void
    {
        $lock = $this->app['cache']->lock($this->name, 10);
        $child = $this->holder(null);
        $start = microtime(true);
        try {
            $lock->block(0.4);
            $this->fail('block(0.4) took a lock held for 3 s more');
        } catch (LockTimeoutException) {
        }
        $this->assertCount(1, $this->heard);
        $this->assertInstanceOf(LockWaitTimedOut::class, $this->heard[0]);
        $this->assertSame($this->name, $this->heard[0]->key, 'the name Cache::lock() was given, without the store prefix');
        $this->assertSame($lock->owner(), $this->heard[0]->owner);
        $this->assertGreaterThanOrEqual(380, $this->heard[0]->waitedMs);
        $this->assertLessThanOrEqual((int) ((microtime(true) - $start) * 1000) + 1, $this->heard[0]->waitedMs);
        $this->assertSame('waiters=1', $child->readLine());
        $child->send('release');
        $this->assertSame('released', $child->readLine());
        $child->wait();

        $this->heard = [];
        $child = $this->holder(300);
        $this->assertTrue($lock->block(10));
        $this->assertSame('waiters=1', $child->readLine());
        $this->assertSame('released', $child->readLine());
        $this->assertCount(1, $this->heard);
        $this->assertInstanceOf(LockAcquiredAfterWait::class, $this->heard[0]);
        $this->assertSame($this->name, $this->heard[0]->key);
        $this->assertGreaterThanOrEqual(250, $this->heard[0]->waitedMs, 'waited while the holder held on 300 ms after seeing it');
        $this->assertLessThan(10000, $this->heard[0]->waitedMs);
        $this->assertTrue($lock->release());
        $child->wait();
    }

    public function testNoWaitNoEvent(): void
    {
        $lock = $this->app['cache']->lock($this->name, 10);
        $this->assertTrue($lock->block(1), 'a free lock');
        $other = $this->app['cache']->lock($this->name, 10);
        $this->assertFalse($other->get(), 'get() does not wait');
        $this->assertTrue($lock->release());
        $this->assertSame([], $this->heard);
    }

    public function testALockThatExpiredOrWasTakenWhileHeldIsALostLease(): void
    {
        $key = $this->redisKey('app:' . $this->name);
        $lock = $this->app['cache']->lock($this->name, 1);
        $this->assertTrue($lock->get());
        $this->waitUntil(fn () => !$this->redis->exists($key), 3.0, 'the lock expires (1 s)');
        $this->assertFalse($lock->release());
        $this->assertCount(1, $this->heard);
        $this->assertInstanceOf(LockLeaseLost::class, $this->heard[0]);
        $this->assertSame($this->name, $this->heard[0]->key);
        $this->assertSame($lock->owner(), $this->heard[0]->owner);
        $this->assertFalse($lock->release(), 'released (as far as it knows): no second report');
        $this->assertCount(1, $this->heard);

        $this->heard = [];
        $renewed = $this->app['cache']->lock($this->name); // 0 seconds: a renewed lease
        $this->assertTrue($renewed->get());
        $this->redis->command('SET', $key, 'someone-else', 'PX', '30000');
        $this->assertFalse($renewed->refresh());
        $this->assertCount(1, $this->heard);
        $this->assertInstanceOf(LockLeaseLost::class, $this->heard[0]);
        $this->assertSame('someone-else', $this->redis->get($key), 'the new holder keeps it');

        $this->heard = [];
        $restored = $this->app['cache']->restoreLock($this->name, 'an-owner-that-never-held-it');
        $this->assertFalse($restored->release(), 'a restored lock that is not held: false');
        $this->assertSame([], $this->heard, 'not taken by that object: nothing lost');
    }

    public function testAJobThatLeftALockBehindIsReportedByNameAndItsLocksCarryItsLabel(): void
    {
        // A queue job as Laravel's Worker hands it to the events (its name and id).
        $job = new class () {
            public function resolveName(): string
            {
                return 'App\Jobs\Report';
            }

            public function getJobId(): string
            {
                return '42';
            }
        };
        $this->app['events']->dispatch(new JobProcessing('redis', $job));
        $this->assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        $this->assertTrue($this->app['cache']->lock($this->name . '-owner', 30)->get(), 'an owner-token lock: not a leak');
        if (method_exists(\RedisLock::class, 'describe')) {
            $this->assertSame('Report-42', \RedisLock::describe($this->name)['holders'][0]['label'], 'the job\'s lock says which job holds it');
        }
        $this->app['events']->dispatch(new JobProcessed('redis', $job));
        $this->assertCount(1, $this->heard);
        $this->assertInstanceOf(LocksLeaked::class, $this->heard[0]);
        $this->assertSame([$this->redisKey($this->name)], $this->heard[0]->keys);
        $this->assertSame('job App\Jobs\Report (42)', $this->heard[0]->unit);
        $this->assertSame(0, $this->heard[0]->failed);
        $this->assertFalse($this->redis->exists($this->redisKey($this->name)), 'released at the job\'s end');
        if (method_exists(\RedisLock::class, 'describe')) {
            $this->assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
            $this->assertNull(\RedisLock::describe($this->name)['holders'][0]['label'], 'after the job, no label');
            \RedisMutexLock::release($this->name);
        }
    }
}
