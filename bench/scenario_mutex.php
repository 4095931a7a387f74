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

    $refUs = 1e6 / median($results[$reference]);
    $floorUs = 1e6 / median($results[$floor]);
    $ratio = $refUs / $floorUs;
    $perRound = implode("\n", array_map(
        fn ($name) => sprintf('- %s: %s', $labels[$name], implode(', ', array_map(fn ($r) => number_format($r), $results[$name]))),
        array_keys($results)));

    echo "### Uncontended lock + release, one Redis server (loopback)\n\n";
    echo table($results, $labels, $reference), "\n";
    printf("Target: RedisMutexLock cycle time ≤ 1.00× the phpredis floor — %s (%.2f×, %+.1f µs/cycle).\n\n",
        $ratio <= 1.0 ? 'met' : 'NOT met', $ratio, $refUs - $floorUs);
    printf("Medians over %d interleaved rounds of %s s per implementation (rotating order, one PHP process per run, "
        . "one reused client per process, TTL %d s, same key each cycle); every cycle succeeded.\n\n",
        $rounds, $seconds, TTL_SECONDS);
    echo 'Machine: ', machine_facts($server), "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";
    echo "<details><summary>cycles/s per round</summary>\n\n$perRound\n\n</details>\n";
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
}
