<?php

/*
 * Laravel's queue middleware WithoutOverlapping on the redis_lock cache store
 * (the default store, config/cache.php), in processes that run jobs (the
 * sync queue: the process that dispatches a job runs it, through the real
 * middleware pipeline). While one process runs the job, another's run of it
 * is released back to the queue (releaseAfter) without running. A runner
 * killed with SIGKILL keeps the others out until expireAfter (2 s) runs out;
 * with no expireAfter (Laravel: the lock never expires) the lock is a renewed
 * lease (the store's 'lease' => 2): held for as long as the runner lives,
 * however long the job takes, and free 2 s after it is killed.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

need_laravel();

use Illuminate\Bus\Queueable;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\Events\JobProcessed;
use Illuminate\Queue\InteractsWithQueue;
use Illuminate\Queue\Middleware\WithoutOverlapping;
use Illuminate\Support\Facades\Queue;

final class ImportJob implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public function __construct(public int $expireAfter, public bool $hold)
    {
    }

    public function middleware(): array
    {
        return [(new WithoutOverlapping('import'))->releaseAfter(5)->expireAfter($this->expireAfter)];
    }

    public function handle(): void
    {
        out('ran');
        if ($this->hold) {
            in(); // until the test says so, or is killed
        }
    }
}

roles([
    // Runs ImportJob once; "ran" when its handle() ran, then "released" or "processed".
    'worker' => function (string $expireAfter, string $hold): void {
        laravel_app(['cache' => laravel_cache_config(lease: 2), 'queue' => laravel_queue_config()]);
        Queue::after(fn (JobProcessed $e) => out($e->job->isReleased() ? 'released' : 'processed'));
        ImportJob::dispatch((int) $expireAfter, $hold === '1');
    },
]);

$redis = e2e_redis();

// One runs it, the other's run is released.
$holder = spawn('worker', '2', '1');
$holder->expect('ran');
$keys = ttls($redis);
check(count($keys) === 1 && str_starts_with(array_key_first($keys), 'lock:app:laravel-queue-overlap:') && current($keys) > 0 && current($keys) <= 2000,
    'the middleware\'s lock is our key lock:app:laravel-queue-overlap:…, TTL <= expireAfter: ' . json_encode($keys));
[$lines] = spawn('worker', '2', '0')->finish();
check($lines === ['released'], 'a second worker does not run the job, it releases it back to the queue');
$holder->send('done');
[$lines, $code] = $holder->finish();
check($lines === ['processed'] && $code === 0, 'the first worker finishes the job');
check($redis->keys() === [], 'no key left in Redis after the job');
[$lines] = spawn('worker', '2', '0')->finish();
check($lines === ['ran', 'processed'], 'the next worker runs the job');

// A killed runner: out until expireAfter has passed.
$holder = spawn('worker', '2', '1');
$ran = $holder->expect('ran');
$key = array_key_first(ttls($redis));
$owner = $redis->get($key);
$holder->kill();
$holder->wait();
check(spawn('worker', '2', '0')->finish()[0] === ['released'] && $redis->get($key) === $owner, 'after SIGKILL of the runner, the next worker still releases the job');
$gone = changed($redis, $key, $owner);
check($gone - $ran > 1.2 && $gone - $ran < 2.4, sprintf('the lock runs out %.2f s after the killed runner started the job (expireAfter 2 s)', $gone - $ran));
check(spawn('worker', '2', '0')->finish()[0] === ['ran', 'processed'], 'then a worker runs it');
check($redis->keys() === [], 'no key left in Redis');

// No expireAfter: held while the runner lives (renewed), free one lease after its death.
$holder = spawn('worker', '0', '1');
$holder->expect('ran');
$key = array_key_first(ttls($redis));
$owner = $redis->get($key);
usleep(2_600_000);
$ttl = $redis->pttl($key);
check($ttl > 0 && $ttl <= 2000, "after 2.6 s the lease (2 s) is still renewed: PTTL $ttl ms");
check(spawn('worker', '0', '0')->finish()[0] === ['released'], 'the job of a runner that lives past its lease is not run by another worker');
$killed = microtime(true);
$holder->kill();
$holder->wait();
$gone = changed($redis, $key, $owner);
// Renewed every third of the lease, the lock has about 2/3 of it or more left at any time.
check($gone - $killed > 0.9 && $gone - $killed < 2.0 + 0.4, sprintf('after SIGKILL of the runner, the lock runs out %.2f s later (lease 2 s)', $gone - $killed));
check(spawn('worker', '0', '0')->finish()[0] === ['ran', 'processed'], 'then a worker runs it');
check($redis->keys() === [], 'no key left in Redis');

passed();
