<?php

/*
 * Laravel's session blocking (a route's ->block($lockSeconds, $waitSeconds),
 * config/session.php's 'block_store' naming the redis_lock store): two
 * processes handle a request of the same session through the HTTP kernel
 * (the web middleware group, StartSession; no HTTP server needed). The second
 * request waits until the first one is done and is then handed the lock at
 * once; a process killed with SIGKILL in the middle of its
 * request keeps the session's next request waiting until $lockSeconds (2 s).
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

need_laravel();
need(method_exists(Illuminate\Routing\Route::class, 'block'), 'needs Laravel 8.21+ (Route::block())');

use Illuminate\Contracts\Http\Kernel;
use Illuminate\Foundation\Configuration\ApplicationBuilder;
use Illuminate\Foundation\Configuration\Middleware;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\Route;

const SESSION_ID = 'e2eSession0123456789abcdefghijklmnopqrst'; // 40 alphanumerics, as Laravel makes them

roles([
    // GET /report with the session cookie: "in" when the route runs, then "status <code>".
    'request' => function (string $hold): void {
        $app = laravel_app(
            [
                'cache' => laravel_cache_config(),
                'queue' => laravel_queue_config(),
                'session' => [
                    'driver' => 'array', 'lifetime' => 120, 'expire_on_close' => false, 'encrypt' => false,
                    'files' => sys_get_temp_dir(), 'connection' => null, 'table' => 'sessions', 'store' => null,
                    'lottery' => [2, 100], 'cookie' => 'laravel_session', 'path' => '/', 'domain' => null,
                    'secure' => false, 'http_only' => true, 'same_site' => 'lax', 'partitioned' => false,
                    'block_store' => 'locks',
                ],
                'view' => ['paths' => [], 'compiled' => sys_get_temp_dir()],
            ],
            build: fn (ApplicationBuilder $builder) => $builder
                ->withRouting(using: function () use ($hold): void {
                    Route::middleware('web')->get('/report', function () use ($hold): string {
                        out('in');
                        if ($hold === '1') {
                            in(); // until the test says so, or is killed
                        }

                        return 'report';
                    })->block(lockSeconds: 2, waitSeconds: 5);
                })
                // The session id travels in plain text here (no cookie encryption to set up).
                ->withMiddleware(fn (Middleware $middleware) => $middleware->encryptCookies(except: ['laravel_session'])),
        );
        $kernel = $app->make(Kernel::class);
        $request = Request::create('/report', 'GET', [], ['laravel_session' => SESSION_ID]);
        $response = $kernel->handle($request);
        out('status ' . $response->getStatusCode());
        $kernel->terminate($request, $response);
    },
]);

$redis = e2e_redis();

$first = spawn('request', '1');
$first->expect('in');
$ttl = $redis->pttl('lock:app:session:' . SESSION_ID);
check($ttl > 0 && $ttl <= 2000, "the session's lock is our key lock:app:session:<id>, TTL <= 2 s: $ttl ms");
$second = spawn('request', '0');
check($second->poll(0.7) === null, 'a second request of the session waits while the first runs');
$first->send('done');
$done = $first->expect('status 200');
$in = $second->expect('in');
check($in - $done < 1.5, sprintf('it runs as the first request is done (%.3f s later)', $in - $done));
$second->expect('status 200');
$first->finish();
$second->finish();
check($redis->keys() === [], 'no key left');

$first = spawn('request', '1');
$started = $first->expect('in');
$key = 'lock:app:session:' . SESSION_ID;
$owner = $redis->get($key);
$second = spawn('request', '0');
usleep(300_000);
$first->kill();
$first->wait();
$gone = changed($redis, $key, $owner);
check($gone - $started > 1.2 && $gone - $started < 2.4, sprintf('after SIGKILL of the first, its lock runs out %.2f s after the first began (lockSeconds 2 s)', $gone - $started));
$second->expect('in');
check($second->expect('status 200') > 0 && $second->finish()[1] === 0, 'then the second request runs and is answered 200');
check($redis->keys() === [], 'no key left');

passed();
