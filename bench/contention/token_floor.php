<?php
/**
 * Not a usable lock: the floor of any FIFO lock that Redis hands over. One
 * token in a list; acquire() is BLPOP on it (Redis serves blocked clients
 * in the order they blocked), release() pushes it back: one round trip per
 * release, the next waiter woken straight from it, nothing else. No TTL, no
 * owner check, no crash safety (a holder that dies takes the token with it).
 * It shows what this machine allows a Redis hand-off at all; never in the
 * default list (BENCH_CONTENTION_IMPLS=token_floor). phpredis, one
 * persistent connection per process.
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port): BlockingContender => new class($host, $port) implements BlockingContender {
    private \Redis $redis;
    private ?string $list = null;
    /** @var array<string, true> */
    private array $seen = [];

    public function __construct(string $host, int $port)
    {
        $this->redis = new \Redis();
        $this->redis->pconnect($host, $port, 1.0);
        $this->redis->setOption(\Redis::OPT_READ_TIMEOUT, -1);
    }

    public function redisKey(string $key): string
    {
        return "$key:held"; // never exists: the token's list stays, by design
    }

    public function acquire(string $key): void
    {
        $list = "$key:token";
        // The first process to come puts the one token in.
        if (!isset($this->seen[$key]) && $this->redis->set("$key:init", '1', ['nx'])) {
            $this->redis->rPush($list, 't');
        }
        $this->redis->blPop([$list], CONTENTION_TIMEOUT_SECONDS) !== [] || fail('no token within ' . CONTENTION_TIMEOUT_SECONDS . ' s');
        $this->seen[$key] = true;
        $this->list = $list;
    }

    public function release(): void
    {
        $this->redis->rPush($this->list, 't') === 1 || fail('the token list was not empty at release');
    }
};
