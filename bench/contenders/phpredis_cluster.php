<?php
/**
 * A careful hand-written lock on phpredis RedisCluster (Debian php-redis),
 * which routes each key to its master: SET key token NX PX, then the Lua
 * compare-and-delete by EVALSHA, sent again as EVAL when that master answers
 * NOSCRIPT (once per master). The same commands RedisMutexLock sends; keys
 * as in redis_mutex_lock_cluster.php, under bench:phpredis_cluster.
 */

declare(strict_types=1);

namespace Bench;

return fn (array $servers): Contender => new class($servers) implements Contender, OnCluster {
    use SpreadKeys;

    private const KEY = 'bench:phpredis_cluster';
    private const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

    private \RedisCluster $r;
    private string $sha;
    private string $token = '';

    public function __construct(array $servers)
    {
        $this->r = new \RedisCluster(null, array_map(fn (array $s) => "{$s['host']}:{$s['port']}", $servers), 1.0, 1.0, true);
        $this->sha = sha1(self::RELEASE);
    }

    public function redisKey(): string
    {
        return $this->key();
    }

    public function acquire(): void
    {
        $this->token = random_bytes(16);
        $this->r->set($this->key(), $this->token, ['nx', 'px' => TTL_SECONDS * 1000]) === true
            || fail('SET NX PX did not take the lock');
    }

    public function release(): void
    {
        $args = [$this->key(), $this->token];
        $deleted = $this->r->evalSha($this->sha, $args, 1);
        if ($deleted === false && str_starts_with((string) $this->r->getLastError(), 'NOSCRIPT')) {
            $this->r->clearLastError();
            $deleted = $this->r->eval(self::RELEASE, $args, 1);
        }
        $deleted === 1 || fail('the compare-and-delete did not delete the lock');
        $this->nextKey();
    }
};
