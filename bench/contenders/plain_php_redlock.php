<?php
/**
 * The pure-PHP Redlock users copy today (bench/reference/RedLock.php, the
 * ronnylt/redlock-php style class, flaws kept on purpose) over phpredis, with
 * the same servers as RedLock given as [host, port, timeout]: it asks the
 * nodes one after another, so lock() is N round trips and unlock() N more.
 * Its unlock() returns nothing, so only lock() can be checked per cycle (the
 * worker checks once, before timing, that the key really goes away).
 */

declare(strict_types=1);

namespace Bench;

require_once __DIR__ . '/../reference/RedLock.php';

return fn (array $servers): Contender => new class($servers) implements Contender, OnNodes {
    private const KEY = 'bench:plain_php_redlock';

    use RedlockArrayCycle;

    private Reference\RedLock $redlock;

    public function __construct(private array $servers)
    {
        $this->redlock = new Reference\RedLock(array_map(fn (array $s) => [$s['host'], $s['port'], 1.0], $servers));
    }

    public function release(): void
    {
        $this->redlock->unlock($this->lock);
        $this->lock = false;
    }
};
