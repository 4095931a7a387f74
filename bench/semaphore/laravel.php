<?php
/**
 * Laravel 8's funnel (Debian php-illuminate-redis), as applications write it:
 *
 *     Redis::funnel($key)->limit(<permits>)->releaseAfter(10)->block(30)->then($section, $failed);
 *
 * on a RedisManager with the phpredis driver and a persistent connection
 * (built as laravel_store() in lib.php builds it). That is
 * Illuminate\Redis\Limiters\ConcurrencyLimiter: one key per slot
 * (<key>1 … <key>N, SET EX by a script that scans them with MGET), retried
 * every 250 ms while all slots are taken, the slot freed by a compare-and-
 * delete script after the callback.
 */

declare(strict_types=1);

namespace Bench;

use Illuminate\Redis\Connections\Connection;

return fn (string $host, int $port, int $n): SharedContender => new class($host, $port, $n) implements SharedContender {
    private Connection $redis;

    public function __construct(string $host, int $port, private int $permits)
    {
        require_once 'Illuminate/Redis/autoload.php';
        $manager = new \Illuminate\Redis\RedisManager(null, 'phpredis', [
            'default' => ['host' => $host, 'port' => $port, 'timeout' => 1.0, 'persistent' => true],
        ]);
        $this->redis = $manager->connection();
    }

    public function hold(string $key, string $mode, callable $section): void
    {
        $this->redis->funnel($key)->limit($this->permits)->releaseAfter(CONTENTION_TTL_SECONDS)
            ->block(CONTENTION_TIMEOUT_SECONDS)
            ->then($section, fn () => fail('funnel: no slot within ' . CONTENTION_TIMEOUT_SECONDS . ' s'));
    }
};
