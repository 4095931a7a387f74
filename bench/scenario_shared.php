<?php
/**
 * Scenarios rwlock and semaphore: K processes take holds of ONE key on one
 * throwaway Redis server, in the style of scenario_contention.php.
 *
 *   php scenario_shared.php rwlock      readers and writers: each hold is a write with probability
 *                                       BENCH_RWLOCK_WRITE_PERMILLE/1000 (default 100: 10 %), else a read;
 *                                       RedisReadWriteLock beside symfony/lock's shared RedisStore
 *   php scenario_shared.php semaphore   BENCH_SEMAPHORE_PERMITS permits (default 4): RedisSemaphore beside
 *                                       symfony/semaphore, Laravel's funnel and the token floor
 *
 * Each process (shared_worker.php) loops { hold (blocking); critical section
 * (usleep) inside the hold, entered and left in a flock-guarded check file;
 * usleep outside } from a common start time to a common end time; the
 * implementations run one after the other in rotating order per round. Progress
 * goes to stderr; the Markdown result to stdout; the measures against the
 * targets go to target_facts() for bench/targets.php. Exit 1 when an
 * implementation failed (its row says why); the tables are printed anyway.
 *
 *   BENCH_QUICK=1                   a trial run: 1 round of 2 s (unless the variables below say otherwise)
 *   BENCH_SHARED_K                  processes (default 16)
 *   BENCH_SHARED_SECONDS            seconds per implementation per round (default 5)
 *   BENCH_SHARED_ROUNDS             interleaved rounds (default 5)
 *   BENCH_RWLOCK_IMPLS              (default "redis_rwlock symfony token_floor"; token_floor is no lock to use
 *                                   but the floor of a fair Redis hand-off; "no_lock" checks the harness)
 *   BENCH_RWLOCK_WRITE_PERMILLE     writes per 1000 holds (default 100)
 *   BENCH_RWLOCK_SECTION_US         critical section, µs (default 500)
 *   BENCH_RWLOCK_OUTSIDE_US         work outside, µs (default 3000)
 *   BENCH_SEMAPHORE_IMPLS           (default "redis_semaphore symfony laravel token_floor"; token_floor and
 *                                   no_lock as for the rwlock)
 *   BENCH_SEMAPHORE_PERMITS         permits (default 4)
 *   BENCH_SEMAPHORE_SECTION_US      critical section, µs (default 2000)
 *   BENCH_SEMAPHORE_OUTSIDE_US      work outside, µs (default 2000)
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

$scenario = $argv[1] ?? '';
if (!in_array($scenario, ['rwlock', 'semaphore'], true)) {
    note('usage: php scenario_shared.php rwlock|semaphore');
    exit(2);
}
$rw = $scenario === 'rwlock';
$env = fn (string $var, string $default) => ($v = getenv($var)) === false || trim($v) === '' ? $default : trim($v);
$list = fn (string $var, string $default) => preg_split('/[\s,]+/', $env($var, $default), -1, PREG_SPLIT_NO_EMPTY);
$quick = $env('BENCH_QUICK', '0') === '1';
$k = (int) $env('BENCH_SHARED_K', '16');
$seconds = (float) $env('BENCH_SHARED_SECONDS', $quick ? '2' : '5');
$rounds = (int) $env('BENCH_SHARED_ROUNDS', $quick ? '1' : '5');
$upper = strtoupper($scenario);
$sectionUs = (int) $env("BENCH_{$upper}_SECTION_US", $rw ? '500' : '2000');
$outsideUs = (int) $env("BENCH_{$upper}_OUTSIDE_US", $rw ? '3000' : '2000');
$writePermille = $rw ? (int) $env('BENCH_RWLOCK_WRITE_PERMILLE', '100') : 0;
$permits = $rw ? 0 : (int) $env('BENCH_SEMAPHORE_PERMITS', '4');

if ($rw) {
    $labels = [
        'redis_rwlock' => 'RedisReadWriteLock::lockRead/lockWrite($key, 30, 10) (this extension)',
        'symfony' => 'symfony/lock 5.4 RedisStore, acquireRead(true) / acquire(true) (phpredis; retries every 100 ± 10 ms)',
        'token_floor' => 'floor: N tokens passed by BLPOP/BLMPOP/RPUSH, a writer takes all (no TTL, no crash safety; not a lock to use)',
        'no_lock' => 'no lock at all (harness self-check: must report violations)',
    ];
    $short = ['redis_rwlock' => 'RedisReadWriteLock', 'symfony' => 'symfony/lock', 'token_floor' => 'token floor', 'no_lock' => 'no lock'];
    $reference = 'redis_rwlock';
    $peers = ['symfony'];
    $impls = $list('BENCH_RWLOCK_IMPLS', 'redis_rwlock symfony token_floor');
} else {
    $labels = [
        'redis_semaphore' => "RedisSemaphore::acquire(\$key, $permits, 30, 10) (this extension)",
        'symfony' => "symfony/semaphore 5.4 RedisStore, createSemaphore(\$key, $permits) + acquire() retried every 100 ± 10 ms (phpredis)",
        'laravel' => "Laravel 8 funnel(\$key)->limit($permits)->block(30)->then() (ConcurrencyLimiter, phpredis; retries every 250 ms)",
        'token_floor' => "floor: $permits tokens passed by BLPOP/RPUSH (no TTL, no crash safety; not a semaphore to use)",
        'no_lock' => 'no semaphore at all (harness self-check: must report violations)',
    ];
    $short = ['redis_semaphore' => 'RedisSemaphore', 'symfony' => 'symfony/semaphore', 'laravel' => 'Laravel funnel',
        'token_floor' => 'token floor', 'no_lock' => 'no semaphore'];
    $reference = 'redis_semaphore';
    $peers = ['symfony', 'laravel'];
    $impls = $list('BENCH_SEMAPHORE_IMPLS', 'redis_semaphore symfony laravel token_floor');
}
$floor = 'token_floor';
foreach ($impls as $impl) {
    if (!isset($labels[$impl])) {
        note("BENCH_{$upper}_IMPLS: unknown implementation '$impl' (known: " . implode(' ', array_keys($labels)) . ')');
        exit(2);
    }
}
if ($k < 2 || $k > 256 || $seconds <= 0 || $rounds < 1 || $sectionUs < 0 || $outsideUs < 0
    || ($rw && ($writePermille < 0 || $writePermille > 1000)) || (!$rw && ($permits < 1 || $permits >= $k))) {
    note("BENCH_SHARED_K must be in 2..256, BENCH_SHARED_SECONDS and _ROUNDS > 0, the _US settings >= 0, "
        . "BENCH_RWLOCK_WRITE_PERMILLE in 0..1000, BENCH_SEMAPHORE_PERMITS in 1..K-1");
    exit(2);
}
// symfony/semaphore is a Debian package of its own (php-symfony-semaphore, 5.4 in Debian 12): without it, that
// contender is skipped and the output says so. No stand-in: a copy of its Lua would not be the library users run.
$skipped = [];
if (!$rw && in_array('symfony', $impls, true) && !stream_resolve_include_path('Symfony/Component/Semaphore/autoload.php')) {
    $impls = array_values(array_diff($impls, ['symfony']));
    $skipped['symfony'] = 'symfony/semaphore is not installed (Symfony/Component/Semaphore is not on the include path; '
        . 'apt-get install php-symfony-semaphore, which Debian 12 has in 5.4). No stand-in was measured: a copy of its '
        . 'Lua script in a harness of ours would not be the library its users run';
}

register_shutdown_function([Workers::class, 'killAll']);

/**
 * One run: K workers of $impl from a common start for $seconds. Returns
 * ['error' => string] or the raw facts of the run (see the end).
 */
function run_shared(string $scenario, string $impl, int $k, Masters $redis, float $seconds, int $sectionUs, int $outsideUs,
    int $writePermille, int $n, int $round): array
{
    $tag = "$scenario-$impl-$round";
    $dir = run_dir() . "/shared-$tag";
    @mkdir($dir, 0700, true);
    $checkFile = "$dir/check";
    file_put_contents($checkFile, '');
    $key = "bench:$scenario:$impl";
    [$host, $port] = $redis->first();
    try {
        $redis->flushAll(); // before the first snapshot: not counted
        for ($i = 0; $i < $k; $i++) {
            // The same seeds for every implementation of a round: the same sequence of reads and writes per process.
            $cmd = [PHP_BINARY, '-d', 'extension=' . so_path(), '-d', 'redis_lock.server=' . $redis->dsn,
                __DIR__ . '/shared_worker.php', $scenario, $impl, "$host:$port", $key, $checkFile,
                "$dir/result-$i", (string) $sectionUs, (string) $outsideUs, (string) $writePermille,
                (string) (1000 * $round + $i + 1), (string) $n];
            $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', "$dir/err-$i", 'w']], $pipes);
            if ($proc === false) {
                return ['error' => "cannot start process $i"];
            }
            $pid = proc_get_status($proc)['pid'];
            // bench/run.sh stops whatever is listed here, should this process die.
            $pidFile = run_dir() . "/shared-worker-$pid.pid";
            file_put_contents($pidFile, (string) $pid);
            stream_set_blocking($pipes[1], false);
            Workers::$list[$i] = ['proc' => $proc, 'in' => $pipes[0], 'out' => $pipes[1], 'pidFile' => $pidFile];
        }
        if (($err = await_line('ready', 60 + $k, $dir)) !== null) {
            return ['error' => "start: $err"];
        }
        $before = $redis->snapshot();
        // The barrier: everybody starts at t0 and stops starting holds at t_end.
        $t0 = hrtime(true) + 100_000_000;
        $tEnd = $t0 + (int) ($seconds * 1e9);
        foreach (Workers::$list as $w) {
            fwrite($w['in'], "go $t0 $tEnd\n");
        }
        // Every process ends after at most one more hold (≤ 30 s) and section.
        if (($err = await_line('done', $seconds + 0.1 + CONTENTION_TIMEOUT_SECONDS + CONTENTION_TTL_SECONDS + 5, $dir)) !== null) {
            return ['error' => $err];
        }
        $ended = hrtime(true);
        foreach (array_keys(Workers::$list) as $i) {
            Workers::close($i); // waits for the exit: nothing of theirs reaches Redis after the snapshot
            if (Workers::$list[$i]['status'] !== 0) {
                return ['error' => sprintf('process %d exited with status %d after "done": %s', $i + 1,
                    Workers::$list[$i]['status'], trim((string) @file_get_contents("$dir/err-$i")))];
            }
        }
        $after = $redis->snapshot();
        $procs = [];
        for ($i = 0; $i < $k; $i++) {
            $raw = (string) @file_get_contents("$dir/result-$i");
            $procs[$i] = $raw === '' ? [] : array_chunk(array_values(unpack('q*', $raw)), 5);
        }
        $check = (string) file_get_contents($checkFile);
        $work = server_work($before, $after, 1); // the whole run's
        return [
            't0' => $t0, 'tEnd' => $tEnd, 'ended' => $ended, 'procs' => $procs,
            'check' => strlen($check) === 80 ? array_map('intval', str_split($check, 20)) : [0, 0, 0, 0],
            'calls' => $work['calls'], 'redisCpuUs' => $work['cpu'],
        ];
    } catch (\Throwable $e) {
        return ['error' => get_class($e) . ': ' . $e->getMessage()];
    } finally {
        Workers::killAll();
    }
}

/**
 * What one run measured, from its raw facts. The time stamps are an
 * independent check of exclusion: a section is [hold taken, release about to
 * be called], inside the hold, so two of them that overlap in time were held
 * at once. $rw: a write section overlapping any other section, or a read
 * section overlapping a write, is a violation (counted once per section, for
 * the later-starting one). Else more than $permits sections at once is.
 */
function shared_stats(array $run, bool $rw, int $permits): array
{
    $t0 = $run['t0'];
    $tEnd = $run['tEnd'];
    $wall = ($tEnd - $t0) / 1e9;
    $all = [];
    $perProc = [];
    $waits = [[], []]; // [reads or permits, writes]
    $reads = $writes = 0;
    foreach ($run['procs'] as $i => $sections) {
        $perProc[$i] = 0;
        foreach ($sections as [$a0, $a1, $r0, $r1, $w]) {
            $all[] = [$a0, $a1, $r0, $r1, $w];
            $waits[$w][] = ($a1 - $a0) / 1e6; // every hold called before t_end, also those taken after it
            if ($a1 < $tEnd) {
                $perProc[$i]++;
                $w ? $writes++ : $reads++;
            }
        }
    }
    // Exclusion from the clocks, sections in order of entry.
    usort($all, fn ($x, $y) => $x[1] <=> $y[1]);
    $violations = 0;
    $maxEndAll = $maxEndWrite = PHP_INT_MIN;
    $held = 0;
    $sectionMs = [];
    $releaseMs = [];
    $events = [];
    foreach ($all as [$a0, $a1, $r0, $r1, $w]) {
        if ($rw && ($w ? $a1 < $maxEndAll : $a1 < $maxEndWrite)) {
            $violations++;
        }
        $maxEndAll = max($maxEndAll, $r0);
        if ($w) {
            $maxEndWrite = max($maxEndWrite, $r0);
        }
        $events[] = [$a1, 1];
        $events[] = [$r0, -1];
        $sectionMs[] = ($r0 - $a1) / 1e6;
        $releaseMs[] = ($r1 - $r0) / 1e6;
        if ($a1 < $tEnd) {
            $held += min($r0, $tEnd) - $a1;
        }
    }
    // Most sections at once (a leave before an entry at the same instant).
    usort($events, fn ($x, $y) => [$x[0], $x[1]] <=> [$y[0], $y[1]]);
    $now = $most = 0;
    foreach ($events as [, $d]) {
        $now += $d;
        $most = max($most, $now);
        if (!$rw && $d > 0 && $now > $permits) {
            $violations++;
        }
    }
    foreach ($waits as &$list) {
        sort($list);
    }
    unset($list);
    sort($sectionMs);
    sort($releaseMs);
    $commands = array_sum(array_diff_key($run['calls'], ['info' => 0]));
    $total = count($all);
    return [
        'rate' => ($reads + $writes) / $wall,
        'readRate' => $reads / $wall, 'writeRate' => $writes / $wall,
        'holders' => $held / 1e9 / $wall,
        'waitsRead' => $waits[0], 'waitsWrite' => $waits[1],
        'fair' => max($perProc) > 0 ? min($perProc) / max($perProc) : 0.0,
        'minmax' => [min($perProc), max($perProc)],
        'cmds' => $total ? $commands / $total : NAN,
        'calls' => $run['calls'],
        'cpu' => $total ? $run['redisCpuUs'] / $total : NAN,
        'violations' => $violations,
        'most' => $most,
        'checkMost' => $run['check'][2],
        'checkViolations' => $run['check'][3],
        'checkLeft' => $run['check'][0] + $run['check'][1],
        'sectionMs' => $sectionMs,
        'releaseMs' => $releaseMs,
        'total' => $total,
        'inWindow' => $reads + $writes,
        'drainMs' => ($run['ended'] - $tEnd) / 1e6,
    ];
}

$ms = fn (?float $v) => $v === null ? '–' : ($v < 10 ? sprintf('%.2f', $v) : ($v < 100 ? sprintf('%.1f', $v) : number_format($v, 0)));

try {
    $redis = Masters::of(RedisServer::start()->dsn());
    $n = $rw ? $k : $permits;
    note(sprintf('%s at %s; %s: K = %d%s; %d rounds × %d implementations × %s s (+ start-up and drain: about %.0f s)',
        $redis->version(), $redis->dsn, $scenario, $k,
        $rw ? sprintf(', %.1f %% writes', $writePermille / 10) : ", $permits permits",
        $rounds, count($impls), $seconds, $rounds * count($impls) * ($seconds + 1.5 + $k * 0.05)));
    $mark = pressure_mark();
    $stats = []; // [impl] => list of per-round stats
    $failures = []; // [impl] => list of 'round r: why'
    for ($round = 0; $round < $rounds; $round++) {
        $progress = [];
        for ($i = 0; $i < count($impls); $i++) {
            $impl = $impls[($round + $i) % count($impls)];
            $run = run_shared($scenario, $impl, $k, $redis, $seconds, $sectionUs, $outsideUs, $writePermille, $n, $round);
            if (isset($run['error'])) {
                $failures[$impl][] = sprintf('round %d: %s', $round + 1, $run['error']);
                $progress[] = "$impl FAILED";
                note("$scenario $impl round " . ($round + 1) . ' FAILED: ' . $run['error']);
                continue;
            }
            $s = shared_stats($run, $rw, $permits);
            $stats[$impl][] = $s;
            if ($s['violations'] !== 0 || $s['checkViolations'] !== 0) {
                $failures[$impl][] = sprintf('round %d: %d violations by the time stamps, %d by the check file (%s)',
                    $round + 1, $s['violations'], $s['checkViolations'],
                    $rw ? 'a write section overlapping another section' : "more than $permits holders at once");
            }
            if ($s['checkLeft'] !== 0) {
                $failures[$impl][] = sprintf('round %d: the check file counted %d holders still inside after every process exited',
                    $round + 1, $s['checkLeft']);
            }
            $progress[] = $rw
                ? sprintf('%s %.0f/s (r %.0f w %.0f) p99 r %s w %s ms', $impl, $s['rate'], $s['readRate'], $s['writeRate'],
                    $ms(pct($s['waitsRead'], 0.99)), $ms(pct($s['waitsWrite'], 0.99)))
                : sprintf('%s %.0f/s p99 %s ms most %d', $impl, $s['rate'], $ms(pct($s['waitsRead'], 0.99)), $s['most']);
        }
        note(sprintf('%s round %d/%d: %s', $scenario, $round + 1, $rounds, implode(', ', $progress)));
    }
    $pressure = cpu_pressure_since($mark);
    // For bench/run.sh: docs/bench/shared-<server>.md, e.g. shared-redis-7.0.md, and the server named in its first line.
    file_put_contents(run_dir() . '/shared-server', strtolower(preg_replace('/^(\w+) (\d+\.\d+).*$/', '$1-$2', $redis->version())));
    file_put_contents(run_dir() . '/shared-server-name', $redis->version());

    // Per implementation, over its rounds: medians of the rates and per-section costs,
    // percentiles of the pooled samples, the worst fairness, sums and maxima of the checks.
    $agg = [];
    foreach ($stats as $impl => $list) {
        $pool = function (string $f) use ($list) {
            $xs = array_merge(...array_column($list, $f));
            sort($xs);
            return $xs;
        };
        $wr = $pool('waitsRead');
        $ww = $pool('waitsWrite');
        $all = array_merge($wr, $ww);
        sort($all);
        $sections = $pool('sectionMs');
        $releases = $pool('releaseMs');
        $agg[$impl] = [
            'rate' => median(array_column($list, 'rate')),
            'readRate' => median(array_column($list, 'readRate')),
            'writeRate' => median(array_column($list, 'writeRate')),
            'holders' => median(array_column($list, 'holders')),
            'r50' => pct($wr, 0.5), 'r99' => pct($wr, 0.99), 'rmax' => $wr ? max($wr) : null,
            'w50' => pct($ww, 0.5), 'w99' => pct($ww, 0.99), 'wmax' => $ww ? max($ww) : null,
            'a50' => pct($all, 0.5), 'a99' => pct($all, 0.99), 'amax' => $all ? max($all) : null,
            'nw' => count($ww),
            'fair' => min(array_column($list, 'fair')),
            'cmds' => median(array_column($list, 'cmds')),
            'cpu' => median(array_column($list, 'cpu')),
            'violations' => array_sum(array_column($list, 'violations')),
            'checkViolations' => array_sum(array_column($list, 'checkViolations')),
            'most' => max(array_column($list, 'most')),
            'checkMost' => max(array_column($list, 'checkMost')),
            's50' => pct($sections, 0.5), 's99' => pct($sections, 0.99), 'smax' => $sections ? max($sections) : null,
            'rel50' => pct($releases, 0.5), 'rel99' => pct($releases, 0.99),
            'rounds' => $list,
        ];
    }
    $failed = fn (string $impl) => !empty($failures[$impl]);
    $ok = fn (string $impl) => in_array($impl, $impls, true) && isset($agg[$impl]) && !$failed($impl);
    $at = fn (string $impl, string $field) => $ok($impl) ? $agg[$impl][$field] : null;

    // Charts (bench/charts.py): this extension first, drawn in its own colour.
    $order = array_values(array_unique(array_merge(array_intersect([$reference], $impls), $impls)));
    $bars = fn (string $field) => array_filter(array_combine(array_map(fn ($i) => $short[$i], $order),
        array_map(fn ($i) => $at($i, $field), $order)), fn ($v) => $v !== null);
    $title = $rw ? sprintf('Readers/writers, %d processes, %.0f %% writes', $k, $writePermille / 10)
        : sprintf('Semaphore, %d permits, %d processes', $permits, $k);
    if ($bars('rate')) {
        chart("{$scenario}_rate", ['kind' => 'bars', 'title' => "$title: critical sections per second",
            'unit' => 'sections/s (higher is better)', 'bars' => $bars('rate')]);
        chart("{$scenario}_fairness", ['kind' => 'bars', 'title' => "$title: fairness (min/max sections per process, worst round)",
            'unit' => 'fairness (higher is better; 1 = equal shares)', 'bars' => $bars('fair')]);
        $waitX = $rw ? ['reader p50' => 'r50', 'reader p99' => 'r99', 'writer p50' => 'w50', 'writer p99' => 'w99', 'writer max' => 'wmax']
            : ['p50' => 'a50', 'p99' => 'a99', 'max' => 'amax'];
        chart("{$scenario}_wait", ['kind' => 'grouped', 'title' => "$title: wait for a hold",
            'unit' => 'ms (log scale; lower is better)', 'log' => true, 'x' => array_keys($waitX),
            'series' => array_combine(array_map(fn ($i) => $short[$i], $order), array_map(fn ($i) => array_map(
                fn ($f) => ($v = $at($i, $f)) === null ? null : max($v, 0.001), array_values($waitX)), $order))]);
    }

    $floorRate = $at($floor, 'rate');
    $floorP99 = $at($floor, $rw ? 'r99' : 'a99');
    $floorW99 = $rw ? $at($floor, 'w99') : null;
    $ratio = fn (?float $a, ?float $b) => $a !== null && $b !== null && $b > 0 ? sprintf('%.2f×', $a / $b) : '–';
    if ($rw) {
        printf("### Readers/writers: %d processes, %.0f %% of holds are writes, one key, one Redis server (loopback)\n\n",
            $k, $writePermille / 10);
        echo "| implementation | sections/s (reads + writes) | vs floor | reader wait p50 / p99 / max (ms) | writer wait p50 / p99 / max (ms) "
            . "| reader p99 vs floor | writer p99 vs floor | fairness (min/max sections per process) | mean sections in progress "
            . "| violations: time stamps / check file | Redis commands/section | Redis CPU µs/section |\n";
        echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    } else {
        printf("### Semaphore: %d permits, %d processes, one key, one Redis server (loopback)\n\n", $permits, $k);
        echo "| implementation | sections/s | vs floor | wait p50 / p99 / max (ms) | wait p99 vs floor "
            . "| fairness (min/max sections per process) | mean permits in use | most holders at once: time stamps / check file "
            . "| violations: time stamps / check file | Redis commands/section | Redis CPU µs/section |\n";
        echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    }
    foreach ($impls as $impl) {
        $a = $agg[$impl] ?? null;
        $label = $labels[$impl] . ($failed($impl) ? ' — **FAILED**' : '');
        if ($a === null) {
            echo "| $label " . str_repeat('| – ', $rw ? 11 : 10) . "|\n";
            continue;
        }
        if ($rw) {
            printf("| %s | %s (%s + %s) | %s | %s / %s / %s | %s / %s / %s | %s | %s | %.3f | %.2f | %d / %d | %.1f | %.0f |\n", $label,
                number_format($a['rate']), number_format($a['readRate']), number_format($a['writeRate']), $ratio($a['rate'], $floorRate),
                $ms($a['r50']), $ms($a['r99']), $ms($a['rmax']), $ms($a['w50']), $ms($a['w99']), $ms($a['wmax']),
                $ratio($a['r99'], $floorP99), $ratio($a['w99'], $floorW99), $a['fair'], $a['holders'],
                $a['violations'], $a['checkViolations'], $a['cmds'], $a['cpu']);
        } else {
            printf("| %s | %s | %s | %s / %s / %s | %s | %.3f | %.2f | %d / %d | %d / %d | %.1f | %.0f |\n", $label,
                number_format($a['rate']), $ratio($a['rate'], $floorRate), $ms($a['a50']), $ms($a['a99']), $ms($a['amax']),
                $ratio($a['a99'], $floorP99), $a['fair'], $a['holders'], $a['most'], $a['checkMost'],
                $a['violations'], $a['checkViolations'], $a['cmds'], $a['cpu']);
        }
    }
    foreach ($skipped as $impl => $why) {
        echo "| {$labels[$impl]} — **skipped** " . str_repeat('| – ', $rw ? 11 : 10) . "|\n";
    }
    echo "\n";
    foreach ($skipped as $impl => $why) {
        printf("- **%s skipped**: %s.\n", $short[$impl], $why);
    }
    foreach ($impls as $impl) {
        foreach ($failures[$impl] ?? [] as $why) {
            printf("- **%s FAILED**, %s\n", $short[$impl], $why);
        }
    }
    if ($skipped || array_filter($impls, $failed)) {
        echo "\n";
    }

    // The targets for this extension's class, for bench/targets.php.
    $verdict = fn (?bool $met) => $met === null ? 'not measured' : ($met ? 'met' : '**NOT met**');
    $ours = $short[$reference];
    $refRan = in_array($reference, $impls, true);
    // Why $impl has no measure: null when it has one.
    $why = fn (string $impl) => !in_array($impl, $impls, true) ? "{$short[$impl]} " . (isset($skipped[$impl]) ? 'skipped' : 'not run')
        : ($failed($impl) ? "{$short[$impl]} failed" : null);
    $rows = [];
    $waitRows = $rw ? ['reader wait p99' => 'r99', 'writer wait p99' => 'w99'] : ['wait p99' => 'a99'];
    foreach ($waitRows as $what => $f) {
        $a = $at($reference, $f);
        $b = $at($floor, $f);
        $rows[] = ["$what ≤ 1.5× the token floor's", ($why($reference) ?? $why($floor))
            ?? sprintf('%.2f× (%s vs %s ms)', $a / max(1e-9, $b), $ms($a), $ms($b)),
            $verdict($a !== null && $b !== null ? $a <= 1.5 * $b : null)];
    }
    foreach ($peers as $peer) {
        $a = $at($reference, 'rate');
        $b = $at($peer, 'rate');
        $f = $at($floor, 'rate');
        $rows[] = ["sections/s ≥ 3× {$short[$peer]}'s", ($why($reference) ?? $why($peer))
            ?? sprintf('%.2f× (%s vs %s /s; the token floor: %s)', $a / max(1e-9, $b), number_format($a), number_format($b),
                $f === null ? '–' : sprintf('%.2f×', $f / max(1e-9, $b))),
            $verdict($a !== null && $b !== null ? $a >= 3 * $b : null)];
    }
    $fair = $at($reference, 'fair');
    $rows[] = ['fairness ≥ 0.95 (min/max sections per process, worst round)', $why($reference)
        ?? sprintf('%.3f (floor: %s)', $fair, ($f = $at($floor, 'fair')) === null ? '–' : sprintf('%.3f', $f)),
        $verdict($fair === null ? null : $fair >= 0.95)];
    $refAgg = $agg[$reference] ?? null;
    $rows[] = [$rw ? 'no write section overlaps another section (time stamps and check file, every round)'
        : "never more than $permits holders at once (time stamps and check file, every round)",
        $refAgg === null ? ($why($reference) ?? 'failed') : sprintf('%d / %d violations%s', $refAgg['violations'], $refAgg['checkViolations'],
            $rw ? '' : sprintf(', most at once %d / %d', $refAgg['most'], $refAgg['checkMost'])),
        $verdict($refAgg === null ? ($refRan ? false : null) : $refAgg['violations'] === 0 && $refAgg['checkViolations'] === 0
            && !$failed($reference))];
    target_facts($scenario, ['server' => $redis->version(), 'title' => "$ours ($title)", 'rows' => $rows,
        'rounds' => $rounds, 'seconds' => $seconds]);

    if ($rw) {
        printf("Each of %d processes loops { a read or, with probability %.1f %% (drawn per hold from a seeded sequence, the same "
            . "for every implementation of a round), a write hold (blocking, 30 s timeout, TTL %d s); critical section: usleep(%d) "
            . "inside the hold; release; usleep(%d) } from a common start time for %s s; a hold still waiting at the end completes "
            . "and its section runs (the drain). %d interleaved rounds (rotating order; a fresh set of processes per run, each warmed "
            . "up on a key of its own first; FLUSHALL before each run).\n\n",
            $k, $writePermille / 10, CONTENTION_TTL_SECONDS, $sectionUs, $outsideUs, $seconds, $rounds);
    } else {
        printf("Each of %d processes loops { take a permit of %d (blocking, 30 s timeout, TTL %d s); critical section: usleep(%d) "
            . "inside the hold; give it back; usleep(%d) } from a common start time for %s s (the processes ask for more than %d "
            . "permits can serve: contention); a take still waiting at the end completes and its section runs (the drain). %d "
            . "interleaved rounds (rotating order; a fresh set of processes per run, each warmed up on a key of its own first; "
            . "FLUSHALL before each run).\n\n",
            $k, $permits, CONTENTION_TTL_SECONDS, $sectionUs, $outsideUs, $seconds, $permits, $rounds);
    }
    echo "How the columns are computed. Sections/s counts the sections whose hold was taken before the end, over the window; "
        . "medians over rounds. Wait = hold called → taken, for every hold of the run (drain included); percentiles of all "
        . "rounds' waits together. Fairness = min/max sections per process within the window, worst round. Mean "
        . ($rw ? 'sections in progress' : 'permits in use') . " = the sum of section durations over the window's wall time. "
        . "Violations, two independent witnesses: the time stamps (hrtime(true), one monotonic clock for all processes) of "
        . "each section, from hold taken to release about to be called, hence inside the hold: "
        . ($rw ? 'a write section overlapping any other section, or a read section overlapping a write section, counts once '
            . '(for the one that started later)' : "a section starting while $permits others are in progress counts once")
        . "; and a check file the sections enter and leave under flock(LOCK_EX), which counts the same conditions as they "
        . "happen. Redis commands and CPU per section: INFO commandstats and INFO cpu before the start and after every process "
        . "exited, over every section of the run (drain included), medians over rounds; commandstats also counts the commands "
        . "a Lua script runs; INFO is left out. vs floor: over the token floor's in the same runs.\n\n";
    echo noise_note_shared($pressure);
    echo 'Machine: ', machine_facts($redis), '; symfony/semaphore ',
        trim((string) shell_exec("dpkg-query -W -f='\${Version}' php-symfony-semaphore 2>/dev/null")) ?: 'not installed', "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: "php bench/scenario_shared.php $scenario", "`\n\n";

    echo "<details><summary>per run: sections/s and drain per round, measured critical section, release() call, commands per section</summary>\n\n";
    echo "| implementation | sections/s per round | sections in window + drain (drain ms) per round | fairness per round "
        . ($rw ? '| writes (all rounds) ' : '') . "| critical section p50 / p99 / max (ms) | release p50 / p99 (ms) | commands per section |\n"
        . '|---|---|---|---|' . ($rw ? '---:|' : '') . "---|---|---|\n";
    foreach ($impls as $impl) {
        $a = $agg[$impl] ?? null;
        if ($a === null) {
            printf("| %s | failed | | |%s | | |\n", $short[$impl], $rw ? ' |' : '');
            continue;
        }
        $calls = [];
        foreach ($a['rounds'] as $r) {
            foreach (array_diff_key($r['calls'], ['info' => 0]) as $cmd => $cnt) {
                $calls[$cmd] = ($calls[$cmd] ?? 0) + $cnt;
            }
        }
        $total = array_sum(array_column($a['rounds'], 'total'));
        arsort($calls);
        printf("| %s | %s | %s | %s |%s %s / %s / %s | %s / %s | %s |\n", $short[$impl],
            implode(', ', array_map(fn ($r) => number_format($r['rate']), $a['rounds'])),
            implode(', ', array_map(fn ($r) => sprintf('%d + %d (%.0f)', $r['inWindow'], $r['total'] - $r['inWindow'], $r['drainMs']), $a['rounds'])),
            implode(', ', array_map(fn ($r) => sprintf('%.3f (%d/%d)', $r['fair'], $r['minmax'][0], $r['minmax'][1]), $a['rounds'])),
            $rw ? sprintf(' %d |', $a['nw']) : '',
            $ms($a['s50']), $ms($a['s99']), $ms($a['smax']), $ms($a['rel50']), $ms($a['rel99']),
            implode(', ', array_map(fn ($cmd, $cnt) => sprintf('%s %.2f', $cmd, $cnt / max(1, $total)), array_keys($calls), $calls)));
    }
    echo "\n</details>\n\n";
    if (array_filter($impls, $failed)) {
        note("$scenario: some implementations FAILED (see the tables)");
        exit(1);
    }
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
} finally {
    Workers::killAll();
    RedisServer::stopAll();
}

function noise_note_shared(?float $pressure): string
{
    return $pressure === null ? '' : sprintf("CPU pressure during the runs: some task was waiting for a CPU %.0f %% of the time "
        . "(/proc/pressure/cpu; with this many processes on %s CPUs much of it is the benchmark's own).\n\n",
        $pressure, trim((string) shell_exec('nproc')));
}
