<?php

declare(strict_types=1);

namespace RedisLock\Tests\Upstream\Symfony\Semaphore;

use RedisLock\Symfony\RedisSemaphoreStore;
use Symfony\Component\Semaphore\PersistingStoreInterface;

/**
 * symfony/semaphore's own store tests (AbstractStoreTestCase, vendored next to
 * this file) against RedisLock\Symfony\RedisSemaphoreStore on the suite's
 * throwaway redis-server, as symfony runs them against its RedisStore
 * (Tests/Store/RedisStoreTest.php through AbstractRedisStoreTestCase). Skipped
 * where symfony/semaphore is not installed.
 */
final class RedisSemaphoreStoreTest extends AbstractStoreTestCase
{
    protected function setUp(): void
    {
        if (!interface_exists(PersistingStoreInterface::class)) {
            $this->markTestSkipped('symfony/semaphore is not installed (Debian: php-symfony-semaphore)');
        }
        parent::setUp();
    }

    protected function getStore(): PersistingStoreInterface
    {
        return new RedisSemaphoreStore();
    }
}
