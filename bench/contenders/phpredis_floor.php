<?php
/**
 * The floor: the same two commands RedisMutexLock sends, written by hand on
 * phpredis (Debian php-redis): SET key token NX PX, then a Lua
 * compare-and-delete sent with EVAL. Two round trips per cycle, nothing else.
 */

declare(strict_types=1);

namespace Bench;

return fn (array $servers): Contender => new class($servers[0]['host'], $servers[0]['port']) implements Contender {
    private const KEY = 'bench:phpredis_floor';
    private const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

    private \Redis $r;
    private string $token = '';

    public function __construct(string $host, int $port)
    {
        $this->r = new \Redis();
        $this->r->pconnect($host, $port, 1.0);
    }

    public function redisKey(): string
    {
        return self::KEY;
    }

    public function acquire(): void
    {
        $this->token = random_bytes(16);
        $this->r->set(self::KEY, $this->token, ['nx', 'px' => TTL_SECONDS * 1000]) === true
            || fail('SET NX PX did not take the lock');
    }

    public function release(): void
    {
        $this->r->eval(self::RELEASE, [self::KEY, $this->token], 1) === 1
            || fail('the compare-and-delete did not delete the lock');
    }
};
