<?php

/*
 * Laravel's scheduler (routes/console.php's Schedule, `php artisan
 * schedule:run`) on the redis_lock cache store (the default store, where the
 * scheduler keeps its mutexes), with two scheduler processes.
 *
 * - withoutOverlapping(0): while one scheduler runs the task, the other's
 *   schedule:run leaves it out; the lock is a renewed lease (the store's
 *   'lease' => 2), so a task that runs longer than the lease stays alone, and
 *   a scheduler killed with SIGKILL keeps the task out for at most the lease.
 * - withoutOverlapping() (Laravel's default: 1440 minutes): a killed
 *   scheduler's lock lives 24 hours, as on any store; `schedule:clear-cache`
 *   releases it.
 * - onOneServer(): two schedulers of the same minute: exactly one runs the
 *   task; the minute's claim stays (an hour, as Laravel sets it), so a later
 *   schedule:run of that minute leaves it out too.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

need_laravel();

use Illuminate\Console\Scheduling\Schedule;

$laravel = fn (string $event, bool $hold) => laravel_app(
    ['cache' => laravel_cache_config(lease: 2), 'queue' => laravel_queue_config()],
    schedule: function (Schedule $schedule) use ($event, $hold): void {
        $task = function () use ($event, $hold): void {
            out("ran $event");
            if ($hold) {
                in(); // until the test says so, or is killed
            }
        };
        $event = $schedule->call($task)->name($event)->everyMinute();
        match ($event->description) {
            'lease' => $event->withoutOverlapping(0),
            'day' => $event->withoutOverlapping(),
            'one' => $event->onOneServer(),
        };
    },
);

roles([
    // `php artisan schedule:run` with the one task $event: "ran $event" when it ran it, then "end".
    'schedule' => function (string $event, string $hold) use ($laravel): void {
        $status = artisan($laravel($event, $hold === '1'), 'schedule:run');
        out("end $status");
    },
    'clear' => function () use ($laravel): void {
        $status = artisan($laravel('day', false), 'schedule:clear-cache');
        out("end $status");
    },
]);

$redis = e2e_redis();
$run = fn (string $event) => spawn('schedule', $event, '0')->finish()[0];

// ---- withoutOverlapping(0): a renewed lease
$holder = spawn('schedule', 'lease', '1');
$holder->expect('ran lease');
$keys = ttls($redis);
check(count($keys) === 1 && str_starts_with((string) array_key_first($keys), 'lock:app:framework/schedule-') && current($keys) <= 2000,
    'the task\'s mutex is our key lock:app:framework/schedule-…, a 2 s lease: ' . json_encode($keys));
check($run('lease') === ['end 0'], 'the other scheduler leaves the task out while it runs');
usleep(2_600_000);
check($run('lease') === ['end 0'], 'still so 2.6 s later (the lease is renewed while the task runs)');
$holder->send('done');
check($holder->finish()[0] === ['end 0'], 'the task completes');
check($redis->keys() === [], 'its mutex is released: no key left');
check($run('lease') === ['ran lease', 'end 0'], 'the next schedule:run runs it');

$holder = spawn('schedule', 'lease', '1');
$holder->expect('ran lease');
$key = array_key_first(ttls($redis));
$owner = $redis->get($key);
$killed = microtime(true);
$holder->kill();
$holder->wait();
check($run('lease') === ['end 0'] && $redis->get($key) === $owner, 'after SIGKILL of the scheduler running it, the task is still left out');
$gone = changed($redis, $key, $owner);
// Renewed every third of the lease, the lock has about 2/3 of it or more left at any time.
check($gone - $killed > 0.9 && $gone - $killed < 2.0 + 0.4, sprintf('its mutex runs out %.2f s after the kill (lease 2 s)', $gone - $killed));
check($run('lease') === ['ran lease', 'end 0'], 'then schedule:run runs the task');
check($redis->keys() === [], 'no key left');

// ---- withoutOverlapping(): 24 hours, schedule:clear-cache
$holder = spawn('schedule', 'day', '1');
$holder->expect('ran day');
$holder->kill();
$holder->wait();
$ttl = current(ttls($redis));
check($ttl > 86_390_000 && $ttl <= 86_400_000, "a killed scheduler's default mutex lives 24 h: PTTL $ttl ms");
check($run('day') === ['end 0'], 'the task is left out after the kill');
check(spawn('clear')->finish()[0] === ['end 0'], 'schedule:clear-cache');
check($redis->keys() === [], 'it released the mutex');
check($run('day') === ['ran day', 'end 0'], 'the next schedule:run runs the task');

// ---- onOneServer(): both schedulers in the same minute
if ((int) date('s') > 54) {
    sleep(61 - (int) date('s')); // both must start in the same minute
}
$a = spawn('schedule', 'one', '0');
$b = spawn('schedule', 'one', '0');
$lines = array_merge($a->finish()[0], $b->finish()[0]);
sort($lines);
check($lines === ['end 0', 'end 0', 'ran one'], 'of two schedulers of the same minute, exactly one runs the task: ' . json_encode($lines));
$keys = ttls($redis);
check(count($keys) === 1 && preg_match('/^lock:app:framework\/schedule-[0-9a-f]{40}\d{4}$/', (string) array_key_first($keys)) && current($keys) > 3_590_000 && current($keys) <= 3_600_000,
    'the minute\'s claim is our key, held for an hour: ' . json_encode($keys));
if ((int) date('s') < 58) {
    check($run('one') === ['end 0'], 'a later schedule:run in the same minute leaves it out');
}

passed();
