<?php
/**
 * The Symfony adapter: symfony/lock's LockFactory over
 * RedisLock\Symfony\RedisLockStore (adapters/src/Symfony), server from
 * redis_lock.server. acquire(true) waits in the extension's FIFO queue; like
 * symfony's own acquire(true) it has no deadline (the store waits "forever"),
 * so this worker never reports a timeout: a wait that does not end shows as a
 * worker run.php had to stop. Its key is redis_lock.prefix . $resource.
 */

declare(strict_types=1);

namespace Bench\Migration;

use RedisLock\Symfony\RedisLockStore;
use Symfony\Component\Lock\LockFactory;

require_once __DIR__ . '/FrameworkLocks.php';

final class OursSymfonyLock implements MixLock
{
    use SymfonyFactoryLocking;

    public function __construct(private Options $o)
    {
        $this->factory = new LockFactory(new RedisLockStore());
    }

    public static function label(Options $o): string
    {
        return sprintf('adapters RedisLockStore, LockFactory createLock(…, %d)->acquire(true) (no deadline), %s, %s', $o->ttl, build(),
            package_version('php-symfony-lock', 'symfony/lock'));
    }

    public static function unavailable(Options $o): ?string
    {
        if (!extension_loaded('redis_lock')) {
            return 'the redis_lock extension is not loaded';
        }
        if (!require_debian('Symfony/Component/Lock/autoload.php')) {
            return 'symfony/lock is not installed (apt-get install php-symfony-lock)';
        }
        require_once $o->adapters . '/autoload.php';
        return null;
    }

    public function acquire(string $key): bool
    {
        return $this->acquireNamed(extension_name($key));
    }
}
