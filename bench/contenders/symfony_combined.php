<?php
/**
 * symfony/lock 5.4 (Debian php-symfony-lock) as its documentation sets up
 * Redlock: a LockFactory over Store\CombinedStore of one Store\RedisStore per
 * server (each on its own persistent \Redis client) with
 * Strategy\ConsensusStrategy (more than half must agree).
 *
 * CombinedStore asks its stores one after another, and each RedisStore
 * operation is an EVAL of a Lua script: Lock::acquire() with a TTL is
 * save() + putOffExpiration() (N + N round trips), Lock::release() is
 * delete() + exists() (N, then 3 of 5 until the consensus is known to fail):
 * 18 round trips per cycle over 5 servers.
 */

declare(strict_types=1);

namespace Bench;

use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\CombinedStore;
use Symfony\Component\Lock\Store\RedisStore;
use Symfony\Component\Lock\Strategy\ConsensusStrategy;

require_once 'Symfony/Component/Lock/autoload.php';

return fn (array $servers): Contender => new class($servers) implements Contender, OnNodes {
    private const KEY = 'bench:symfony_combined';

    use SymfonyLockCycle;

    private LockFactory $factory;

    public function __construct(private array $servers)
    {
        $stores = [];
        foreach ($servers as $s) {
            $redis = new \Redis();
            $redis->pconnect($s['host'], $s['port'], 1.0);
            $stores[] = new RedisStore($redis);
        }
        $this->factory = new LockFactory(new CombinedStore($stores, new ConsensusStrategy()));
    }


    public function nodes(): int
    {
        return count($this->servers);
    }
};
