<?php
/**
 * symfony/lock 5.4 (Debian php-symfony-lock) shared locks: a LockFactory
 * over Store\RedisStore (a SharedLockStoreInterface) over one persistent
 * \Redis client, as bench/contention/symfony.php builds it;
 * Lock::acquireRead(true) for a read, Lock::acquire(true) for a write. The
 * 5.4 RedisStore is no blocking store, so both retry every 100 ± 10 ms with
 * no deadline of their own, then call refresh() (the TTL is set). A write
 * waits for the readers to drain; readers that keep arriving are let in
 * meanwhile (no queue). release() is delete() + exists().
 */

declare(strict_types=1);

namespace Bench;

use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\RedisStore;

require_once 'Symfony/Component/Lock/autoload.php';

return fn (string $host, int $port, int $n): SharedContender => new class($host, $port) implements SharedContender {
    private LockFactory $factory;

    public function __construct(string $host, int $port)
    {
        $redis = new \Redis();
        $redis->pconnect($host, $port, 1.0);
        $this->factory = new LockFactory(new RedisStore($redis));
    }

    public function hold(string $key, string $mode, callable $section): void
    {
        $lock = $this->factory->createLock($key, CONTENTION_TTL_SECONDS);
        $taken = $mode === 'write' ? $lock->acquire(true) : $lock->acquireRead(true);
        $taken === true || fail("Lock::acquire" . ($mode === 'write' ? '' : 'Read') . '(true) returned false');
        $section();
        $lock->release(); // throws LockReleasingException on failure
    }
};
