<?php
/**
 * Scenario: what replica acknowledgement (wait_replicas) buys and costs on a
 * Sentinel-managed master, with the test suite's real Sentinel setup (a
 * master, a replica, 3 sentinels; php-tests/inc/sentinel.inc).
 *  1. Lost updates under planned failovers (rl_failover_contention()): W
 *     workers, each a chain of short-lived processes, increment a counter
 *     on a separate server inside RedisMutexLock::lock($key, 10, 1) while
 *     SENTINEL FAILOVER runs, alternately without and with wait_replicas=1;
 *     a lost update is a section whose increment another holder overwrote
 *     (sections done − counter). The former master is made a replica 2 s
 *     after the sentinels name the new one (they take about 8 s
 *     themselves): meanwhile it still takes the writes of the clients that
 *     know it. With a 1 s TTL, a lock the new master got by replication
 *     frees there 1 s after the promotion.
 *  2. The cost of acknowledgement: the uncontended lock() + release() cycle
 *     with wait_replicas 0 and 1, interleaved round by round.
 * Progress goes to stderr; the Markdown result to stdout.
 *
 *   BENCH_FAILOVERS (default 4: per mode), BENCH_FAILOVER_WORKERS (default 8),
 *   BENCH_FAILOVER_SECTION_US (default 2000), BENCH_ROUNDS (default 20),
 *   BENCH_SECONDS per cycle measurement per round (default 0.25)
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';
require __DIR__ . '/../php-tests/inc/sentinel.inc';

$failovers = (int) (getenv('BENCH_FAILOVERS') ?: 4);
$workers = (int) (getenv('BENCH_FAILOVER_WORKERS') ?: 8);
$sectionUs = (int) (getenv('BENCH_FAILOVER_SECTION_US') ?: 2000);
$rounds = (int) (getenv('BENCH_ROUNDS') ?: 20);
$seconds = (float) (getenv('BENCH_SECONDS') ?: 0.25);

try {
    $s = \RlSentinels::start();
    $book = \RedisServer::start();
    note("Sentinel setup up; $failovers failovers per mode, $workers workers, {$sectionUs} µs sections; cycle: $rounds rounds × {$seconds} s");

    // 1. Lost updates, the two modes alternating.
    $tally = ['off' => [0, 0, 0, 0, 0, 0], 'on' => [0, 0, 0, 0, 0, 0]];
    for ($i = 0; $i < $failovers; $i++) {
        foreach (['off' => '', 'on' => '?wait_replicas=1'] as $mode => $query) {
            $r = \rl_failover_contention($s, $book, $s->dsn() . $query, $workers, $sectionUs);
            $refused = array_sum(array_filter($r['errors'], fn ($m) => str_contains($m, 'replicas redis_lock.wait_replicas asks for'), ARRAY_FILTER_USE_KEY));
            $row = [1, $r['sections'], $r['lost'], $r['overlaps'], $refused, array_sum($r['errors']) - $refused];
            note("failover $mode #" . ($i + 1) . ': ' . json_encode($r));
            foreach ($row as $k => $v) {
                $tally[$mode][$k] += $v;
            }
        }
    }

    // 2. The cost of acknowledgement, uncontended.
    $us = ['off' => [], 'on' => []];
    for ($round = 0; $round < $rounds; $round++) {
        foreach (['off' => '', 'on' => '?wait_replicas=1'] as $mode => $query) {
            ini_set('redis_lock.server', $s->dsn() . $query);
            $us[$mode][] = 1e6 / rate(fn () => \RedisMutexLock::lock('cycle') && \RedisMutexLock::release('cycle'), $seconds);
        }
    }

    echo "### Replica acknowledgement on a Sentinel-managed master (1 master, 1 replica, 3 sentinels, loopback)\n\n";
    echo "Lost updates under planned failovers (`SENTINEL FAILOVER` while $workers processes increment a counter on another server inside `lock(\$key, 10)`, $sectionUs µs sections):\n\n";
    echo "| `wait_replicas` | failovers | sections | lost updates | sections begun while another was inside | locks refused (too few replicas in 0.2 s) | other exceptions |\n|---|---:|---:|---:|---:|---:|---:|\n";
    foreach (['off' => '0 (off)', 'on' => '1'] as $mode => $label) {
        printf("| %s | %d | %d | %d | %d | %d | %d |\n", $label, ...$tally[$mode]);
    }
    printf("\nThe cost per uncontended `lock()` + `release()` (medians of %d interleaved rounds of %s s): %.1f µs without, %.1f µs with `wait_replicas=1` (+%.1f µs: one `WAIT` round trip, which returns once the replica acknowledged).\n\n",
        $rounds, $seconds, median($us['off']), median($us['on']), median($us['on']) - median($us['off']));
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
}
