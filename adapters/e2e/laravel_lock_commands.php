<?php

/*
 * The operator's artisan commands on stuck Laravel locks of the redis_lock
 * cache store (the default store): a scheduler killed (SIGKILL) while running
 * a withoutOverlapping() task leaves its mutex for 24 hours, a queue worker
 * killed in a unique job leaves the job's lock for its uniqueFor, one killed
 * in a WithoutOverlapping job leaves the middleware's lock for its
 * expireAfter (an hour here). `php artisan redis-lock:list` shows them by the
 * names Laravel gave them (the schedule's task by its name, the jobs by
 * their class and key) with the killed processes as holders, the lock taken
 * inside the job labelled with the job; `redis-lock:show` gives the details;
 * `redis-lock:release` frees each by that name, and the task and the jobs
 * run again.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

need_laravel();
need(class_exists(Illuminate\Console\View\Components\Factory::class), 'needs Laravel 9+ console components');
need(method_exists(RedisLock::class, 'locks'), 'this build of the extension has no RedisLock::locks()');

use Illuminate\Bus\Queueable;
use Illuminate\Console\Scheduling\Schedule;
use Illuminate\Contracts\Queue\ShouldBeUnique;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\InteractsWithQueue;
use Illuminate\Queue\Middleware\WithoutOverlapping;
use Symfony\Component\Console\Input\ArgvInput;
use Symfony\Component\Console\Output\BufferedOutput;

final class MonthlyReport implements ShouldQueue, ShouldBeUnique
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public $uniqueFor = 3600;

    public function __construct(public bool $hold)
    {
    }

    public function uniqueId(): string
    {
        return '2026-11';
    }

    public function handle(): void
    {
        out('ran job');
        if ($this->hold) {
            in(); // until killed
        }
    }
}

final class ImportJob implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public function __construct(public bool $hold)
    {
    }

    public function middleware(): array
    {
        return [(new WithoutOverlapping('import'))->expireAfter(3600)];
    }

    public function handle(): void
    {
        out('ran import');
        if ($this->hold) {
            in(); // until killed
        }
    }
}

$laravel = fn (bool $hold = false) => laravel_app(
    ['cache' => laravel_cache_config(lease: 2), 'queue' => laravel_queue_config()],
    schedule: function (Schedule $schedule) use ($hold): void {
        $schedule->call(function () use ($hold): void {
            out('ran task');
            if ($hold) {
                in(); // until killed
            }
        })->name('nightly-report')->everyMinute()->withoutOverlapping();
    },
);

roles([
    // `php artisan schedule:run`: "ran task" when it ran the task, then "end".
    'schedule' => function (string $hold) use ($laravel): void {
        artisan($laravel($hold === '1'), 'schedule:run');
        out('end');
    },
    // Dispatches the unique job (sync queue: runs it here); "ran job" when it ran, then "end".
    'dispatch' => function (string $hold) use ($laravel): void {
        $laravel();
        MonthlyReport::dispatch($hold === '1');
        out('end');
    },
    // Dispatches the WithoutOverlapping job (runs here); "ran import" when it ran, then "end".
    'import' => function (string $hold) use ($laravel): void {
        $laravel();
        ImportJob::dispatch($hold === '1');
        out('end');
    },
]);

$redis = e2e_redis();
$app = $laravel();

/** @return array{int, string} an artisan command line's exit code and output */
$artisan = function (string ...$args) use ($app): array {
    $output = new BufferedOutput();
    $status = $app->make(Illuminate\Contracts\Console\Kernel::class)->handle(new ArgvInput(['artisan', ...$args]), $output);

    return [$status, $output->fetch()];
};

// Stuck: both holders killed mid-work.
$scheduler = spawn('schedule', '1');
$scheduler->expect('ran task');
$worker = spawn('dispatch', '1');
$worker->expect('ran job');
$importer = spawn('import', '1');
$importer->expect('ran import');
foreach ([$scheduler, $worker, $importer] as $process) {
    $process->kill();
    $process->wait();
}
check(spawn('schedule', '0')->finish()[0] === ['end'], 'the killed scheduler\'s mutex keeps the task out');
check(spawn('dispatch', '0')->finish()[0] === ['end'], 'the killed worker\'s unique lock keeps the job out');
check(spawn('import', '0')->finish()[0] === ['end'], 'the killed worker\'s WithoutOverlapping lock keeps the job out');

[$status, $out] = $artisan('redis-lock:list', '--json');
$locks = json_decode($out, true);
check($status === 0 && is_array($locks) && count($locks) === 3, 'redis-lock:list --json lists the three locks: ' . $out);
$byWhat = array_column($locks, null, 'what');
$task = $byWhat['schedule: nightly-report (withoutOverlapping)'] ?? null;
$job = $byWhat['unique job MonthlyReport (2026-11)'] ?? null;
$import = $byWhat['WithoutOverlapping ImportJob (import)'] ?? null;
check($task !== null && str_starts_with($task['name'], 'framework/schedule-'), 'the scheduler\'s mutex is named by its task: ' . json_encode($task['name'] ?? null));
check($job !== null && $job['name'] === 'laravel_unique_job:MonthlyReport:2026-11', 'the unique job\'s lock is named by its class and unique id');
check($import !== null && $import['name'] === 'laravel-queue-overlap:ImportJob:import', 'the WithoutOverlapping job\'s lock is named by its class and key');
check($task['holders'][0]['pid'] === $scheduler->pid && $job['holders'][0]['pid'] === $worker->pid && $import['holders'][0]['pid'] === $importer->pid, 'their holders are the killed processes');
check($import['holders'][0]['label'] === 'ImportJob', 'the lock taken inside the job carries the job\'s label: ' . json_encode($import['holders'][0]['label']));
check($task['ttl_ms'] > 86_000_000 && $job['ttl_ms'] > 3_500_000 && $job['ttl_ms'] <= 3_600_000, sprintf('TTLs: the mutex a day (%d ms), the job uniqueFor (%d ms)', $task['ttl_ms'], $job['ttl_ms']));

[$status, $out] = $artisan('redis-lock:list');
check($status === 0 && str_contains($out, 'laravel_unique_job:MonthlyReport:2026-11') && str_contains($out, 'schedule: nightly-report')
    && str_contains($out, ':' . $scheduler->pid) && str_contains($out, ':' . $worker->pid), "redis-lock:list shows them with their holders:\n" . $out);

[$status, $out] = $artisan('redis-lock:show', 'laravel_unique_job:MonthlyReport:2026-11');
check($status === 0 && str_contains($out, 'lock:app:laravel_unique_job:MonthlyReport:2026-11') && str_contains($out, (string) $worker->pid), "redis-lock:show gives the Redis key and the holder:\n" . $out);

[$status, $out] = $artisan('redis-lock:release', $task['name'], '--no-interaction');
check($status === 0 && str_contains($out, 'Released the lock'), "redis-lock:release frees the task's mutex by its name:\n" . $out);
check(spawn('schedule', '0')->finish()[0] === ['ran task', 'end'], 'then the scheduler runs the task again');

[$status, $out] = $artisan('redis-lock:release', 'laravel_unique_job:MonthlyReport:2026-11', '--owner=' . $job['holders'][0]['token'], '--force');
check($status === 0, "redis-lock:release --owner frees the unique job's lock:\n" . $out);
check(spawn('dispatch', '0')->finish()[0] === ['ran job', 'end'], 'then the job runs again');

[$status, $out] = $artisan('redis-lock:release', 'laravel-queue-overlap:ImportJob:import', '--force');
check($status === 0, "redis-lock:release --force frees the WithoutOverlapping job's lock:\n" . $out);
check(spawn('import', '0')->finish()[0] === ['ran import', 'end'], 'then that job runs again');

[$status, $out] = $artisan('redis-lock:list', '--json');
check($status === 0 && json_decode($out, true) === [], 'no lock left: ' . $out);
check($redis->keys('lock:*') === [], 'no lock key left in Redis');

passed();
