<?php

/*
 * The profiler's "Locks" panel in a real Symfony application: a kernel with
 * FrameworkBundle, TwigBundle, WebProfilerBundle and
 * adapters/config/symfony/redis_lock.php, served by `php -S` on a free
 * loopback port (this file is also its front controller). One request takes
 * a lock that another process holds for 300 ms while a third waits before
 * it: the request waits, one waiter ahead. The profile of that request, read
 * over HTTP from /_profiler/TOKEN?panel=redis_lock, shows the lock's key,
 * its wait (>= 300 ms) and its queue position (1).
 *
 * With E2E_SERVE=1 (scripts/test-profiler-browser.sh, whose headless Chromium
 * loads the panel) it then prints `panel URL wait=MS position=N` and keeps
 * serving until a line arrives on its stdin.
 */

declare(strict_types=1);

use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\Kernel;
use Symfony\Component\Routing\Loader\Configurator\RoutingConfigurator;

const PANEL_LOCK = 'report:42';

/** Debian's autoloaders of the application's bundles; false when one is missing. */
function panel_autoload(): bool
{
    foreach (['Symfony/Bundle/FrameworkBundle', 'Symfony/Bundle/TwigBundle', 'Symfony/Bundle/WebProfilerBundle', 'Symfony/Component/Lock'] as $package) {
        $path = stream_resolve_include_path("$package/autoload.php") ?: "/usr/share/php/$package/autoload.php";
        if (!is_file($path)) {
            return false;
        }
        require_once $path;
    }
    if (!class_exists(Composer\InstalledVersions::class)) {
        $file = stream_resolve_include_path('Composer/InstalledVersions.php') ?: '/usr/share/php/Composer/InstalledVersions.php';
        if (!is_file($file)) {
            return false;
        }
        require_once $file;
    }

    return true;
}

/** The application: its kernel lives in E2E_APP_DIR, shared by the test and the web server. */
function panel_kernel(): Kernel
{
    if (!class_exists('RedisLockPanelKernel', false)) {
        final class RedisLockPanelKernel extends Kernel
        {
            use Symfony\Bundle\FrameworkBundle\Kernel\MicroKernelTrait;

            public function registerBundles(): iterable
            {
                return [
                    new Symfony\Bundle\FrameworkBundle\FrameworkBundle(),
                    new Symfony\Bundle\TwigBundle\TwigBundle(),
                    new Symfony\Bundle\WebProfilerBundle\WebProfilerBundle(),
                ];
            }

            public function getProjectDir(): string
            {
                return (string) getenv('E2E_APP_DIR');
            }

            protected function configureContainer(Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator $container): void
            {
                $container->extension('framework', ['secret' => 'e2e', 'profiler' => ['enabled' => true, 'collect' => true], 'router' => ['utf8' => true]]);
                $container->extension('web_profiler', ['toolbar' => true]);
                $container->import(dirname(__DIR__) . '/config/symfony/redis_lock.php');
            }

            protected function configureRoutes(RoutingConfigurator $routes): void
            {
                $routes->import('@WebProfilerBundle/Resources/config/routing/wdt.php')->prefix('/_wdt');
                $routes->import('@WebProfilerBundle/Resources/config/routing/profiler.php')->prefix('/_profiler');
                $routes->add('ping', '/ping')->controller('kernel::ping');
                $routes->add('report', '/report')->controller('kernel::report');
            }

            public function ping(): Response
            {
                return new Response('<html><body>pong</body></html>');
            }

            /** Takes the report's lock (waiting for it), works 20 ms, releases it. */
            public function report(): Response
            {
                $lock = $this->getContainer()->get('lock.factory')->createLock(PANEL_LOCK, 30);
                $lock->acquire(true);
                usleep(20000);
                $lock->release();

                return new Response('<html><body>report written</body></html>');
            }
        }
    }

    return new RedisLockPanelKernel('dev', false);
}

// ------------------------------------------------ the web server's requests
if (PHP_SAPI === 'cli-server') {
    require_once __DIR__ . '/../autoload.php';
    panel_autoload();
    $kernel = panel_kernel();
    $request = Symfony\Component\HttpFoundation\Request::createFromGlobals();
    $response = $kernel->handle($request);
    $response->send();
    $kernel->terminate($request, $response);

    return;
}

// ------------------------------------------------------------- the test
require __DIR__ . '/lib.php';

need(panel_autoload(), 'the profiler panel needs symfony/framework-bundle, twig-bundle and web-profiler-bundle (apt-get install php-symfony-framework-bundle php-symfony-twig-bundle php-symfony-web-profiler-bundle php-twig composer)');

roles([
    // Holds the lock until the waiter and the request queue behind it, then 300 ms more.
    'holder' => function (): void {
        $owner = RedisMutexLock::newOwner();
        RedisMutexLock::acquire(PANEL_LOCK, $owner, 30000);
        out('held');
        $deadline = microtime(true) + 15;
        while (RedisMutexLock::inspect(PANEL_LOCK)['waiters'] < 2 && microtime(true) < $deadline) {
            usleep(5000);
        }
        usleep(300000);
        RedisMutexLock::releaseOwner(PANEL_LOCK, $owner);
        out('released');
    },
    // Queues first, takes it at the holder's release and gives it on at once.
    'waiter' => function (): void {
        $owner = RedisMutexLock::newOwner();
        out('waiting');
        RedisMutexLock::acquire(PANEL_LOCK, $owner, 30000, 15);
        RedisMutexLock::releaseOwner(PANEL_LOCK, $owner);
        out('done');
    },
]);

$redis = e2e_redis();
$app = e2e_tmp('panel');
mkdir($app);
putenv('E2E_APP_DIR=' . $app);

// php -S on a free loopback port: one the kernel gave us and let go, so
// another process may take it first; then php -S exits, and we try another.
for ($try = 1; ; $try++) {
    $probe = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
    fclose($probe);
    $command = [PHP_BINARY, '-d', 'extension=' . getenv('REDIS_LOCK_SO'), '-S', "127.0.0.1:$port", __FILE__];
    $server = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$app/server.log", 'a'], 2 => ['file', "$app/server.log", 'a']], $pipes);
    $socket = false;
    $deadline = microtime(true) + 10;
    while (proc_get_status($server)['running'] && !($socket = @fsockopen('127.0.0.1', $port, $errno, $error, 0.2)) && microtime(true) < $deadline) {
        usleep(20000);
    }
    if (proc_get_status($server)['running'] || $try === 5) {
        break;
    }
    proc_close($server);
}
$base = "http://127.0.0.1:$port";
register_shutdown_function(static function () use ($server): void {
    proc_terminate($server);
    proc_close($server);
});

/** GET $path: [status, headers, body]. */
function http_get(string $base, string $path): array
{
    $body = @file_get_contents($base . $path, false, stream_context_create(['http' => ['timeout' => 20, 'ignore_errors' => true]]));
    $headers = $http_response_header ?? [];

    return [(int) (explode(' ', $headers[0] ?? 'HTTP/1.0 0')[1] ?? 0), $headers, (string) $body];
}

check(proc_get_status($server)['running'] && $socket !== false, "php -S listens on 127.0.0.1:$port" . ($try > 1 ? " (try $try)" : ''));
fclose($socket);
$t0 = microtime(true);
[$status] = http_get($base, '/ping');
check($status === 200, sprintf('the application answers (%.1f s, its container built)', microtime(true) - $t0) . ($status === 200 ? '' : ': ' . @file_get_contents("$app/server.log")));

$holder = spawn('holder');
$holder->expect('held');
$waiter = spawn('waiter');
$waiter->expect('waiting');
$deadline = microtime(true) + 10;
while (RedisMutexLock::inspect(PANEL_LOCK)['waiters'] < 1 && microtime(true) < $deadline) {
    usleep(5000);
}
check(RedisMutexLock::inspect(PANEL_LOCK)['waiters'] === 1, 'another process holds the lock, one more waits');

$t0 = microtime(true);
[$status, $headers, $body] = http_get($base, '/report');
$took = microtime(true) - $t0;
check($status === 200 && str_contains($body, 'report written'), sprintf('the request took the lock and answered (%.3f s)', $took));
$holder->expect('released');
$waiter->expect('done');
$holder->finish();
$waiter->finish();
$token = null;
foreach ($headers as $header) {
    if (preg_match('/^X-Debug-Token:\s*(\w+)/i', $header, $m)) {
        $token = $m[1];
    }
}
check($token !== null, 'the response names its profile (X-Debug-Token)');

$panel = "/_profiler/$token?panel=redis_lock";
[$status, , $html] = http_get($base, $panel);
check($status === 200, "the Locks panel answers ($panel)");
if (getenv('E2E_PANEL_HTML')) {
    file_put_contents(getenv('E2E_PANEL_HTML'), $html);
}
check(str_contains($html, '<h2>Locks</h2>') && substr_count($html, 'data-lock-key>') === 1, 'the panel lists one lock');
check(str_contains($html, 'data-lock-key>' . PANEL_LOCK . '<'), 'its key, ' . PANEL_LOCK);
check(preg_match('/data-lock-wait>([0-9.]+)</', $html, $m) === 1 && (float) $m[1] >= 250 && (float) $m[1] < 10000, sprintf('its wait, %s ms (the holder kept it 300 ms after the request queued)', $m[1] ?? '?'));
$wait = $m[1];
check(str_contains($html, 'data-lock-position>1<'), 'its queue position: 1 waiter was ahead');
check(str_contains($html, '>released<'), 'its outcome: released');
[$status, , $toolbar] = http_get($base, "/_wdt/$token");
check($status === 200 && preg_match('/sf-toolbar-block-redis_lock[^"]*sf-toolbar-status-yellow/', $toolbar) === 1, 'the toolbar has a Locks item, yellow: a lock had to wait');
check(str_contains($toolbar, 'Had to wait</b><span class="sf-toolbar-status sf-toolbar-status-yellow">1<'), 'its details: 1 had to wait');
check($redis->keys() === [], 'no key left');

if (getenv('E2E_SERVE') === '1') {
    echo "panel $base$panel wait=$wait position=1\n";
    fgets(STDIN);
}
passed();
