<?php
/**
 * symfony/lock 5.4 (Debian php-symfony-lock): a LockFactory over
 * Store\RedisStore over one persistent \Redis client.
 *
 * Note: symfony's RedisStore keeps each lock as a sorted set (shared/read
 * locks) and every operation is a full EVAL of a Lua script. With a TTL,
 * Lock::acquire() is save() + putOffExpiration() and Lock::release() is
 * delete() + exists(): four scripts, four round trips per cycle, where the
 * others send two. We time acquire()+release() as an application calls them;
 * exists()/putOffExpiration() are not timed on their own.
 */

declare(strict_types=1);

namespace Bench;

use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\RedisStore;

require_once 'Symfony/Component/Lock/autoload.php';

return fn (array $servers): Contender => new class($servers[0]['host'], $servers[0]['port']) implements Contender {
    private const KEY = 'bench:symfony';

    use SymfonyLockCycle;

    private LockFactory $factory;

    public function __construct(string $host, int $port)
    {
        $redis = new \Redis();
        $redis->pconnect($host, $port, 1.0);
        $this->factory = new LockFactory(new RedisStore($redis));
    }
};
