<?php

declare(strict_types=1);

namespace RedisLock\Tests\Support;

use PHPUnit\Framework\TestCase as PHPUnitTestCase;

abstract class TestCase extends PHPUnitTestCase
{
    protected RespClient $redis;
    protected string $name;
    /** @var array<string, string|false> */
    private array $ini = [];
    /** @var list<ThrowawayRedis> */
    private array $extraServers = [];

    protected function setUp(): void
    {
        $this->redis = new RespClient((int) getenv('REDIS_LOCK_TEST_PORT'));
        $this->redis->command('FLUSHALL');
        foreach (['redis_lock.server', 'redis_lock.prefix', 'redis_lock.read_timeout', 'redis_lock.connect_timeout', 'redis_lock.auto_renew'] as $setting) {
            $this->ini[$setting] = ini_get($setting);
        }
        $this->name = 'res-' . bin2hex(random_bytes(4));
    }

    protected function tearDown(): void
    {
        foreach ($this->ini as $setting => $value) {
            ini_set($setting, (string) $value);
        }
        foreach ($this->extraServers as $server) {
            $server->kill();
        }
        $this->extraServers = [];
    }

    protected function mainServer(): string
    {
        return 'redis://127.0.0.1:' . getenv('REDIS_LOCK_TEST_PORT');
    }

    /** A second, throwaway redis-server, killed at the end of the test. */
    protected function extraServer(): ThrowawayRedis
    {
        return $this->extraServers[] = ThrowawayRedis::start();
    }

    /** The Redis key of a lock name (redis_lock.prefix . name). */
    protected function redisKey(string $name): string
    {
        return ini_get('redis_lock.prefix') . $name;
    }

    /** Seconds until $condition() is true; fails after $timeout. */
    protected function waitUntil(callable $condition, float $timeout, string $what): float
    {
        $start = microtime(true);
        while (!$condition()) {
            if (microtime(true) - $start > $timeout) {
                $this->fail("$what: not within $timeout s");
            }
            usleep(10000);
        }

        return microtime(true) - $start;
    }

    /**
     * Child code: wait (up to 10 s) until someone waits in the queue of $name,
     * then write "waiters=N".
     */
    protected static function childAwaitWaiter(string $name): string
    {
        return sprintf('
            $deadline = microtime(true) + 10;
            do { $w = RedisMutexLock::inspect(%s)["waiters"]; } while ($w < 1 && microtime(true) < $deadline && usleep(5000) === null);
            out("waiters=" . $w);', var_export($name, true));
    }
}
