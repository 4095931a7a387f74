<?php
/**
 * The Targets block of the Markdown, from what the scenarios saved with
 * target_facts() (bench/lib.php) into <dir>:
 *   php targets.php <dir> [scenario …]
 * with the rows of the scenarios named (default: mutex contention; only
 * mutex, contention, rwlock and semaphore have targets). mutex.json: RedisMutexLock's uncontended lock + release cycle time over the
 * hand-written phpredis floor's (target ≤ 1.0×); contention.json: its Redis
 * CPU per critical section under contention over the token floor's (target
 * ≤ 1.5×, at every K). A scenario that did not run, or failed before saving,
 * is "not measured". rwlock.json and semaphore.json (scenario_shared.php)
 * carry their rows ready-made: RedisReadWriteLock's and RedisSemaphore's wait
 * p99 against the token floor's (≤ 1.5×), sections/s against each peer's
 * (≥ 3×), fairness (≥ 0.95) and exclusion (0 violations). Prints Markdown to
 * stdout, nothing when no scenario named has targets.
 */

declare(strict_types=1);

$dir = $argv[1] ?? '';
$selected = array_slice($argv, 2) ?: ['mutex', 'contention'];
$load = function (string $name) use ($dir): ?array {
    $json = @file_get_contents("$dir/$name.json");
    return $json === false ? null : json_decode($json, true);
};
$mutex = in_array('mutex', $selected, true) ? $load('mutex') : null;
$contention = in_array('contention', $selected, true) ? $load('contention') : null;
$shared = [];
foreach (['rwlock', 'semaphore'] as $name) {
    if (in_array($name, $selected, true)) {
        $shared[$name] = $load($name);
    }
}
$servers = array_values(array_unique(array_filter(array_merge([$mutex['server'] ?? null, $contention['server'] ?? null],
    array_map(fn (?array $facts) => $facts['server'] ?? null, $shared)))));
$met = fn (bool $ok) => $ok ? 'met' : '**NOT met**';

$rows = [];
if (!in_array('mutex', $selected, true)) {
    // not asked for
} elseif ($mutex === null) {
    $rows[] = ['uncontended lock + release, RedisMutexLock cycle time ≤ 1.0× the phpredis floor', 'not measured (scenario mutex not run, or failed)', '–'];
} else {
    $rows[] = ['uncontended lock + release, RedisMutexLock cycle time ≤ 1.0× the phpredis floor',
        sprintf('%.2f× (%.1f vs %.1f µs/cycle; median of the per-round ratios %.2f×; %d rounds × %s s)',
            $mutex['ratio'], $mutex['us'], $mutex['floorUs'], $mutex['paired'], $mutex['rounds'], $mutex['seconds']),
        $met($mutex['ratio'] <= 1.0)];
}
$what = "under contention, RedisMutexLock's Redis CPU per section ≤ 1.5× the token floor's (every K)";
if (!in_array('contention', $selected, true)) {
    // not asked for
} elseif ($contention === null) {
    $rows[] = [$what, 'not measured (scenario contention not run, failed, or without redis_mutex_lock)', '–'];
} elseif (!$contention['floorRan']) {
    $rows[] = [$what, 'not measured (token_floor not in BENCH_CONTENTION_IMPLS)', '–'];
} else {
    $parts = [];
    $ratios = [];
    foreach ($contention['perK'] as $p) {
        $ratios[] = $p['ratio'];
        $parts[] = $p['ratio'] === null ? "K={$p['k']}: failed"
            : sprintf('K=%d: %.2f× (%.0f vs %.0f µs)', $p['k'], $p['ratio'], $p['cpu'], $p['floorCpu']);
    }
    $measured = array_filter($ratios, fn ($r) => $r !== null);
    $verdict = !$measured ? 'not measured'
        : (max($measured) > 1.5 ? '**NOT met**' : (count($measured) < count($ratios) ? 'not shown (some K failed)' : 'met'));
    $rows[] = [$what, implode('; ', $parts) . sprintf('; %d round(s) × %s s per K', $contention['rounds'], $contention['seconds']), $verdict];
}

foreach ($shared as $name => $facts) {
    $class = $name === 'rwlock' ? 'RedisReadWriteLock' : 'RedisSemaphore';
    if ($facts === null) {
        $rows[] = ["$class: every target of the $name scenario", "not measured (scenario $name failed before its results)", '–'];
        continue;
    }
    foreach ($facts['rows'] as [$target, $measured, $verdict]) {
        $rows[] = ["$class: $target", $verdict === 'not measured' ? $measured
            : $measured . sprintf('; %d round(s) × %s s', $facts['rounds'], $facts['seconds']), $verdict];
    }
}
if (!$rows) {
    exit(0);
}

printf("### Targets (%s)\n\n", $servers ? implode(', ', $servers) : 'no server measured');
echo "| target | measured | |\n|---|---|---|\n";
foreach ($rows as [$target, $measured, $verdict]) {
    echo "| $target | $measured | $verdict |\n";
}
echo "\nFrom this run's medians (details in the sections below" . ($mutex !== null || $contention !== null
    ? ': cycle times in the uncontended table, Redis CPU per section = INFO cpu used_cpu_user + used_cpu_sys over every '
        . 'section of a run, median over rounds' : '')
    . ($shared ? '; wait percentiles pool every round\'s waits, fairness is the worst round\'s' : '')
    . "). Fewer or shorter rounds than the defaults give noisier ratios.\n\n";
