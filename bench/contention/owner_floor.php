<?php
/**
 * Not a usable lock: the least an owner-checked FIFO lock with a TTL costs
 * when Redis hands it over, to show where RedisMutexLock's hand-off spends
 * what it costs beyond the token floor (docs/contention-costs.md).
 *
 * acquire() sends, in one write, a script that takes the lock (SET NX PX) or
 * puts the caller at the back of a list of waiters, and a BLPOP on the
 * caller's own wake-up list. release() is one script that checks the owner
 * and gives the lock to the first waiter, pushing onto its list. Two round
 * trips per contended section, as the token floor, but scripts instead of
 * plain commands. No check that a waiter still lives (one that died is handed
 * the lock for its whole TTL), no type checks, no timeouts, no nesting.
 *
 * owner_confirm.php is the same lock with RedisMutexLock's third round trip:
 * the hand-off is a grant of 100 ms that the woken waiter confirms (a script
 * that extends it to the TTL) before it enters. phpredis, one persistent
 * connection per process.
 */

declare(strict_types=1);

namespace Bench;

if (!class_exists(OwnerFloor::class)) {
    final class OwnerFloor implements BlockingContender
    {
        private const TTL_MS = 10000;
        private const GRANT_MS = 100;
        private const JOIN = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then redis.call('RPUSH', KEYS[3], 'a') return 1 end "
            . "redis.call('RPUSH', KEYS[2], ARGV[1]) return 0";
        private const CONFIRM = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end return 0";
        private const RELEASE = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end local n = redis.call('LPOP', KEYS[2]) "
            . "if n then redis.call('SET', KEYS[1], n, 'PX', ARGV[2]) redis.call('RPUSH', KEYS[1] .. ':w:' .. n, 'h') "
            . "else redis.call('DEL', KEYS[1]) end return 1";

        private \Redis $redis;
        /** @var array<string, string> script => SHA1 */
        private array $sha = [];
        private string $key = '';
        private string $me = '';

        public function __construct(string $host, int $port, private bool $confirm)
        {
            $this->redis = new \Redis();
            $this->redis->pconnect($host, $port, 1.0);
            $this->redis->setOption(\Redis::OPT_READ_TIMEOUT, -1);
            foreach ([self::JOIN, self::CONFIRM, self::RELEASE] as $script) {
                $this->sha[$script] = $this->redis->script('load', $script);
            }
        }

        public function redisKey(string $key): string
        {
            return $key;
        }

        public function acquire(string $key): void
        {
            $this->key = $key;
            $this->me = bin2hex(random_bytes(16));
            $wake = "$key:w:{$this->me}";
            $replies = $this->redis->multi(\Redis::PIPELINE)
                ->evalSha($this->sha[self::JOIN], [$key, "$key:q", $wake, $this->me, self::TTL_MS], 3)
                ->blPop([$wake], CONTENTION_TIMEOUT_SECONDS)
                ->exec();
            $popped = $replies[1] ?? null;
            is_array($popped) && $popped !== [] || fail('no hand-off within ' . CONTENTION_TIMEOUT_SECONDS . ' s');
            // 'a': taken by JOIN itself; 'h': handed over by a release.
            if ($this->confirm && $popped[1] === 'h') {
                $this->redis->evalSha($this->sha[self::CONFIRM], [$key, $this->me, self::TTL_MS], 1) === 1 || fail('the grant ran out before the confirmation');
            }
        }

        public function release(): void
        {
            $grant = $this->confirm ? self::GRANT_MS : self::TTL_MS;
            $this->redis->evalSha($this->sha[self::RELEASE], [$this->key, "{$this->key}:q", $this->me, $grant], 2) === 1 || fail('not the owner at release');
        }
    }
}

return fn (string $host, int $port): BlockingContender => new OwnerFloor($host, $port, false);
