<?php

/*
 * Laravel's unique jobs on the redis_lock cache store (the default store).
 *
 * ShouldBeUnique: the lock is taken at dispatch and released (restoreLock()
 * with the job's lock owner) when the job has been processed. Jobs run where
 * they are dispatched (sync queue): while one process runs the job, another's
 * dispatch of it is dropped; after it, the next dispatch runs. A process
 * killed with SIGKILL while running it keeps the job out until uniqueFor
 * (2 s) has passed.
 *
 * ShouldBeUniqueUntilProcessing: the lock is released when processing
 * starts. Jobs wait in the deferred queue (processed when the dispatching
 * process runs its deferred callbacks, as Laravel does when a command ends):
 * while one is queued, another dispatch of it is dropped; once it runs, the
 * job can be queued and run again at the same time. A dispatcher killed with
 * its job still queued keeps the job out until uniqueFor (2 s) has passed.
 *
 * uniqueFor 0 (Laravel: unique until processed, however long that takes): the
 * store's lock for 0 seconds is a lease renewed while the dispatching process
 * runs (the store's 'lease' => 2), so once that process has ended it lasts
 * one lease more, not until the job is processed. Give unique jobs a
 * uniqueFor when they may wait in a queue longer than the lease.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

need_laravel();
need(class_exists(Illuminate\Queue\DeferredQueue::class), 'needs Laravel 11+ (the deferred queue)');

use Illuminate\Bus\Queueable;
use Illuminate\Contracts\Queue\ShouldBeUnique;
use Illuminate\Contracts\Queue\ShouldBeUniqueUntilProcessing;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\InteractsWithQueue;

abstract class ReportJob implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public $uniqueFor = 2;

    public function __construct(public bool $hold)
    {
    }

    public function uniqueId(): string
    {
        return 'report-7';
    }

    public function handle(): void
    {
        out('ran');
        if ($this->hold) {
            in(); // until the test says so, or is killed
        }
    }
}

final class UniqueReport extends ReportJob implements ShouldBeUnique
{
}

final class UntilProcessingReport extends ReportJob implements ShouldBeUniqueUntilProcessing
{
}

/** uniqueFor 0 (Laravel's default): unique until processed; here a renewed lease. */
final class UniqueUntilDoneReport extends ReportJob implements ShouldBeUnique
{
    public $uniqueFor = 0;
}

$laravel = fn () => laravel_app(['cache' => laravel_cache_config(), 'queue' => laravel_queue_config()]);

roles([
    // Dispatches UniqueReport on the sync queue: "ran" when it ran, then "end".
    'dispatch' => function (string $hold) use ($laravel): void {
        $laravel();
        UniqueReport::dispatch($hold === '1');
        out('end');
    },
    // Queues UniqueUntilDoneReport (deferred) and ends without processing it,
    // as a web request that pushes a job to a queue does: "queued N".
    'enqueue-and-exit' => function () use ($laravel): void {
        $laravel();
        UniqueUntilDoneReport::dispatch(false)->onConnection('deferred');
        out('queued ' . count(Illuminate\Support\defer()));
    },
    // Dispatches UntilProcessingReport on the deferred queue: "queued N" (N
    // jobs waiting in this process); then, when told, processes them.
    'enqueue' => function (string $hold) use ($laravel): void {
        $laravel();
        UntilProcessingReport::dispatch($hold === '1')->onConnection('deferred');
        out('queued ' . count(Illuminate\Support\defer()));
        if (in() === 'process') {
            Illuminate\Support\defer()->invoke();
        }
        out('end');
    },
]);

$redis = e2e_redis();
$uniqueKey = fn () => array_key_first(ttls($redis, 'lock:app:laravel_unique_job:*'));

// ---- ShouldBeUnique
$runner = spawn('dispatch', '1');
$runner->expect('ran');
$key = $uniqueKey();
check($key !== null && $redis->pttl($key) > 0 && $redis->pttl($key) <= 2000, "the unique lock is our key $key, TTL <= uniqueFor");
check($redis->get($key) !== null && count($redis->keys()) === 1, 'it is the only key');
[$lines] = spawn('dispatch', '0')->finish();
check($lines === ['end'], 'another dispatch while the job runs is dropped (its handle() does not run)');
$runner->send('done');
[$lines] = $runner->finish();
check($lines === ['end'], 'the first job completes');
check($redis->keys() === [], 'its lock is released after processing: no key left');
[$lines] = spawn('dispatch', '0')->finish();
check($lines === ['ran', 'end'], 'the next dispatch runs');

$runner = spawn('dispatch', '1');
$ran = $runner->expect('ran');
$key = $uniqueKey();
$owner = $redis->get($key);
$runner->kill();
$runner->wait();
check(spawn('dispatch', '0')->finish()[0] === ['end'] && $redis->get($key) === $owner, 'after SIGKILL of the process running it, a dispatch is still dropped');
$gone = changed($redis, $key, $owner);
check($gone - $ran > 1.2 && $gone - $ran < 2.4, sprintf('the unique lock runs out %.2f s after the killed one started the job (uniqueFor 2 s)', $gone - $ran));
check(spawn('dispatch', '0')->finish()[0] === ['ran', 'end'], 'then a dispatch runs');
check($redis->keys() === [], 'no key left');

// ---- ShouldBeUniqueUntilProcessing
$first = spawn('enqueue', '1');
[$line] = $first->read();
check($line === 'queued 1', 'a job is queued');
$key = $uniqueKey();
check($key !== null && $redis->pttl($key) > 0 && $redis->pttl($key) <= 2000, "while it waits, the unique lock $key is held, TTL <= uniqueFor");
$second = spawn('enqueue', '0');
[$line] = $second->read();
check($line === 'queued 0', 'another dispatch while it is queued is dropped');
$second->send('process');
check($second->finish()[0] === ['end'], 'that process has nothing to run');
$first->send('process');
$first->expect('ran');
check($redis->keys() === [], 'the lock is released when processing starts');
$third = spawn('enqueue', '0');
[$line] = $third->read();
check($line === 'queued 1', 'while the first runs, the job can be queued again ...');
$third->send('process');
check($third->finish()[0] === ['ran', 'end'], '... and runs at the same time');
$first->send('done');
check($first->finish()[0] === ['end'], 'the first completes');
check($redis->keys() === [], 'no key left');

$dispatcher = spawn('enqueue', '0');
[$line, $queued] = $dispatcher->read();
check($line === 'queued 1', 'a job is queued by a process that is then killed');
$key = $uniqueKey();
$owner = $redis->get($key);
$dispatcher->kill();
$dispatcher->wait();
$next = spawn('enqueue', '0');
check($next->read()[0] === 'queued 0' && $redis->get($key) === $owner, 'after SIGKILL of that process, a dispatch is still dropped');
$next->send('process');
$next->finish();
$gone = changed($redis, $key, $owner);
check($gone - $queued > 1.2 && $gone - $queued < 2.4, sprintf('the unique lock runs out %.2f s after the job was queued (uniqueFor 2 s)', $gone - $queued));
$next = spawn('enqueue', '0');
check($next->read()[0] === 'queued 1', 'then the job is queued again');
$next->send('process');
check($next->finish()[0] === ['ran', 'end'], 'and runs');
check($redis->keys() === [], 'no key left');

// ---- uniqueFor 0: one lease after the dispatching process
$dispatcher = spawn('enqueue-and-exit');
check($dispatcher->read()[0] === 'queued 1', 'a job with uniqueFor 0 is queued by a process that then ends');
$key = array_key_first(ttls($redis, 'lock:app:laravel_unique_job:*'));
$owner = $redis->get($key);
check($dispatcher->finish()[1] === 0, 'that process ended');
$ended = microtime(true);
$ttl = $redis->pttl($key);
check($owner !== null && $ttl > 0 && $ttl <= 2000, "its unique lock $key is a 2 s lease: PTTL $ttl ms");
$gone = changed($redis, $key, $owner);
// Renewed every third of the lease while the process ran.
check($gone - $ended > 0.9 && $gone - $ended < 2.4, sprintf('it runs out %.2f s after the process ended (lease 2 s), the job still unprocessed', $gone - $ended));

passed();
