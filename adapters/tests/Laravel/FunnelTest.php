<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use Illuminate\Cache\Repository;
use Illuminate\Contracts\Redis\LimiterTimeoutException;
use RedisLock\Laravel\Funnel;
use RedisLock\Laravel\NativeLockStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;

/**
 * RedisLock\Laravel\Funnel: Laravel's funnel API (limit, releaseAfter, block,
 * sleep, then) on a RedisSemaphore (the key redis_lock.prefix . name), and the
 * redis_lock store's semaphoreFunnel().
 */
final class FunnelTest extends TestCase
{
    private function key(): string
    {
        return 'lock:' . $this->name;
    }

    /** Child code: a funnel of $limit on the test's name, its callback announcing itself and waiting for a line. */
    private function holderChild(int $limit, int $releaseAfter = 60): Child
    {
        $child = Child::run(sprintf('
            $result = RedisLock\Laravel\Funnel::for(%s)->limit(%d)->releaseAfter(%d)->block(0)->then(function () {
                out("inside");
                in();
                return "done";
            }, fn ($e) => "refused");
            out($result);
        ', var_export($this->name, true), $limit, $releaseAfter));
        $this->assertSame('inside', $child->readLine());

        return $child;
    }

    private function finish(Child $child): void
    {
        $child->send('go');
        $this->assertSame('done', $child->readLine());
        $this->assertSame(0, $child->wait(), $child->stderr());
    }

    public function testThenRunsTheCallbackUnderAPermitAndReturnsItsResult(): void
    {
        $result = Funnel::for($this->name)->limit(3)->releaseAfter(20)->block(0)->then(function () {
            $info = \RedisSemaphore::inspect($this->name);
            $this->assertSame(1, $info['used'], 'one permit while the callback runs');
            $this->assertSame(3, $info['limit']);
            $this->assertGreaterThan(19000, $info['holders'][0]['ttl'], 'releaseAfter(20): a lease of 20 s');
            $this->assertLessThanOrEqual(20000, $info['holders'][0]['ttl']);
            $this->assertSame('zset', $this->redis->command('TYPE', $this->key()));

            return 'hello';
        });
        $this->assertSame('hello', $result);
        $this->assertSame([], $this->redis->keys(), 'the permit is given back');
    }

    public function testLaravelsDefaults(): void
    {
        $funnel = Funnel::for($this->name);
        $this->assertSame($this->name, $funnel->name);
        $this->assertNull($funnel->maxLocks);
        $this->assertSame(60, $funnel->releaseAfter);
        $this->assertSame(3, $funnel->timeout);
        $this->assertSame(250, $funnel->sleep);
        $this->assertSame($funnel, $funnel->limit(2)->releaseAfter(5)->block(1)->sleep(10), 'fluent');
        $this->assertSame([2, 5, 1, 10], [$funnel->maxLocks, $funnel->releaseAfter, $funnel->timeout, $funnel->sleep]);
        $seconds = Funnel::for($this->name)->releaseAfter(new \DateInterval('PT30S'))->releaseAfter;
        $this->assertContains($seconds, [29, 30], 'a DateInterval, as Laravel\'s secondsUntil() (whole seconds of the clock)');

        $funnel->releaseAfter(7)->then(function () {
            $this->assertGreaterThan(6000, \RedisSemaphore::inspect($this->name)['holders'][0]['ttl']);
        });
        try {
            Funnel::for($this->name)->then(fn () => $this->fail('ran without a limit'));
            $this->fail('LogicException expected');
        } catch (\LogicException $e) {
            $this->assertSame('The funnel needs a limit of at least 1: call limit().', $e->getMessage());
        }
        $this->assertSame([], $this->redis->keys());
    }

    public function testTheLimitIsNeverExceededAcrossProcesses(): void
    {
        $limit = 2;
        $children = [];
        for ($i = 0; $i < 5; $i++) {
            $children[] = Child::run(sprintf('
                $redis = new RedisLock\Tests\Support\RespClient((int) getenv("REDIS_LOCK_TEST_PORT"));
                $max = 0;
                for ($round = 0; $round < 5; $round++) {
                    $inside = RedisLock\Laravel\Funnel::for(%s)->limit(%d)->releaseAfter(30)->block(20)->then(function () use ($redis) {
                        $inside = $redis->command("INCR", "inside");
                        usleep(40000);
                        $redis->command("DECR", "inside");
                        return $inside;
                    });
                    $max = max($max, $inside);
                }
                out("max=" . $max);
            ', var_export($this->name, true), $limit));
        }
        $used = [];
        $maxes = [];
        $deadline = microtime(true) + 30;
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
        $this->assertSame($limit, max($maxes), 'never more than the limit inside at once, and the limit was reached');
        $this->assertLessThanOrEqual($limit, max($used), 'never more permits held than the limit');
        $this->assertSame('0', $this->redis->get('inside'));
        $this->redis->command('DEL', 'inside');
        $this->assertSame([], $this->redis->keys());
    }

    public function testBlockTimesOutWithLaravelsException(): void
    {
        $holders = [$this->holderChild(2), $this->holderChild(2)];

        $start = microtime(true);
        try {
            Funnel::for($this->name)->limit(2)->block(1)->then(fn () => $this->fail('a third runner in a funnel of 2'));
            $this->fail('LimiterTimeoutException expected');
        } catch (LimiterTimeoutException $e) {
        }
        $elapsed = microtime(true) - $start;
        $this->assertGreaterThanOrEqual(0.95, $elapsed, 'waited block(1)');
        $this->assertLessThan(2.0, $elapsed);

        $start = microtime(true);
        $this->assertSame('busy', Funnel::for($this->name)->limit(2)->block(0)->then(fn () => 'ran', fn () => 'busy'));
        $this->assertLessThan(0.5, microtime(true) - $start, 'block(0): one attempt');

        $received = null;
        $result = Funnel::for($this->name)->limit(2)->block(0.3)->then(fn () => 'ran', function ($e) use (&$received) {
            $received = $e;

            return 'failed';
        });
        $this->assertSame('failed', $result);
        $this->assertInstanceOf(LimiterTimeoutException::class, $received, 'the failure callback receives the exception');

        $info = \RedisSemaphore::inspect($this->name);
        $this->assertSame(2, $info['used'], 'the holders\' permits untouched');
        $this->assertSame(0, $info['waiters'], 'the timed-out waiters left the queue');
        foreach ($holders as $holder) {
            $this->finish($holder);
        }
        $this->assertSame([], $this->redis->keys());
    }

    public function testAWaiterIsHandedThePermitAtTheRelease(): void
    {
        $holder = $this->holderChild(1);
        $waiter = Child::run(sprintf('
            out("waiting");
            $result = RedisLock\Laravel\Funnel::for(%s)->limit(1)->block(10)->sleep(5000)->then(function () {
                out("inside at " . microtime(true));
                return "waited";
            });
            out($result);
        ', var_export($this->name, true)));
        $this->assertSame('waiting', $waiter->readLine());
        $this->waitUntil(fn () => \RedisSemaphore::inspect($this->name)['waiters'] === 1, 5.0, 'the waiter queues');

        $released = microtime(true);
        $this->finish($holder);
        $line = $waiter->readLine();
        $this->assertMatchesRegularExpression('/^inside at \d+\.\d+$/', $line);
        $inside = (float) substr($line, 10);
        $this->assertLessThan(0.5, $inside - $released, 'woken by the release (sleep(5000) is not a polling interval here)');
        $this->assertSame('waited', $waiter->readLine());
        $this->assertSame(0, $waiter->wait(), $waiter->stderr());
        $this->assertSame([], $this->redis->keys());
    }

    public function testTheCallbacksExceptionGivesThePermitBack(): void
    {
        try {
            Funnel::for($this->name)->limit(1)->block(0)->then(function () {
                throw new \DomainException('fail');
            });
            $this->fail('the callback\'s exception must come through');
        } catch (\DomainException $e) {
            $this->assertSame('fail', $e->getMessage());
        }
        $this->assertSame([], $this->redis->keys(), 'released on the exception');
        $this->assertSame('recovered', Funnel::for($this->name)->limit(1)->block(0)->then(fn () => 'recovered'));

        $failed = null;
        $result = Funnel::for($this->name)->limit(1)->block(0)->then(function () {
            throw new LimiterTimeoutException();
        }, function ($e) use (&$failed) {
            $failed = $e;

            return 'failure callback';
        });
        $this->assertSame('failure callback', $result, 'as in Laravel: a LimiterTimeoutException of the callback goes to the failure callback');
        $this->assertInstanceOf(LimiterTimeoutException::class, $failed);
        $this->assertSame([], $this->redis->keys());
    }

    public function testAKilledHoldersPermitComesBackAfterReleaseAfter(): void
    {
        $holder = $this->holderChild(1, 1);
        $holder->kill();
        $this->assertSame(128 + SIGKILL, $holder->wait());

        $start = microtime(true);
        $this->assertSame('after the lease', Funnel::for($this->name)->limit(1)->block(5)->then(fn () => 'after the lease'));
        $this->assertLessThan(1.6, microtime(true) - $start, 'within releaseAfter(1) and a little');
        $this->assertSame([], $this->redis->keys());
    }

    public function testAnOutageIsARedisLockExceptionNotATimeout(): void
    {
        $server = $this->extraServer();
        $dsn = $server->dsn();
        $server->kill();
        $before = ini_get('redis_lock.server');
        try {
            Funnel::for($this->name, $dsn)->limit(1)->block(1)->then(fn () => $this->fail('ran'), fn () => $this->fail('a failure callback for an outage'));
            $this->fail('RedisLockException expected');
        } catch (\RedisLockException $e) {
            $this->assertStringContainsString(sprintf('127.0.0.1:%d', $server->port), $e->getMessage());
        }
        $this->assertSame($before, ini_get('redis_lock.server'));
    }

    public function testOnAnotherServer(): void
    {
        $server = $this->extraServer();
        $result = Funnel::for($this->name, $server->dsn())->limit(1)->then(function () use ($server) {
            $this->assertSame('zset', $server->client()->command('TYPE', $this->key()));
            $this->assertSame([], $this->redis->keys(), 'nothing on the default server');

            return 'there';
        });
        $this->assertSame('there', $result);
        $this->assertSame([], $server->client()->keys());
    }

    public function testTheStoresSemaphoreFunnel(): void
    {
        $store = new NativeLockStore(null, 'app:');
        $repository = new Repository($store);
        $funnel = $repository->semaphoreFunnel($this->name);
        $this->assertInstanceOf(Funnel::class, $funnel);
        $this->assertSame('app:' . $this->name, $funnel->name, 'the store\'s prefix');

        $result = $funnel->limit(1)->block(0)->then(function () use ($repository) {
            $this->assertSame('zset', $this->redis->command('TYPE', 'lock:app:' . $this->name));
            $timeout = class_exists(\Illuminate\Cache\Limiters\LimiterTimeoutException::class)
                ? \Illuminate\Cache\Limiters\LimiterTimeoutException::class
                : LimiterTimeoutException::class;
            try {
                $repository->semaphoreFunnel($this->name)->limit(1)->block(0)->then(fn () => $this->fail('two in a funnel of one'));
                $this->fail('LimiterTimeoutException expected');
            } catch (\Exception $e) {
                $this->assertSame($timeout, get_class($e), 'Cache::funnel()\'s exception where Laravel has it (12+)');
            }

            return 'inner';
        });
        $this->assertSame('inner', $result);
        $this->assertSame([], $this->redis->keys());
    }
}
