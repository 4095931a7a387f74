<?php
/**
 * RedLock (this extension) over every server of the scenario, given as
 * [host, port] entries: lock() sends SET NX PX to all nodes at once and unlock()
 * the compare-and-delete to all at once, so each costs one round trip (the
 * slowest node of the majority), not N. The extension keeps its connections
 * open across calls. Uncontended: every lock() must return the lock array,
 * every unlock() true.
 */

declare(strict_types=1);

namespace Bench;

return fn (array $servers): Contender => new class($servers) implements Contender, OnNodes {
    private const KEY = 'bench:redlock';

    use RedlockArrayCycle;

    private \RedLock $redlock;

    public function __construct(private array $servers)
    {
        if (!extension_loaded('redis_lock')) {
            fail('the redis_lock extension is not loaded');
        }
        $this->redlock = new \RedLock(array_map(fn (array $s) => [$s['host'], $s['port']], $servers));
    }

    public function release(): void
    {
        $this->redlock->unlock($this->lock) === true || fail('RedLock::unlock() did not return true');
        $this->lock = false;
    }
};
