<?php

/*
 * `php artisan queue:work` on a real Redis queue: each job is a unit of work
 * (RedisLock\Laravel\WorkerScopes, docs/workers.md). Jobs are pushed by one
 * process and run by a worker process, as in production:
 *
 * - a job that takes RedisMutexLock::lock('k') and throws while its worker
 *   goes on: a job on another worker gets 'k' at once (without scopes it
 *   would be busy for as long as the first worker lives), with
 *   redis_lock.auto_renew off and on;
 * - a job that takes Cache::lock('k2', 0)->get() on the redis_lock store (a
 *   renewed 2 s lease) and never releases it: after the job, the idle worker
 *   renews nothing; the lease runs out, and another process gets the lock;
 * - a job killed by --timeout (the worker kills itself with SIGKILL, so no
 *   finally block and no request end run): its lock is released before the
 *   kill (JobTimedOut), not 30 s later.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

need_laravel();
need(class_exists(RedisLock::class), 'this build of the extension has no RedisLock class');
need(extension_loaded('redis') || load('Predis'), 'needs a Redis client for the queue (php-redis or php-predis)');
need(extension_loaded('pcntl'), 'needs pcntl (queue:work --timeout)');

use Illuminate\Bus\Queueable;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\InteractsWithQueue;
use Illuminate\Support\Facades\Cache;

final class LeakJob implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public $tries = 1;

    public function __construct(public string $key)
    {
    }

    public function handle(): void
    {
        out('leak took ' . $this->key . ': ' . json_encode(RedisMutexLock::lock($this->key, 0, 30)));
        throw new RuntimeException('the job fails with the lock held');
    }
}

final class ProbeJob implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public function __construct(public string $key)
    {
    }

    public function handle(): void
    {
        $got = RedisMutexLock::lock($this->key, 0, 30);
        out('probe ' . $this->key . ': ' . json_encode($got));
        $got && RedisMutexLock::release($this->key);
    }
}

final class ForgetJob implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public function handle(): void
    {
        out('forget took k2: ' . json_encode(Cache::lock('k2', 0)->get()));
    }
}

final class SlowJob implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public $tries = 1;

    public function handle(): void
    {
        out('slow took k3: ' . json_encode(RedisMutexLock::lock('k3', 0, 30)));
        sleep(30); // past --timeout: the worker kills itself
    }
}

$laravel = function (): Illuminate\Foundation\Application {
    $server = parse_url((string) getenv('REDIS_LOCK_SERVER'));
    return laravel_app([
        'cache' => laravel_cache_config(2),
        'database' => ['redis' => [
            'client' => extension_loaded('redis') ? 'phpredis' : 'predis',
            'options' => ['prefix' => ''],
            'default' => ['host' => $server['host'], 'port' => $server['port'], 'database' => 0],
        ]],
        'queue' => [
            'default' => 'redis',
            'connections' => ['redis' => ['driver' => 'redis', 'connection' => 'default', 'queue' => 'a', 'retry_after' => 90, 'block_for' => null]],
            'failed' => ['driver' => 'null'],
        ],
    ]);
};

roles([
    // Pushes jobs ("Class" or "Class:argument") onto queue $queue.
    'push' => function (string $queue, string ...$jobs) use ($laravel): void {
        $laravel();
        foreach ($jobs as $job) {
            [$class, $arg] = explode(':', $job . ':');
            ($arg === '' ? $class::dispatch() : $class::dispatch($arg))->onQueue($queue);
        }
        out('pushed ' . count($jobs));
    },
    // A worker: `queue:work redis --queue=$queue` (until the queue is empty,
    // or for $seconds), with auto_renew as given.
    'work' => function (string $renew, string $queue, string $seconds = '0', string $timeout = '60') use ($laravel): void {
        ini_set('redis_lock.auto_renew', $renew);
        $app = $laravel();
        $args = ['queue:work', 'redis', "--queue=$queue", '--sleep=0.1', "--timeout=$timeout", '--tries=1'];
        $args[] = $seconds === '0' ? '--stop-when-empty' : "--max-time=$seconds";
        out('worker exit ' . artisan($app, ...$args));
    },
    'lock' => function (string $key) use ($laravel): void {
        $laravel();
        $lock = Cache::lock($key, 5);
        out("lock $key: " . json_encode($lock->get()));
        $lock->release();
    },
]);

$redis = e2e_redis();

// ---- A job that failed with the lock held while its worker goes on; a job on another worker.
foreach (['0', '1'] as $renew) {
    $first = spawn('work', $renew, 'a', '8');
    check(spawn('push', 'a', 'LeakJob:k')->finish()[0] === ['pushed 1'], "a job pushed (auto_renew $renew)");
    $first->expect('leak took k: true');
    // Released at the job's end (its exception), not by the worker's: it runs on.
    $released = changed($redis, 'lock:k', $redis->get('lock:k') ?? '', 5.0);
    check($released > 0, 'the failed job\'s lock was released at its end, while its worker runs on');
    check(spawn('push', 'b', 'ProbeJob:k')->finish()[0] === ['pushed 1'], 'a job for another worker pushed');
    [$lines] = spawn('work', $renew, 'b')->finish(30);
    check(($lines[0] ?? '') === 'probe k: true', "auto_renew $renew: the other worker's job got the lock the failed job left, while the first worker still runs: " . json_encode($lines));
    $first->kill(SIGTERM);
    $first->wait(15);
    check($redis->keys('lock:k*') === [], 'no lock left');
}

// ---- A forgotten Cache::lock() (renewed lease of 2 s) in an idle worker.
spawn('push', 'a', 'ForgetJob')->finish();
$worker = spawn('work', '1', 'a', '8');
$worker->expect('forget took k2: true');
$key = 'lock:app:k2';
$taken = microtime(true);
check($redis->get($key) !== null, "the forgotten lock is held ($key)");
$gone = changed($redis, $key, $redis->get($key), 6.0);
check($gone - $taken < 3.0, sprintf('the idle worker renews nothing: the lease ran out %.2f s after the job (lease 2 s)', $gone - $taken));
check(spawn('lock', 'k2')->finish()[0] === ['lock k2: true'], 'another process gets it while the worker still runs');
$worker->kill(SIGTERM);
$worker->wait(15);

// ---- A job killed by --timeout.
spawn('push', 'a', 'SlowJob')->finish();
$worker = spawn('work', '0', 'a', '0', '1');
$worker->expect('slow took k3: true');
$code = $worker->wait(15);
check($code === 128 + SIGKILL, "the worker killed itself for --timeout (exit $code)");
check($redis->get('lock:k3') === null, 'the timed-out job\'s lock was released before the kill (not left for its 30 s TTL)');
check(spawn('push', 'a', 'ProbeJob:k3')->finish()[0] === ['pushed 1'] && (spawn('work', '0', 'a')->finish(30)[0][0] ?? '') === 'probe k3: true', 'the next worker\'s job gets it');
check($redis->keys('lock:*') === [], 'no lock left');

passed();
