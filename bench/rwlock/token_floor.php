<?php
/**
 * Not a usable lock: the floor of a fair read/write lock that Redis hands
 * over, in the spirit of bench/contention/token_floor.php. N tokens (N = the
 * number of processes, so that readers alone never wait) in the list
 * <key>:tokens and one writers' token in <key>:writer. A read is BLPOP of
 * one token and RPUSH of it back. A write is BLPOP of the writers' token
 * (writers queue there one at a time), then BLMPOP … COUNT until it holds
 * all N tokens, then one RPUSH of the N tokens and one of the writers' token.
 * Redis serves blocked clients in the order they blocked, so once a writer
 * has emptied the list, readers that come later queue behind it: FIFO hand-
 * off, no starvation. No TTL, no owner check, no crash safety (a holder that
 * dies takes its tokens with it). BLMPOP needs Redis 7.0+. phpredis, one
 * persistent connection per process.
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port, int $n): SharedContender => new class($host, $port, $n) implements SharedContender {
    private \Redis $redis;
    /** @var array<string, true> */
    private array $seen = [];

    public function __construct(string $host, int $port, private int $n)
    {
        $this->redis = new \Redis();
        $this->redis->pconnect($host, $port, 1.0);
        $this->redis->setOption(\Redis::OPT_READ_TIMEOUT, -1);
    }

    public function hold(string $key, string $mode, callable $section): void
    {
        $tokens = "$key:tokens";
        $writer = "$key:writer";
        // The first process to come puts the tokens in.
        if (!isset($this->seen[$key]) && $this->redis->set("$key:init", '1', ['nx'])) {
            $this->redis->rPush($tokens, ...array_fill(0, $this->n, 't'));
            $this->redis->rPush($writer, 'w');
        }
        $this->seen[$key] = true;
        $t = CONTENTION_TIMEOUT_SECONDS;
        if ($mode === 'write') {
            $this->redis->blPop([$writer], $t) !== [] || fail("no writers' token within $t s");
            for ($have = 0; $have < $this->n; $have += count($got[1])) {
                $got = $this->redis->rawCommand('BLMPOP', (string) $t, '1', $tokens, 'LEFT', 'COUNT', (string) ($this->n - $have));
                is_array($got) && isset($got[1]) && is_array($got[1]) || fail("BLMPOP: not all tokens within $t s (" . json_encode($got) . ')');
            }
            $section();
            $this->redis->rPush($tokens, ...array_fill(0, $this->n, 't'));
            $this->redis->rPush($writer, 'w') === 1 || fail("the writers' list was not empty at release");
        } else {
            $this->redis->blPop([$tokens], $t) !== [] || fail("no token within $t s");
            $section();
            $this->redis->rPush($tokens, 't');
        }
    }
};
