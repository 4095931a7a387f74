<?php

/*
 * Makes RedisLock\Symfony\RedisLockStore the store of a Symfony application's
 * lock.factory. Copy this file to config/packages/redis_lock.php.
 *
 * framework.lock takes only DSNs and connection services (FrameworkBundle
 * builds its stores with symfony/lock's StoreFactory, which knows no
 * third-party store), so the factory is defined here as a service instead:
 *
 * - `redis_lock.store`: the store, on the DSN in REDIS_LOCK_SERVER (unset:
 *   the redis_lock.server INI setting), with symfony's default TTL of 300 s;
 *   a third argument `true` makes its locks read/write locks, so that
 *   Lock::acquireRead() takes shared locks (see RedisLockStore: then every
 *   lock of the store is one, and other code must not use the same names as
 *   plain locks); a fourth argument is the key prefix, in place of
 *   redis_lock.prefix: '' locks the resource name itself, the key of
 *   symfony's own RedisStore, so that a fleet moving from that store to this
 *   one keeps excluding itself while old and new code run side by side
 *   (docs/migration.md);
 * - `lock.factory` and the LockFactory type (autowiring): a LockFactory over
 *   that store, replacing the factory framework.lock makes.
 * - `redis_lock.worker_scopes`: each main request and each Messenger message
 *   is a unit of work whose leftover locks are released when it ends
 *   (RedisLock\Symfony\WorkerScopes, docs/workers.md), also in workers that
 *   serve many (messenger:consume, Runtime's worker runners).
 * - logging: lock.factory and the store log on the `lock` channel (with
 *   MonologBundle: monolog.logger.lock), symfony's Lock its usual messages,
 *   the store the time a blocking acquisition waited;
 * - console commands (with symfony/console): redis-lock:list, redis-lock:show,
 *   redis-lock:release, on the store's server (docs/operating-symfony.md);
 * - with WebProfilerBundle: the profiler's "Locks" panel (each request's locks,
 *   their wait and hold time, queue position, outcome), and the store records
 *   for it (RedisLock\Symfony\Profiler\LockProfile).
 *
 * An application's own service definitions win over the bundle's, whatever
 * store framework.lock names; that store is then never built.
 *
 * framework.lock is still turned on ('flock' below; keep your own value if you
 * have one) because the bundle wires the features that use lock.factory only
 * when it is: Messenger's DeduplicateMiddleware (DeduplicateStamp, symfony 7.3+)
 * and the rate limiters' lock. A Console command with LockableTrait, a
 * Scheduler schedule (->lock()) or your own code gets the factory by
 * autowiring `LockFactory $lockFactory`.
 */

use RedisLock\Symfony\Command\ListLocksCommand;
use RedisLock\Symfony\Command\ReleaseLockCommand;
use RedisLock\Symfony\Command\ShowLockCommand;
use RedisLock\Symfony\Profiler\LockDataCollector;
use RedisLock\Symfony\Profiler\LockProfile;
use RedisLock\Symfony\RedisLockStore;
use RedisLock\Symfony\WorkerScopes;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\Lock\LockFactory;

use function Symfony\Component\DependencyInjection\Loader\Configurator\service;

return static function (ContainerConfigurator $container, ContainerBuilder $builder): void {
    $container->extension('framework', ['lock' => 'flock']);

    $services = $container->services();
    $store = $services->set('redis_lock.store', RedisLockStore::class)
        ->args(['%env(default::REDIS_LOCK_SERVER)%', 300.0])
        ->call('setLogger', [service('logger')->ignoreOnInvalid()])
        ->tag('monolog.logger', ['channel' => 'lock']);
        // Migrating from symfony's RedisStore: ->args(['%env(default::REDIS_LOCK_SERVER)%', 300.0, false, ''])
    $services->set('lock.factory', LockFactory::class)
        ->public()
        ->args([service('redis_lock.store')])
        ->call('setLogger', [service('logger')->ignoreOnInvalid()])
        ->tag('monolog.logger', ['channel' => 'lock']);
    $services->alias(LockFactory::class, 'lock.factory');
    if (class_exists(\RedisLock::class, false)) {
        $services->set('redis_lock.worker_scopes', WorkerScopes::class)
            ->args([service('logger')->ignoreOnInvalid()])
            ->tag('kernel.event_subscriber')
            ->tag('kernel.reset', ['method' => 'reset'])
            ->tag('monolog.logger', ['channel' => 'lock']);
    }
    if (class_exists(Command::class)) {
        foreach (['redis-lock:list' => ListLocksCommand::class, 'redis-lock:show' => ShowLockCommand::class, 'redis-lock:release' => ReleaseLockCommand::class] as $name => $class) {
            $services->set('redis_lock.command.' . substr($name, 11), $class)
                ->args(['%env(default::REDIS_LOCK_SERVER)%'])
                ->tag('console.command', ['command' => $name]);
        }
    }
    // The panel only where the profiler is: elsewhere the store keeps its
    // null recorder, and records (and looks up) nothing.
    if ($builder->hasParameter('kernel.bundles') && isset($builder->getParameter('kernel.bundles')['WebProfilerBundle'])) {
        $services->set('redis_lock.profile', LockProfile::class);
        $store->call('setRecorder', [service('redis_lock.profile')]);
        $services->set('redis_lock.data_collector', LockDataCollector::class)
            ->args([service('redis_lock.profile')])
            ->tag('data_collector', ['template' => '@RedisLock/Collector/redis_lock.html.twig', 'id' => 'redis_lock', 'priority' => 240]);
        // Beside the classes, so that every layout (Composer's, the Debian package's) has them.
        $templates = dirname((string) (new ReflectionClass(LockDataCollector::class))->getFileName(), 2) . '/Resources/views';
        $container->extension('twig', ['paths' => [$templates => 'RedisLock']]);
    }
};
