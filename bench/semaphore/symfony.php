<?php
/**
 * symfony/semaphore 5.4 (Debian php-symfony-semaphore): a SemaphoreFactory
 * over Store\RedisStore over one persistent \Redis client;
 * createSemaphore($key, <permits>, 1, 10.0) per acquisition. Its
 * acquire() never waits (symfony/semaphore has no blocking acquire), so this
 * is the retry loop its users write, with symfony/lock's own blocking
 * interval (100 ± 10 ms):
 *
 *     while (!$semaphore->acquire()) usleep((100 + random_int(-10, 10)) * 1000);
 *
 * (plus a 30 s deadline, so that a broken run fails instead of hanging).
 * release() is one script (ZREM from both sorted sets).
 */

declare(strict_types=1);

namespace Bench;

use Symfony\Component\Semaphore\SemaphoreFactory;
use Symfony\Component\Semaphore\Store\RedisStore;

require_once 'Symfony/Component/Semaphore/autoload.php';

return fn (string $host, int $port, int $n): SharedContender => new class($host, $port, $n) implements SharedContender {
    private SemaphoreFactory $factory;

    public function __construct(string $host, int $port, private int $permits)
    {
        $redis = new \Redis();
        $redis->pconnect($host, $port, 1.0);
        $this->factory = new SemaphoreFactory(new RedisStore($redis));
    }

    public function hold(string $key, string $mode, callable $section): void
    {
        $semaphore = $this->factory->createSemaphore($key, $this->permits, 1, (float) CONTENTION_TTL_SECONDS);
        $deadline = hrtime(true) + CONTENTION_TIMEOUT_SECONDS * 1_000_000_000;
        while (!$semaphore->acquire()) {
            hrtime(true) < $deadline || fail('not acquired within ' . CONTENTION_TIMEOUT_SECONDS . ' s');
            usleep((100 + random_int(-10, 10)) * 1000);
        }
        $section();
        $semaphore->release(); // throws on failure
    }
};
