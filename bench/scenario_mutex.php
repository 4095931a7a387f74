<?php
/**
 * Scenario: uncontended lock+release cycles per second on one throwaway
 * Redis server, RedisMutexLock beside what PHP applications use today, and
 * the server's work per cycle (INFO commandstats and INFO cpu, read around
 * each run). Progress goes to stderr; the Markdown result to stdout; the
 * measures against the targets also to targets/mutex.json (bench/targets.php).
 *
 *   BENCH_ROUNDS (default 20), BENCH_SECONDS per implementation per round (default 0.25)
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

$rounds = (int) (getenv('BENCH_ROUNDS') ?: 20);
$seconds = (float) (getenv('BENCH_SECONDS') ?: 0.25);
$reference = 'redis_mutex_lock';
$floor = 'phpredis_floor';
$labels = [
    'redis_mutex_lock' => 'RedisMutexLock',
    'phpredis_floor' => 'phpredis SET NX PX + EVAL (hand-written floor)',
    'laravel' => 'Laravel 8 RedisStore::lock() → PhpRedisLock (phpredis)',
    'symfony' => 'symfony/lock 5.4 RedisStore (phpredis)',
];

try {
    $server = RedisServer::start();
    note("{$server->version()} on {$server->host}:{$server->port}; "
        . "$rounds rounds × " . count($labels) . " implementations × {$seconds} s");

    $mark = pressure_mark();
    $results = run_rounds(array_keys($labels), [$server], $rounds, $seconds,
        ['redis_lock.server' => $server->dsn()], [], Masters::of($server->dsn()));
    $pressure = cpu_pressure_since($mark);

    $usPerCycle = fn (string $name) => median(array_map(fn ($r) => 1e6 / $r['rate'], $results[$name]));
    $refUs = $usPerCycle($reference);
    $floorUs = $usPerCycle($floor);
    $ratio = $refUs / $floorUs;

    echo "### Uncontended lock + release, one Redis server (loopback)\n\n";
    echo table($results, $labels, $reference), "\n";
    chart('mutex', ['kind' => 'bars', 'title' => 'Uncontended lock + release, one Redis (loopback)',
        'unit' => 'µs per cycle (lower is better)', 'bars' => cycle_bars($results, $labels)]);
    // The same ratio round by round (each round's two runs are close in time), less exposed to drifting load.
    $paired = median(array_map(fn ($a, $b) => $b['rate'] / $a['rate'], $results[$reference], $results[$floor]));
    printf("Target: RedisMutexLock cycle time ≤ 1.00× the phpredis floor — %s (%.2f×, %+.1f µs/cycle; "
        . "median of the per-round ratios %.2f×).\n\n",
        $ratio <= 1.0 ? 'met' : 'NOT met', $ratio, $refUs - $floorUs, $paired);
    $work = server_work_summary($results);
    echo "#### The Redis server's work per lock + release cycle (same runs)\n\n";
    echo server_work_table($work, $labels, $floor, 'phpredis floor'), "\n";
    echo "Server CPU = INFO cpu used_cpu_user + used_cpu_sys, read before and after each implementation's run (outside its "
        . "timing; only that implementation talks to the server meanwhile) over the run's cycles, median over rounds; it "
        . "includes the server's background work (serverCron) during the run and the harness's own INFO calls, a few tens "
        . "of µs per run over thousands of cycles. commandstats usec = the usec of every command in INFO commandstats, "
        . "summed, median over rounds; a Lua script's usec already includes the commands it runs, which commandstats also "
        . "lists on their own, so a scripted release counts its GET and DEL twice in this sum. Commands per cycle: every "
        . "command commandstats counted (also those a script runs: EVAL/EVALSHA + GET + DEL for a compare-and-delete), "
        . "over every round's cycles together; the harness's INFO calls are left out of both counts.\n\n";
    target_facts('mutex', [
        'server' => $server->version(),
        'ratio' => $ratio, 'paired' => $paired, 'us' => $refUs, 'floorUs' => $floorUs,
        'cpu' => $work[$reference]['cpu'], 'floorCpu' => $work[$floor]['cpu'],
        'rounds' => $rounds, 'seconds' => $seconds,
    ]);
    printf("Medians over %d interleaved rounds of %s s per implementation (rotating order; one long-lived PHP process "
        . "per implementation with one reused client; TTL %d s, same key each cycle); every cycle succeeded.\n\n",
        $rounds, $seconds, TTL_SECONDS);
    echo noise_note($results, $labels, $pressure);
    echo 'Machine: ', machine_facts($server), "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";

    echo spread_details($results, $labels);
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
}
