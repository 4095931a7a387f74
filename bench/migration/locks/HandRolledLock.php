<?php
/**
 * The hand-rolled lock many PHP code bases carry (and whose signature
 * RedisMutexLock::lock() keeps): SET key 1 NX EX, and on refusal usleep($sleep)
 * and try again until $timeout seconds have passed; release() is a plain DEL.
 * The value is the same "1" in every process, so nothing checks ownership.
 * Raw RESP over its own socket: no phpredis needed.
 */

declare(strict_types=1);

namespace Bench\Migration;

final class HandRolledLock implements MixLock
{
    private \RespClient $redis;
    private string $key = '';

    public function __construct(private Options $o)
    {
        $this->redis = new \RespClient("tcp://{$o->host}:{$o->port}");
    }

    public static function label(Options $o): string
    {
        return sprintf('SET NX EX %d, retried every %g ms; DEL', $o->ttl, $o->sleep / 1000);
    }

    public static function unavailable(Options $o): ?string
    {
        return null;
    }

    public function acquire(string $key): bool
    {
        $this->key = $key;
        return $this->lock($key, $this->o->timeout, $this->o->ttl, $this->o->sleep);
    }

    public function release(): bool
    {
        return $this->redis->call('DEL', $this->key) === 1;
    }

    /** The common pattern, as found in the wild. */
    private function lock(string $key, float $timeout, int $lockSecond, int $sleep = 100000): bool
    {
        $start = microtime(true);
        do {
            if ($this->redis->call('SET', $key, '1', 'NX', 'EX', $lockSecond) === 'OK') {
                return true;
            }
            usleep($sleep);
        } while (microtime(true) - $start < $timeout);
        return false;
    }
}
