<?php
/**
 * The Targets block of the Markdown, from what the scenarios saved with
 * target_facts() (bench/lib.php) into <dir>:
 *   php targets.php <dir>
 * mutex.json: RedisMutexLock's uncontended lock + release cycle time over the
 * hand-written phpredis floor's (target ≤ 1.0×); contention.json: its Redis
 * CPU per critical section under contention over the token floor's (target
 * ≤ 1.5×, at every K). A scenario that did not run, or failed before saving,
 * is "not measured". Prints Markdown to stdout.
 */

declare(strict_types=1);

$dir = $argv[1] ?? '';
$load = function (string $name) use ($dir): ?array {
    $json = @file_get_contents("$dir/$name.json");
    return $json === false ? null : json_decode($json, true);
};
$mutex = $load('mutex');
$contention = $load('contention');
$servers = array_values(array_unique(array_filter([$mutex['server'] ?? null, $contention['server'] ?? null])));
$met = fn (bool $ok) => $ok ? 'met' : '**NOT met**';

$rows = [];
if ($mutex === null) {
    $rows[] = ['uncontended lock + release, RedisMutexLock cycle time ≤ 1.0× the phpredis floor', 'not measured (scenario mutex not run, or failed)', '–'];
} else {
    $rows[] = ['uncontended lock + release, RedisMutexLock cycle time ≤ 1.0× the phpredis floor',
        sprintf('%.2f× (%.1f vs %.1f µs/cycle; median of the per-round ratios %.2f×; %d rounds × %s s)',
            $mutex['ratio'], $mutex['us'], $mutex['floorUs'], $mutex['paired'], $mutex['rounds'], $mutex['seconds']),
        $met($mutex['ratio'] <= 1.0)];
}
$what = "under contention, RedisMutexLock's Redis CPU per section ≤ 1.5× the token floor's (every K)";
if ($contention === null) {
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

printf("### Targets (%s)\n\n", $servers ? implode(', ', $servers) : 'no server measured');
echo "| target | measured | |\n|---|---|---|\n";
foreach ($rows as [$target, $measured, $verdict]) {
    echo "| $target | $measured | $verdict |\n";
}
echo "\nFrom this run's medians (details in the sections below: cycle times in the uncontended table, Redis CPU per "
    . "section = INFO cpu used_cpu_user + used_cpu_sys over every section of a run, median over rounds). Fewer or "
    . "shorter rounds than the defaults give noisier ratios.\n\n";
