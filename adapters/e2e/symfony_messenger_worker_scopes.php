<?php

/*
 * `bin/console messenger:consume`, each message a unit of work
 * (RedisLock\Symfony\WorkerScopes, registered by
 * adapters/config/symfony/redis_lock.php; docs/workers.md), on a real Redis
 * transport (php-symfony-redis-messenger, phpredis) with a handler that
 * takes RedisMutexLock::lock('k') and throws, with and without --no-reset:
 * while that worker goes on, a message consumed by another worker gets 'k'
 * at once.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\Messenger\Attribute\AsMessageHandler;
use Symfony\Component\Messenger\MessageBusInterface;

need(load('Symfony/Bundle/FrameworkBundle', 'Symfony/Component/Messenger', 'Symfony/Component/Lock'), 'needs php-symfony-framework-bundle, php-symfony-messenger, php-symfony-lock');
need_symfony_kernel();
need(class_exists(RedisLock::class), 'this build of the extension has no RedisLock class');
need(load('Symfony/Component/Messenger/Bridge/Redis'), 'needs php-symfony-redis-messenger');
need(extension_loaded('redis'), 'symfony\'s Redis transport needs phpredis (php-redis)');

final class TakeAndFail
{
}

final class Probe
{
}

#[AsMessageHandler]
final class TakeAndFailHandler
{
    public function __invoke(TakeAndFail $message): void
    {
        out('took k: ' . json_encode(RedisMutexLock::lock('k', 0, 30)));
        throw new RuntimeException('the handler fails with the lock held');
    }
}

#[AsMessageHandler]
final class ProbeHandler
{
    public function __invoke(Probe $message): void
    {
        $got = RedisMutexLock::lock('k', 0, 30);
        out('probe k: ' . json_encode($got));
        $got && RedisMutexLock::release('k');
    }
}

/** The application's service that dispatches. */
final class Dispatcher
{
    public function __construct(public readonly MessageBusInterface $bus)
    {
    }
}

$messenger = function (): Symfony\Component\HttpKernel\KernelInterface {
    $server = parse_url((string) getenv('REDIS_LOCK_SERVER'));
    $dsn = fn (string $stream) => "redis://{$server['host']}:{$server['port']}/$stream";
    return symfony_kernel(function (ContainerConfigurator $container) use ($dsn): void {
        $retry = ['max_retries' => 0];
        $container->extension('framework', ['messenger' => [
            'transports' => [
                'a' => ['dsn' => $dsn('a'), 'retry_strategy' => $retry],
                'b' => ['dsn' => $dsn('b'), 'retry_strategy' => $retry],
            ],
            'routing' => [TakeAndFail::class => 'a', Probe::class => 'b'],
        ]]);
        $services = $container->services();
        $services->set('app.take_and_fail', TakeAndFailHandler::class)->autoconfigure();
        $services->set('app.probe', ProbeHandler::class)->autoconfigure();
        $services->set('app.dispatcher', Dispatcher::class)->autowire()->public();
    });
};

roles([
    'dispatch' => function (string $message) use ($messenger): void {
        $messenger()->getContainer()->get('app.dispatcher')->bus->dispatch(new $message());
        out('dispatched');
    },
    // messenger:consume $transport for at most $seconds (--no-reset when asked).
    'consume' => function (string $transport, string $seconds, string ...$options) use ($messenger): void {
        $status = symfony_console($messenger(), 'messenger:consume', $transport, "--time-limit=$seconds", '--sleep=0.1', ...$options);
        out("consume exit $status");
    },
]);

$redis = e2e_redis();

// ---- messenger:consume, a failing handler that took a lock.

foreach ([[], ['--no-reset']] as $options) {
    $how = $options === [] ? 'reset between messages' : '--no-reset';
    $first = spawn('consume', 'a', '8', ...$options);
    check(spawn('dispatch', TakeAndFail::class)->finish()[0] === ['dispatched'], "a message for the first worker ($how)");
    $first->expect('took k: true');
    // Released at the message's end (its failure), not by the worker's: it runs on.
    $released = changed($redis, 'lock:k', $redis->get('lock:k') ?? '', 5.0);
    check($released > 0, "$how: the failed handler's lock was released at the message's end, while its worker runs on");
    check(spawn('dispatch', Probe::class)->finish()[0] === ['dispatched'], 'a message for another worker');
    $second = spawn('consume', 'b', '3');
    check($second->read(10)[0] === 'probe k: true', "$how: the other worker's handler got the lock the failed one left, while the first worker still runs");
    $second->wait(15);
    $first->kill(SIGTERM);
    $first->wait(15);
    check($redis->keys('lock:*') === [], 'no lock left');
}

passed();
