<?php
/**
 * symfony/lock 5.4 (Debian php-symfony-lock): a LockFactory over
 * Store\RedisStore over one persistent \Redis client, as
 * bench/contenders/symfony.php builds it; Lock::acquire(true) blocks. The
 * 5.4 RedisStore is no BlockingStoreInterface, so Lock::acquire(true) retries
 * save() every 100 ± 10 ms, with no deadline of its own; with a TTL it then
 * calls refresh() (a second script). release() is delete() + exists().
 */

declare(strict_types=1);

namespace Bench;

use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\LockInterface;
use Symfony\Component\Lock\Store\RedisStore;

require_once 'Symfony/Component/Lock/autoload.php';

return fn (string $host, int $port): BlockingContender => new class($host, $port) implements BlockingContender {
    private LockFactory $factory;
    private ?LockInterface $lock = null;

    public function __construct(string $host, int $port)
    {
        $redis = new \Redis();
        $redis->pconnect($host, $port, 1.0);
        $this->factory = new LockFactory(new RedisStore($redis));
    }

    public function redisKey(string $key): string
    {
        return $key;
    }

    public function acquire(string $key): void
    {
        $this->lock = $this->factory->createLock($key, CONTENTION_TTL_SECONDS);
        $this->lock->acquire(true) || fail('Lock::acquire(true) returned false');
    }

    public function release(): void
    {
        $this->lock->release(); // throws LockReleasingException on failure
        $this->lock = null;
    }
};
