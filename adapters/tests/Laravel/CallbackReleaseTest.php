<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use RedisLock\Internal\ShutdownRelease;
use RedisLock\Laravel\Funnel;
use RedisLock\Laravel\NativeLock;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;

/**
 * get($callback), block($seconds, $callback) and Funnel::then() release the
 * lock also when the request ends inside the callback (fatal error, exit()),
 * from a shutdown function; get() without a callback leaves it to its TTL.
 * adapters/e2e/laravel_fatal_in_callback.php has the rest.
 */
final class CallbackReleaseTest extends TestCase
{
    private static function pending(): int
    {
        return count((new \ReflectionProperty(ShutdownRelease::class, 'pending'))->getValue());
    }

    private const EXHAUST_MEMORY = 'ini_set("memory_limit", (string) (memory_get_usage(true) + 4 * 1024 * 1024)); for ($chain = null; true; $chain = $link) { $link = new stdClass(); $link->next = $chain; }';

    public function testMemoryLimitInsideGetCallbackReleasesTheLock(): void
    {
        $this->assertReleasedWhenTheRequestEndsInside('$lock->get($callback);', self::EXHAUST_MEMORY, 255);
    }

    public function testMaxExecutionTimeInsideBlockCallbackReleasesTheLock(): void
    {
        $this->assertReleasedWhenTheRequestEndsInside('$lock->block(1, $callback);', 'set_time_limit(1); while (true) {}', 255);
    }

    public function testExitInsideGetCallbackReleasesTheLock(): void
    {
        $this->assertReleasedWhenTheRequestEndsInside('$lock->get($callback);', 'exit(3);', 3);
    }

    private function assertReleasedWhenTheRequestEndsInside(string $take, string $end, int $exit): void
    {
        $child = Child::run(sprintf('
            $lock = new RedisLock\Laravel\NativeLock(%s, 60);
            $callback = function () { out("in"); in(); %s };
            %s', var_export($this->name, true), $end, $take));
        $this->assertSame('in', $child->readLine());
        $this->assertGreaterThan(55000, $this->redis->pttl($this->redisKey($this->name)));
        $child->send('end');
        $this->assertSame($exit, $child->wait());
        $this->assertSame([], $this->redis->keys('*'), 'released at the end of the process, not after its 60 s');
    }

    public function testGetWithoutCallbackIsLeftToItsTtl(): void
    {
        $child = Child::run(sprintf('
            $lock = new RedisLock\Laravel\NativeLock(%s, 60);
            out($lock->get() ? "held" : "refused");
            in();
            set_time_limit(1);
            while (true) {}', var_export($this->name, true)));
        $this->assertSame('held', $child->readLine());
        $child->send('end');
        $this->assertSame(255, $child->wait());
        $this->assertGreaterThan(55000, $this->redis->pttl($this->redisKey($this->name)), 'as Laravel\'s RedisStore: until its TTL');
    }

    public function testFunnelPermitIsGivenBackWhenTheRequestEndsInsideTheCallback(): void
    {
        $child = Child::run(sprintf('
            RedisLock\Laravel\Funnel::for(%s)->limit(1)->releaseAfter(60)->then(function () { out("in"); in(); set_time_limit(1); while (true) {} });',
            var_export($this->name, true)));
        $this->assertSame('in', $child->readLine());
        $this->assertNotSame([], $this->redis->keys('*'));
        $child->send('end');
        $this->assertSame(255, $child->wait());
        $this->assertSame([], $this->redis->keys('*'));
    }

    public function testCallbacksLeaveNoEntry(): void
    {
        $before = self::pending();
        $lock = new NativeLock($this->name, 30);
        $this->assertSame('ran', $lock->get(fn () => 'ran'));
        $this->assertSame('ran', $lock->block(1, fn () => 'ran'));
        try {
            $lock->get(static function (): void {
                throw new \RuntimeException('thrown');
            });
            $this->fail('the exception goes through');
        } catch (\RuntimeException $e) {
            $this->assertSame('thrown', $e->getMessage());
        }
        $this->assertSame('ran', Funnel::for($this->name . '-funnel')->limit(1)->then(fn () => 'ran'));
        $this->assertTrue($lock->get());
        $this->assertSame($before, self::pending(), 'none after the callbacks, none for get() without one');
        $lock->release();
        $this->assertSame([], $this->redis->keys('*'));
    }

    public function testAnEntryExistsWhileTheCallbackRuns(): void
    {
        $before = self::pending();
        $seen = (new NativeLock($this->name, 30))->get(fn () => self::pending());
        $this->assertSame($before + 1, $seen);
        $this->assertSame($before, self::pending());
    }
}
