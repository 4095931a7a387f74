<?php
/**
 * Not a usable semaphore: the floor of any FIFO semaphore that Redis hands
 * over, bench/contention/token_floor.php with N tokens. N = <permits> tokens
 * in one list; a take is BLPOP (Redis serves blocked clients in the order
 * they blocked), a give-back RPUSH: one round trip each, the next waiter
 * woken straight from it, nothing else. No TTL, no owner check, no crash
 * safety (a holder that dies takes its token with it). phpredis, one
 * persistent connection per process.
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port, int $n): SharedContender => new class($host, $port, $n) implements SharedContender {
    private \Redis $redis;
    /** @var array<string, true> */
    private array $seen = [];

    public function __construct(string $host, int $port, private int $permits)
    {
        $this->redis = new \Redis();
        $this->redis->pconnect($host, $port, 1.0);
        $this->redis->setOption(\Redis::OPT_READ_TIMEOUT, -1);
    }

    public function hold(string $key, string $mode, callable $section): void
    {
        $list = "$key:tokens";
        // The first process to come puts the tokens in.
        if (!isset($this->seen[$key]) && $this->redis->set("$key:init", '1', ['nx'])) {
            $this->redis->rPush($list, ...array_fill(0, $this->permits, 't'));
        }
        $this->seen[$key] = true;
        $this->redis->blPop([$list], CONTENTION_TIMEOUT_SECONDS) !== [] || fail('no token within ' . CONTENTION_TIMEOUT_SECONDS . ' s');
        $section();
        $this->redis->rPush($list, 't') <= $this->permits || fail('more tokens than permits at release');
    }
};
