<?php

/*
 * symfony/runtime's FrankenPhpWorkerRunner serving requests in one process,
 * each request a unit of work (RedisLock\Symfony\WorkerScopes, registered by
 * adapters/config/symfony/redis_lock.php; docs/workers.md): request 1 leaks a
 * lock (an error page, the lock forgotten), and request 2 must find it free
 * and take it afresh (one hold, not a nested one). FrankenPHP itself is not
 * packaged anywhere these tests run, so frankenphp_handle_request() is
 * defined here, as symfony's own Runtime tests do: it serves a scripted list
 * of requests.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\Runtime\Runner\FrankenPhpWorkerRunner;

need(load('Symfony/Bundle/FrameworkBundle', 'Symfony/Component/Runtime'), 'needs php-symfony-framework-bundle, php-symfony-runtime');
need_symfony_kernel();
need(class_exists(RedisLock::class), 'this build of the extension has no RedisLock class');
need(class_exists(FrankenPhpWorkerRunner::class), 'this symfony/runtime has no FrankenPhpWorkerRunner');

/** The application's own kernel.request listener: what a controller would do. */
final class Pages
{
    public function __invoke(RequestEvent $event): void
    {
        $path = $event->getRequest()->getPathInfo();
        $got = RedisMutexLock::lock('page', 0, 30);
        out("request $path took page: " . json_encode($got) . ', holds: ' . RedisMutexLock::inspect('page')['count']);
        if ($path === '/leak') {
            // An error page, the lock forgotten on the way out.
            $event->setResponse(new Response('failed', 500));
            return;
        }
        RedisMutexLock::release('page');
        $event->setResponse(new Response('ok'));
    }
}

roles([
    // FrankenPhpWorkerRunner serving the requests named in $paths.
    'frankenphp' => function (string ...$paths): void {
        $kernel = symfony_kernel(function (ContainerConfigurator $container): void {
            $container->services()->set('app.pages', Pages::class)->tag('kernel.event_listener', ['event' => 'kernel.request', 'priority' => 0]);
        });
        $GLOBALS['e2e_paths'] = $paths;
        /** FrankenPHP's worker call: serves the next scripted request; false when none is left. */
        function frankenphp_handle_request(callable $handler): bool
        {
            $path = array_shift($GLOBALS['e2e_paths']);
            if ($path === null) {
                return false;
            }
            out("between requests, page is " . (RedisMutexLock::inspect('page')['holder'] === null ? 'free' : 'held'));
            $_SERVER['REQUEST_URI'] = $path;
            $_SERVER['REQUEST_METHOD'] = 'GET';
            ob_start();
            $handler();
            ob_end_clean();
            return $GLOBALS['e2e_paths'] !== [];
        }
        out('runner exit ' . (new FrankenPhpWorkerRunner($kernel, 0))->run());
    },
]);

$redis = e2e_redis();

// ---- FrankenPHP's worker mode through symfony/runtime.
[$lines, $code] = spawn('frankenphp', '/leak', '/next', '/last')->finish(30);
check($code === 0, 'the runner served its requests and ended: exit ' . $code . ' ' . json_encode($lines));
check($lines === [
    'between requests, page is free',
    'request /leak took page: true, holds: 1',
    'between requests, page is free',
    'request /next took page: true, holds: 1',
    'between requests, page is free',
    'request /last took page: true, holds: 1',
    'runner exit 0',
], 'a request that left a lock held left nothing to the next request of the same worker: ' . json_encode($lines));
check($redis->keys('lock:*') === [], 'no lock left');

passed();
