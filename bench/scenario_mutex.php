<?php
/**
 * Scenario: uncontended lock+release cycles per second on one throwaway
 * Redis server, RedisMutexLock beside what PHP applications use today.
 * Progress goes to stderr; the Markdown result to stdout.
 *
 *   BENCH_ROUNDS (default 5), BENCH_SECONDS per run (default 1)
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

$rounds = (int) (getenv('BENCH_ROUNDS') ?: 5);
$seconds = (float) (getenv('BENCH_SECONDS') ?: 1);
$reference = 'redis_mutex_lock';
$floor = 'phpredis_floor';
$labels = [
    'redis_mutex_lock' => 'RedisMutexLock',
    'phpredis_floor' => 'phpredis SET NX PX + EVAL (hand-written floor)',
    'laravel' => 'Laravel 8 RedisLock (phpredis)',
    'symfony' => 'symfony/lock 5.4 RedisStore (phpredis)',
];

try {
    $server = RedisServer::start();
    note("redis-server {$server->version()} on {$server->host}:{$server->port}; "
        . "$rounds rounds × " . count($labels) . " implementations × {$seconds} s");

    $results = run_rounds(array_keys($labels), [$server], $rounds, $seconds,
        ['redis_lock.server' => $server->dsn()]);

    $usPerCycle = fn (string $name) => median(array_map(fn ($r) => 1e6 / $r['rate'], $results[$name]));
    $refUs = $usPerCycle($reference);
    $floorUs = $usPerCycle($floor);
    $ratio = $refUs / $floorUs;

    echo "### Uncontended lock + release, one Redis server (loopback)\n\n";
    echo table($results, $labels, $reference), "\n";
    printf("Target: RedisMutexLock cycle time ≤ 1.00× the phpredis floor — %s (%.2f×, %+.1f µs/cycle).\n\n",
        $ratio <= 1.0 ? 'met' : 'NOT met', $ratio, $refUs - $floorUs);
    printf("Medians over %d interleaved rounds of %s s per implementation (rotating order, one PHP process per run, "
        . "one reused client per process, TTL %d s, same key each cycle); every cycle succeeded.\n\n",
        $rounds, $seconds, TTL_SECONDS);
    $noisy = array_filter($results, function (array $runs): bool {
        $rates = array_column($runs, 'rate');
        return max($rates) > 1.25 * min($rates);
    });
    if ($noisy) {
        echo 'Noisy machine: the rounds of ', implode(', ', array_map(fn ($n) => $labels[$n], array_keys($noisy))),
            " differ by more than 25 % between their fastest and slowest round (below); other load on the machine "
            . "(see /proc/pressure/cpu) moves all of them. Rerun on a quiet machine or with more rounds.\n\n";
    }
    echo 'Machine: ', machine_facts($server), "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";

    echo "<details><summary>per round: cycles/s; CPU time of the PHP process per cycle</summary>\n\n";
    echo "| implementation | cycles/s per round | CPU µs/cycle (median) |\n|---|---|---:|\n";
    foreach ($results as $name => $runs) {
        printf("| %s | %s | %.1f |\n", $labels[$name],
            implode(', ', array_map(fn ($r) => number_format($r['rate']), $runs)), median(array_column($runs, 'cpu')));
    }
    echo "\n</details>\n";
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
}
