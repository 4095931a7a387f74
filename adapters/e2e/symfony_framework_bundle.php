<?php

/*
 * FrameworkBundle's lock.factory on RedisLockStore, configured as docs/frameworks.md
 * says (adapters/config/symfony/redis_lock.php, copied to config/packages/):
 * a minimal MicroKernel with FrameworkBundle and that file, its container's
 * lock.factory and an autowired `LockFactory $lockFactory`, used from two
 * processes. The waiter of acquire(true) is handed the lock at the release; a
 * holder killed with SIGKILL keeps it waiting until the lock's TTL (2 s).
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use RedisLock\Symfony\RedisLockStore;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\Lock\LockFactory;

need(load('Symfony/Bundle/FrameworkBundle', 'Symfony/Component/Lock'), 'symfony/framework-bundle is not installed (apt-get install php-symfony-framework-bundle php-symfony-lock)');
need_symfony_kernel();

/** An application service that gets the lock factory by autowiring. */
final class ReportBuilder
{
    public function __construct(public readonly LockFactory $lockFactory)
    {
    }
}

$container = fn () => symfony_kernel(function (ContainerConfigurator $container): void {
    $container->services()->set('app.report_builder', ReportBuilder::class)->autowire()->public();
})->getContainer();

roles([
    'holder' => function () use ($container): void {
        $lock = $container()->get('lock.factory')->createLock('report', 2.0);
        $lock->acquire(true);
        out('acquired');
        if (in() === 'release') {
            $lock->release();
            out('released');
        }
    },
    'waiter' => function () use ($container): void {
        $lock = $container()->get('app.report_builder')->lockFactory->createLock('report', 2.0);
        out('waiting');
        $lock->acquire(true);
        out('acquired');
        $lock->release();
    },
]);

$redis = e2e_redis();

$app = $container();
$factory = $app->get('lock.factory');
check($factory instanceof LockFactory && $app->get('app.report_builder')->lockFactory === $factory, 'lock.factory is a LockFactory, and the one LockFactory autowiring gives');
check((new ReflectionProperty(LockFactory::class, 'store'))->getValue($factory) instanceof RedisLockStore, 'over a RedisLockStore');
$lock = $factory->createLock('probe', 2.0);
check($lock->acquire() && $redis->get('lock:probe') !== null, 'its locks are our keys (lock:probe)');
$lock->release();
check($redis->keys() === [], 'released: no key left');

$holder = spawn('holder');
$holder->expect('acquired');
check($redis->pttl('lock:report') > 0 && $redis->pttl('lock:report') <= 2000, 'a process holds lock:report, TTL <= 2 s');
$waiter = spawn('waiter');
$waiter->expect('waiting');
check($waiter->poll(0.5) === null, 'the other waits while it holds it');
$holder->send('release');
$released = $holder->expect('released');
$acquired = $waiter->expect('acquired');
check($acquired - $released < 1.5, sprintf('the waiter gets it at the release (%.3f s later)', $acquired - $released));
$waiter->finish();
$holder->finish();
check($redis->keys() === [], 'no key left');

$holder = spawn('holder');
$taken = $holder->expect('acquired');
$waiter = spawn('waiter');
$waiter->expect('waiting');
$token = $redis->get('lock:report');
$holder->kill();
$holder->wait();
$gone = changed($redis, 'lock:report', $token);
check($gone - $taken > 1.2 && $gone - $taken < 2.4, sprintf('after SIGKILL of the holder, its lock runs out %.2f s after it was taken (TTL 2 s)', $gone - $taken));
$waiter->expect('acquired');
check($waiter->finish()[1] === 0 && $redis->keys() === [], 'the waiter ends normally, no key left');

passed();
