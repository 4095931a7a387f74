<?php

/*
 * Laravel's isolated commands (Illuminate\Contracts\Console\Isolatable, run
 * with --isolated) on the redis_lock cache store (the default store), in two
 * artisan processes: while one runs the command, the other does not run it
 * and exits with the code --isolated gives; afterwards it runs again. A
 * process killed with SIGKILL while running it keeps the command out until
 * its isolationLockExpiresAt() (2 s) has passed.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

need_laravel();
need(interface_exists(Illuminate\Contracts\Console\Isolatable::class), 'needs Laravel 9+ (Isolatable)');

use Carbon\CarbonInterval;
use Illuminate\Console\Command;
use Illuminate\Contracts\Console\Isolatable;

final class ImportCommand extends Command implements Isolatable
{
    protected $signature = 'e2e:import {--hold}';

    public function handle(): int
    {
        out('ran');
        if ($this->option('hold')) {
            in(); // until the test says so, or is killed
        }

        return self::SUCCESS;
    }

    public function isolationLockExpiresAt(): CarbonInterval
    {
        return CarbonInterval::seconds(2);
    }
}

roles([
    // php artisan e2e:import --isolated=3 [--hold]: "ran" when it ran, then "end <exit code>".
    'artisan' => function (string $hold): void {
        $app = laravel_app(['cache' => laravel_cache_config(), 'queue' => laravel_queue_config()], [ImportCommand::class]);
        out('end ' . artisan($app, 'e2e:import', '--isolated=3', ...($hold === '1' ? ['--hold'] : [])));
    },
]);

$redis = e2e_redis();
$run = fn () => spawn('artisan', '0')->finish()[0];

$holder = spawn('artisan', '1');
$holder->expect('ran');
$keys = ttls($redis);
check(array_keys($keys) === ['lock:app:framework/command-e2e:import'] && current($keys) > 0 && current($keys) <= 2000,
    'the isolation mutex is our key, TTL <= 2 s: ' . json_encode($keys));
check($run() === ['end 3'], 'a second run does not run the command and exits with --isolated\'s code 3');
$holder->send('done');
check($holder->finish()[0] === ['end 0'], 'the first run completes');
check($redis->keys() === [], 'its mutex is released: no key left');
check($run() === ['ran', 'end 0'], 'the next run runs the command');

$holder = spawn('artisan', '1');
$ran = $holder->expect('ran');
$key = 'lock:app:framework/command-e2e:import';
$owner = $redis->get($key);
$holder->kill();
$holder->wait();
check($run() === ['end 3'] && $redis->get($key) === $owner, 'after SIGKILL of the running one, a run is still refused');
$gone = changed($redis, $key, $owner);
// Laravel turns the interval into whole seconds from two clock readings: 2, or 1 across a second's boundary.
check($gone - $ran > 0.8 && $gone - $ran < 2.4, sprintf('the mutex runs out %.2f s after the killed one started (isolationLockExpiresAt 2 s)', $gone - $ran));
check($run() === ['ran', 'end 0'], 'then a run runs the command');
check($redis->keys() === [], 'no key left');

passed();
