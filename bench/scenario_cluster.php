<?php
/**
 * Scenario: RedisMutexLock on a Redis Cluster of its own (ClusterServers:
 * 3 masters, no replicas, throwaway redis-servers on loopback ports).
 * Progress goes to stderr; the Markdown result to stdout.
 *
 *  1. Uncontended lock + release cycles on keys spread over the masters:
 *     RedisMutexLock with a redis-cluster:// DSN beside a hand-written lock
 *     on phpredis RedisCluster, and RedisMutexLock on one standalone
 *     redis-server for comparison; interleaved rounds as in scenario_mutex.php.
 *  2. Hand-off under contention on the same cluster: scenario_contention.php
 *     with BENCH_CONTENTION_DSN set to the cluster, RedisMutexLock only.
 *
 *   BENCH_CLUSTER_ROUNDS (default 10), BENCH_CLUSTER_SECONDS per implementation per round (default 0.5)
 *   BENCH_CLUSTER_K                   process counts of part 2 (default "4 16")
 *   BENCH_CLUSTER_CONTENTION_SECONDS  seconds per K of part 2 (default 5); the critical section and the
 *                                     work outside it as in the contention scenario
 *                                     (BENCH_CONTENTION_SECTION_US, BENCH_CONTENTION_OUTSIDE_US)
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

$rounds = (int) (getenv('BENCH_CLUSTER_ROUNDS') ?: 10);
$seconds = (float) (getenv('BENCH_CLUSTER_SECONDS') ?: 0.5);
$ks = (string) (getenv('BENCH_CLUSTER_K') ?: '4 16');
$contentionSeconds = (string) (getenv('BENCH_CLUSTER_CONTENTION_SECONDS') ?: 5);
$reference = 'redis_mutex_lock_cluster';
$labels = [
    'redis_mutex_lock_cluster' => 'RedisMutexLock, redis-cluster:// DSN',
    'phpredis_cluster' => 'phpredis RedisCluster: SET NX PX + EVALSHA (EVAL after NOSCRIPT), hand-written',
    'redis_mutex_lock' => 'RedisMutexLock on one standalone redis-server (for comparison; the same key every cycle)',
];

$status = 0;
try {
    $cluster = ClusterServers::start(3);
    $single = RedisServer::start();
    note(sprintf('Redis Cluster %s, standalone redis-server %s; %d rounds × %d implementations × %s s, '
        . 'then contention at K = %s, %s s each', $cluster->dsn(), $single->dsn(), $rounds, count($labels), $seconds,
        $ks, $contentionSeconds));

    $onCluster = [$cluster->nodes, ['redis_lock.server' => $cluster->dsn()]];
    $mark = pressure_mark();
    $results = run_rounds_each([
        'redis_mutex_lock_cluster' => $onCluster,
        'phpredis_cluster' => $onCluster,
        'redis_mutex_lock' => [[$single], ['redis_lock.server' => $single->dsn()]],
    ], $rounds, $seconds, ['redis-servers' => [...$cluster->pids(), $single->pid()]]);
    $pressure = cpu_pressure_since($mark);
    $single->stop();

    echo "### Uncontended lock + release, a Redis Cluster of 3 masters (loopback), keys spread over the masters\n\n";
    echo table($results, $labels, $reference, 'RedisMutexLock on the cluster', true), "\n";
    chart('cluster', ['kind' => 'bars', 'title' => 'Uncontended lock + release, Redis Cluster of 3 masters (loopback)',
        'unit' => 'µs per cycle (lower is better)', 'bars' => cycle_bars($results, $labels)]);
    [$vsPhpredis, $vsPhpredisPaired] = cycle_ratio($results, $reference, 'phpredis_cluster');
    [$vsSingle, $vsSinglePaired] = cycle_ratio($results, $reference, 'redis_mutex_lock');
    printf("RedisMutexLock on the cluster takes %.2f× the cycle time of the hand-written phpredis RedisCluster lock "
        . "(median of the per-round ratios %.2f×) and %.2f× that of RedisMutexLock on one server (%.2f×).\n\n",
        $vsPhpredis, $vsPhpredisPaired, $vsSingle, $vsSinglePaired);
    printf("Medians over %d interleaved rounds of %s s per implementation (rotating order; one long-lived PHP process "
        . "per implementation with one reused client; TTL %d s); p50 / p99 are percentiles of each round's cycle "
        . "durations, medians over rounds. On the cluster, cycle i locks key k(i mod %d) under a prefix of each "
        . "implementation's own: keys whose slots lie on all three masters, so that each client keeps a connection "
        . "to every master; every cycle succeeded. The cluster: 3 masters, no replicas, each a redis-server on a "
        . "loopback port with its cluster bus on another, joined by redis-cli --cluster create.\n\n",
        $rounds, $seconds, TTL_SECONDS, CLUSTER_KEYS);
    echo noise_note($results, $labels, $pressure);
    echo 'Machine: ', machine_facts($cluster->nodes[0]), "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";
    echo spread_details($results, $labels), "\n";

    $status = contention_on($cluster, $ks, $contentionSeconds);
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    $status = 1;
} finally {
    RedisServer::stopAll();
}
exit($status);

/**
 * Runs scenario_contention.php against $cluster, RedisMutexLock only, its
 * Markdown onto this one's; returns its exit status.
 */
function contention_on(ClusterServers $cluster, string $ks, string $seconds): int
{
    $env = ['BENCH_CONTENTION_DSN' => $cluster->dsn(), 'BENCH_CONTENTION_K' => $ks,
        'BENCH_CONTENTION_SECONDS' => $seconds, 'BENCH_CONTENTION_ROUNDS' => '1',
        'BENCH_CONTENTION_IMPLS' => 'redis_mutex_lock'] + getenv();
    // Its Markdown comes through a pipe and goes out by echo. Handed the
    // STDOUT stream, it went to that stream's own position (0, as nothing was
    // written through it) in the file bench/run.sh opened, over our tables.
    $proc = proc_open([PHP_BINARY, '-d', 'extension=' . so_path(), __DIR__ . '/scenario_contention.php'],
        [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes, null, $env);
    if ($proc === false) {
        fail('cannot run scenario_contention.php');
    }
    // bench/run.sh stops it, should this process die (first: the name sorts before its workers').
    $pid = proc_get_status($proc)['pid'];
    $pidFile = run_dir() . "/contention-scenario-$pid.pid";
    file_put_contents($pidFile, (string) $pid);
    echo stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    $status = proc_close($proc);
    @unlink($pidFile);
    return $status;
}
