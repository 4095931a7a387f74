<?php
/**
 * symfony/lock's own RedisStore (Debian php-symfony-lock) on a phpredis
 * client (php-redis), else a predis one (php-predis): LockFactory
 * createLock($key, $ttl)->acquire(true). Its Redis key is the resource name
 * itself. That store cannot block, so acquire(true) retries every 100 ± 10 ms,
 * with no deadline (5.4 to 7.x): this worker never reports a timeout; a wait
 * that does not end shows as a worker run.php had to stop.
 */

declare(strict_types=1);

namespace Bench\Migration;

use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\RedisStore;

require_once __DIR__ . '/FrameworkLocks.php';

final class SymfonyLock implements MixLock
{
    use SymfonyFactoryLocking;

    public function __construct(private Options $o)
    {
        if (extension_loaded('redis')) {
            $redis = new \Redis();
            $redis->connect($o->host, $o->port, 1.0);
        } else {
            $redis = new \Predis\Client(['host' => $o->host, 'port' => $o->port]);
        }
        $this->factory = new LockFactory(new RedisStore($redis));
    }

    public static function label(Options $o): string
    {
        return sprintf('symfony RedisStore, createLock(…, %d)->acquire(true), retried every 100 ms, no deadline (%s, %s)',
            $o->ttl, package_version('php-symfony-lock', 'symfony/lock'), extension_loaded('redis') ? 'phpredis' : 'predis');
    }

    public static function unavailable(Options $o): ?string
    {
        $missing = [];
        require_debian('Symfony/Component/Lock/autoload.php') || $missing[] = 'php-symfony-lock';
        extension_loaded('redis') || require_debian('Predis/autoload.php') || $missing[] = 'php-redis or php-predis';
        return $missing ? 'needs ' . implode(', ', $missing) . ' (apt-get install them)' : null;
    }

    public function acquire(string $key): bool
    {
        return $this->acquireNamed($key);
    }
}
