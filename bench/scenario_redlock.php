<?php
/**
 * Scenario: uncontended lock+unlock cycles per second over 5 throwaway Redis
 * servers: RedLock beside the pure-PHP Redlock users copy
 * (bench/reference/RedLock.php), symfony/lock's CombinedStore and, as the
 * yardstick, the single-server phpredis floor of the mutex scenario.
 * Progress goes to stderr; the Markdown result to stdout.
 *
 *   php scenario_redlock.php loopback   contenders talk to the servers directly
 *   php scenario_redlock.php proxied    each server sits behind a delay_proxy.php
 *                                       that adds BENCH_PROXY_DELAY_MS (default 2)
 *                                       each way; the floor goes through one too
 *
 *   loopback: BENCH_ROUNDS (default 20), BENCH_SECONDS (default 0.25)
 *   proxied:  BENCH_PROXIED_ROUNDS (default 10), BENCH_PROXIED_SECONDS (default 0.5)
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

const NODES = 5;

$mode = $argv[1] ?? 'loopback';
if (!in_array($mode, ['loopback', 'proxied'], true)) {
    note("usage: php scenario_redlock.php loopback|proxied");
    exit(2);
}
$proxied = $mode === 'proxied';
if ($proxied) {
    $rounds = (int) (getenv('BENCH_PROXIED_ROUNDS') ?: 10);
    $seconds = (float) (getenv('BENCH_PROXIED_SECONDS') ?: 0.5);
    $delayMs = (float) (getenv('BENCH_PROXY_DELAY_MS') ?: 2);
} else {
    $rounds = (int) (getenv('BENCH_ROUNDS') ?: 20);
    $seconds = (float) (getenv('BENCH_SECONDS') ?: 0.25);
    $delayMs = 0.0;
}

$reference = 'redlock';
$floor = 'phpredis_floor';
$plain = 'plain_php_redlock';
$short = [
    'redlock' => 'RedLock',
    'plain_php_redlock' => 'plain-PHP Redlock',
    'symfony_combined' => 'symfony CombinedStore',
    'phpredis_floor' => 'floor',
];
$labels = [
    'redlock' => 'RedLock (this extension), 5 nodes',
    'plain_php_redlock' => 'plain-PHP Redlock (ronnylt/redlock-php style, phpredis), 5 nodes one after another',
    'symfony_combined' => 'symfony/lock 5.4 CombinedStore of 5 RedisStore, ConsensusStrategy (phpredis)',
    'phpredis_floor' => $proxied
        ? 'phpredis SET NX PX + EVAL, 1 server through a proxy (two delayed round trips)'
        : 'phpredis SET NX PX + EVAL, 1 server (single-server floor)',
];

try {
    $servers = [];
    for ($i = 0; $i < NODES; $i++) {
        $servers[] = RedisServer::start();
    }
    $endpoints = $servers;
    $latency = '';
    if ($proxied) {
        $endpoints = array_map(fn (RedisServer $s) => DelayProxy::start($s, $delayMs), $servers);
        // What the proxies really add: PING round trips through each of them, and direct.
        $direct = median(array_map(fn (RedisServer $s) => ping_rtt_ms($s->host, $s->port), $servers));
        $through = array_map(fn (DelayProxy $p) => ping_rtt_ms($p->host, $p->port), $endpoints);
        $rtt = median($through);
        $latency = sprintf('Proxy check (100 PINGs per node with phpredis): %.2f ms per round trip through a proxy '
            . '(median of the 5 proxies; %.2f–%.2f ms), %.3f ms direct: the proxy adds %.2f ms per round trip '
            . '(%.0f ms of delay + %.2f ms of forwarding). Two delayed round trips = %.2f ms.',
            $rtt, min($through), max($through), $direct, $rtt - $direct, 2 * $delayMs, $rtt - $direct - 2 * $delayMs, 2 * $rtt);
        note($latency);
    }
    note(sprintf('%d × %s on %s%s; %d rounds × %d implementations × %s s',
        NODES, $servers[0]->version(), implode(', ', array_map(fn ($s) => $s->port, $servers)),
        $proxied ? sprintf(' behind delay proxies (+%s ms each way) on %s', $delayMs,
            implode(', ', array_map(fn ($p) => $p->port, $endpoints))) : '',
        $rounds, count($labels), $seconds));

    $watch = ['5 redis-servers' => array_map(fn (RedisServer $s) => $s->pid(), $servers)];
    if ($proxied) {
        $watch['5 proxies'] = array_map(fn (DelayProxy $p) => $p->pid(), $endpoints);
    }
    $mark = pressure_mark();
    $results = run_rounds(array_keys($labels), $endpoints, $rounds, $seconds, [], $watch);
    $pressure = cpu_pressure_since($mark);

    [$vsFloor, $vsFloorPaired] = cycle_ratio($results, $reference, $floor);
    [$plainVs, $plainVsPaired] = cycle_ratio($results, $plain, $reference);
    $usPerCycle = fn (string $name) => median(array_map(fn ($r) => 1e6 / $r['rate'], $results[$name]));
    $verdict = fn (bool $met) => $met ? 'met' : 'NOT met';

    if ($proxied) {
        printf("### Uncontended RedLock lock + unlock, 5 Redis servers each behind a proxy adding %s ms each way\n\n", $delayMs);
    } else {
        echo "### Uncontended RedLock lock + unlock, 5 Redis servers (loopback)\n\n";
    }
    echo table($results, $labels, $reference, 'RedLock'), "\n";
    chart($proxied ? 'redlock_proxied' : 'redlock', ['kind' => 'bars',
        'title' => $proxied ? "RedLock lock + unlock, 5 Redis each behind +{$delayMs} ms each way" : 'RedLock lock + unlock, 5 Redis (loopback)',
        'unit' => 'µs per cycle (lower is better)', 'bars' => cycle_bars($results, $labels)]);
    if ($proxied) {
        printf("- RedLock / two delayed round trips = %.2f× (target ≤ 1.5×) — %s (%.2f ms vs %.2f ms per cycle; "
            . "median of the per-round ratios %.2f×; vs 2 × the measured PING round trip: %.2f×)\n",
            $vsFloor, $verdict($vsFloor <= 1.5), $usPerCycle($reference) / 1000, $usPerCycle($floor) / 1000,
            $vsFloorPaired, $usPerCycle($reference) / 1000 / (2 * $rtt));
        printf("- plain-PHP Redlock / RedLock = %.2f× (target ≥ 4×) — %s (median of the per-round ratios %.2f×; "
            . "its cycle is %.1f delayed round trips)\n\n",
            $plainVs, $verdict($plainVs >= 4.0), $plainVsPaired, $usPerCycle($plain) / 1000 / $rtt);
        echo $latency, "\n\n";
    } else {
        printf("- RedLock / single-server floor = %.2f× (target ≤ 2×) — %s (%+.1f µs/cycle; median of the per-round ratios %.2f×)\n",
            $vsFloor, $verdict($vsFloor <= 2.0), $usPerCycle($reference) - $usPerCycle($floor), $vsFloorPaired);
        printf("- plain-PHP Redlock / RedLock = %.2f× (target ≥ 2.5×) — %s (median of the per-round ratios %.2f×)\n\n",
            $plainVs, $verdict($plainVs >= 2.5), $plainVsPaired);
    }
    // Where the time goes: CPU per cycle of the contender's process and of the
    // servers (and proxies). A cycle can overlap work on at most nproc CPUs.
    $cpus = max(1, (int) trim((string) shell_exec('nproc')));
    $cpuOf = fn (string $name, ?string $group) => median(array_map(
        fn ($r) => $group === null ? $r['cpu'] : $r['watch'][$group], $results[$name]));
    $parts = [];
    foreach (array_keys($labels) as $name) {
        $client = $cpuOf($name, null);
        $others = array_map(fn ($g) => $cpuOf($name, $g), array_keys($watch));
        $total = $client + array_sum($others);
        $parts[] = sprintf('%s %.0f µs (PHP process %.0f%s)', $short[$name], $total, $client,
            implode('', array_map(fn ($g, $v) => sprintf(' + %s %.0f', $g, $v), array_keys($watch), $others)));
        $totals[$name] = $total;
    }
    printf("CPU time per cycle, all processes (medians; the idle background work of the servers%s included): %s. "
        . "On %d CPUs a cycle takes at least its CPU time / %d",
        $proxied ? ' and proxies' : '', implode('; ', $parts), $cpus, $cpus);
    if (!$proxied) {
        $serversOnly = $cpuOf($reference, '5 redis-servers');
        printf(": RedLock ≥ %.0f µs = %.2f× the floor's measured cycle; the 5 redis-servers' part alone (each of "
            . "them must run at least a SET and a release script per cycle, whoever the client) ≥ %.0f µs = %.2f×",
            $totals[$reference] / $cpus, $totals[$reference] / $cpus / $usPerCycle($floor),
            $serversOnly / $cpus, $serversOnly / $cpus / $usPerCycle($floor));
    }
    echo ".\n\n";
    printf("Medians over %d interleaved rounds of %s s per implementation (rotating order; one long-lived PHP process "
        . "per implementation with its clients reused; TTL %d s, same key each cycle); every cycle succeeded. "
        . "The floor uses the first of the 5 %s only.\n\n",
        $rounds, $seconds, TTL_SECONDS, $proxied ? 'proxies' : 'servers');
    echo noise_note($results, $labels, $pressure);
    echo 'Machine: ', machine_facts($servers[0]), "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";
    echo spread_details($results, $labels);
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
} finally {
    DelayProxy::stopAll();
    RedisServer::stopAll();
}
