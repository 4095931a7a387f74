<?php

/*
 * symfony/messenger's DeduplicateStamp (7.3+) through FrameworkBundle's
 * message bus, whose DeduplicateMiddleware takes the application's
 * lock.factory (adapters/config/symfony/redis_lock.php). Messages go to a
 * sync:// transport, so the process that dispatches one handles it. While
 * one process handles the message, another's dispatch of it is dropped (its
 * handler does not run); after it, the next dispatch is handled. A process
 * killed with SIGKILL while handling it keeps the message out until the
 * stamp's TTL (2 s) runs out.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\Messenger\Attribute\AsMessageHandler;
use Symfony\Component\Messenger\Envelope;
use Symfony\Component\Messenger\MessageBusInterface;
use Symfony\Component\Messenger\Stamp\DeduplicateStamp;

need(load('Symfony/Bundle/FrameworkBundle', 'Symfony/Component/Messenger', 'Symfony/Component/Lock'), 'needs php-symfony-framework-bundle, php-symfony-messenger, php-symfony-lock');
need_symfony_kernel();
need(class_exists(DeduplicateStamp::class), 'needs symfony/messenger 7.3+ (DeduplicateStamp)');

final class RebuildIndex
{
    public function __construct(public readonly bool $hold)
    {
    }
}

#[AsMessageHandler]
final class RebuildIndexHandler
{
    public function __invoke(RebuildIndex $message): void
    {
        out('handled');
        if ($message->hold) {
            in(); // until the test says so, or is killed
        }
    }
}

/** The application's service that dispatches. */
final class Indexer
{
    public function __construct(public readonly MessageBusInterface $bus)
    {
    }
}

roles([
    // Dispatches RebuildIndex with DeduplicateStamp('rebuild-index', 2 s): "handled" when handled, then "end".
    'dispatch' => function (string $hold): void {
        $kernel = symfony_kernel(function (ContainerConfigurator $container): void {
            $container->extension('framework', ['messenger' => [
                'transports' => ['sync' => 'sync://'],
                'routing' => [RebuildIndex::class => 'sync'],
            ]]);
            $services = $container->services();
            $services->set('app.rebuild_handler', RebuildIndexHandler::class)->autoconfigure();
            $services->set('app.indexer', Indexer::class)->autowire()->public();
        });
        $kernel->getContainer()->get('app.indexer')->bus->dispatch(new Envelope(new RebuildIndex($hold === '1'), [new DeduplicateStamp('rebuild-index', 2.0)]));
        out('end');
    },
]);

$redis = e2e_redis();
$run = fn () => spawn('dispatch', '0')->finish()[0];

$holder = spawn('dispatch', '1');
$holder->expect('handled');
$ttl = $redis->pttl('lock:rebuild-index');
check($ttl > 0 && $ttl <= 2000, "the stamp's lock is our key lock:rebuild-index, TTL <= 2 s: $ttl ms");
check($run() === ['end'], 'another dispatch while it is handled is dropped (its handler does not run)');
$holder->send('done');
check($holder->finish()[0] === ['end'], 'the first is handled to the end');
check($redis->keys() === [], 'the lock is released after handling: no key left');
check($run() === ['handled', 'end'], 'the next dispatch is handled');

$holder = spawn('dispatch', '1');
$handled = $holder->expect('handled');
$owner = $redis->get('lock:rebuild-index');
$holder->kill();
$holder->wait();
check($run() === ['end'] && $redis->get('lock:rebuild-index') === $owner, 'after SIGKILL of the process handling it, a dispatch is still dropped');
$gone = changed($redis, 'lock:rebuild-index', $owner);
check($gone - $handled > 1.2 && $gone - $handled < 2.4, sprintf('the lock runs out %.2f s after the killed one began handling (TTL 2 s)', $gone - $handled));
check($run() === ['handled', 'end'], 'then a dispatch is handled');
check($redis->keys() === [], 'no key left');

passed();
