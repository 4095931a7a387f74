<?php
/**
 * Scenario: K processes contend for ONE key on one throwaway Redis server.
 * Each process (contention_worker.php) loops { acquire, blocking; critical
 * section of BENCH_CONTENTION_SECTION_US µs (usleep) around a non-atomic
 * read-modify-write of a shared counter file; release; usleep of
 * BENCH_CONTENTION_OUTSIDE_US µs } from a common start time to a common end
 * time. RedisMutexLock beside the seed's polling mutex, Laravel's block() and
 * symfony/lock's acquire(true), interleaved in rotating order per round.
 * Progress goes to stderr; the Markdown result to stdout. Exit 1 when an
 * implementation failed (its row says why); the tables are printed anyway.
 *
 *   BENCH_CONTENTION_K           process counts (default "4 16 64")
 *   BENCH_CONTENTION_SECONDS     seconds per implementation per K per round (default 5)
 *   BENCH_CONTENTION_ROUNDS      interleaved rounds (default 2)
 *   BENCH_CONTENTION_IMPLS       implementations (default "redis_mutex_lock polling_mutex laravel symfony
 *                                token_floor"; token_floor is no lock to use but the floor of any Redis
 *                                hand-off, redlock_floor the floor of one over RedLock's 5 masters,
 *                                owner_floor the least an owner-checked lock with a TTL costs handed over
 *                                (two scripts), owner_confirm that with a confirmation round trip;
 *                                "no_lock" checks the harness: it must report lost updates)
 *   BENCH_CONTENTION_SECTION_US  critical section, µs (default 500)
 *   BENCH_CONTENTION_OUTSIDE_US  work outside the lock, µs (default 3000)
 *   BENCH_CONTENTION_DSN         run against this Redis instead of a throwaway redis-server of its own:
 *                                redis://host:port, or redis-cluster://seed,… (the cluster scenario
 *                                sets it; only the RedisMutexLock implementations and no_lock speak
 *                                cluster). FLUSHALL before each run empties it. Then no charts and no
 *                                targets (they are for one server).
 *   BENCH_CONTENTION_REDLOCK_DOWN  "killed": one of RedLock's 5 masters is killed before the runs (its
 *                                workers still name it: every look meets a refused connection);
 *                                "stopped": SIGSTOP instead (it accepts, then says nothing); its
 *                                counts are then the 4 others'
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

$labels = [
    'redis_mutex_lock' => 'RedisMutexLock::lock($key, 30, 10) (this extension, default $sleep)',
    'polling_mutex' => "seed's polling mutex: lock(\$key, 0, 10) retried every 100 ms",
    'laravel' => 'Laravel 8 Cache::lock()->block(30) (RedisStore, phpredis; retries every 250 ms)',
    'symfony' => 'symfony/lock 5.4 RedisStore, acquire(true) (phpredis; retries every 100 ± 10 ms)',
    'no_lock' => 'no lock at all (harness self-check: must lose updates)',
    'owner_floor' => 'floor of an owner-checked FIFO lock with a TTL: a join script + BLPOP, a hand-off script (no check that a waiter lives; not a lock to use)',
    'owner_confirm' => 'the owner floor with a confirmation: a hand-off is a 100 ms grant the woken waiter extends before it enters (not a lock to use)',
    'token_floor' => 'floor: one token passed by BLPOP/RPUSH (no TTL, no crash safety; not a lock to use)',
    'redlock' => 'RedLock over 5 masters, lock($key, TTL) queued (retryDelay 200, 30 s of patience); the counts are its 5 masters\' together',
    'redlock_floor' => 'floor over 5 masters: a token on each, BLPOP on the first then LPOP on the others, RPUSH on all (not a lock to use)',
];
$short = ['redis_mutex_lock' => 'RedisMutexLock', 'polling_mutex' => 'polling mutex', 'laravel' => 'Laravel',
    'symfony' => 'symfony', 'no_lock' => 'no lock', 'token_floor' => 'token floor', 'owner_floor' => 'owner floor',
    'owner_confirm' => 'owner floor + confirm', 'redlock' => 'RedLock (5 masters)', 'redlock_floor' => 'floor (5 masters)'];
$reference = 'redis_mutex_lock';
$polling = 'polling_mutex';
$floor = 'token_floor';

$list = fn (string $var, string $default) => preg_split('/[\s,]+/', trim((string) (getenv($var) ?: $default)), -1, PREG_SPLIT_NO_EMPTY);
$ks = array_map('intval', $list('BENCH_CONTENTION_K', '4 16 64'));
$impls = $list('BENCH_CONTENTION_IMPLS', 'redis_mutex_lock redlock polling_mutex laravel symfony token_floor');
$seconds = (float) (getenv('BENCH_CONTENTION_SECONDS') ?: 5);
$rounds = (int) (getenv('BENCH_CONTENTION_ROUNDS') ?: 2);
$sectionUs = (int) (getenv('BENCH_CONTENTION_SECTION_US') ?: 500);
$outsideUs = (int) (getenv('BENCH_CONTENTION_OUTSIDE_US') ?: 3000);
$dsn = getenv('BENCH_CONTENTION_DSN') ?: null;
$redlockDown = getenv('BENCH_CONTENTION_REDLOCK_DOWN') ?: '';
if (!in_array($redlockDown, ['', 'killed', 'stopped'], true)) {
    note("BENCH_CONTENTION_REDLOCK_DOWN: '$redlockDown' is neither \"killed\" nor \"stopped\"");
    exit(2);
}
if ($redlockDown !== '' && in_array('redlock_floor', $impls, true)) {
    note('BENCH_CONTENTION_REDLOCK_DOWN: redlock_floor needs all 5 masters (its holder takes a token on each)');
    exit(2);
}
foreach ($ks as $k) {
    if ($k < 1 || $k > 512) {
        note("BENCH_CONTENTION_K: $k is not a process count in 1..512");
        exit(2);
    }
}
foreach ($impls as $impl) {
    if (!isset($labels[$impl])) {
        note("BENCH_CONTENTION_IMPLS: unknown implementation '$impl' (known: " . implode(' ', array_keys($labels)) . ')');
        exit(2);
    }
}
if ($seconds <= 0 || $rounds < 1 || $sectionUs < 0 || $outsideUs < 0) {
    note('BENCH_CONTENTION_SECONDS and BENCH_CONTENTION_ROUNDS must be > 0, the _US settings >= 0');
    exit(2);
}

register_shutdown_function([Workers::class, 'killAll']);

/**
 * One run: K workers of $impl from a common start for $seconds. Returns
 * ['error' => string] or the raw facts of the run (see the end).
 */
function run_contention(string $impl, int $k, Masters $redis, float $seconds,
    int $sectionUs, int $outsideUs, string $tag): array
{
    $dir = run_dir() . "/contention-$tag";
    @mkdir($dir, 0700, true);
    $counterFile = "$dir/counter";
    file_put_contents($counterFile, sprintf('%020d', 0));
    $key = "bench:contention:$impl";
    [$host, $port] = $redis->first();
    try {
        $redis->flushAll(); // before the first snapshot: not counted
        for ($i = 0; $i < $k; $i++) {
            $cmd = [PHP_BINARY, '-d', 'extension=' . so_path(), '-d', 'redis_lock.server=' . $redis->dsn,
                __DIR__ . '/contention_worker.php', $impl, "$host:$port", $key, $counterFile,
                "$dir/result-$i", (string) $sectionUs, (string) $outsideUs];
            $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', "$dir/err-$i", 'w']], $pipes);
            if ($proc === false) {
                return ['error' => "cannot start process $i"];
            }
            $pid = proc_get_status($proc)['pid'];
            // bench/run.sh stops whatever is listed here, should this process die.
            $pidFile = run_dir() . "/contention-worker-$pid.pid";
            file_put_contents($pidFile, (string) $pid);
            stream_set_blocking($pipes[1], false);
            Workers::$list[$i] = ['proc' => $proc, 'in' => $pipes[0], 'out' => $pipes[1], 'pidFile' => $pidFile];
        }
        if (($err = await_line('ready', 60 + $k, $dir)) !== null) {
            return ['error' => "start: $err"];
        }

        $before = $redis->snapshot();
        // The barrier: everybody starts at t0 and stops starting sections at t_end.
        $t0 = hrtime(true) + 100_000_000;
        $tEnd = $t0 + (int) ($seconds * 1e9);
        foreach (Workers::$list as $w) {
            fwrite($w['in'], "go $t0 $tEnd\n");
        }
        // Every process ends after at most one more acquire (≤ 30 s) and section.
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

        $make = require __DIR__ . "/contention/$impl.php";
        $lockKey = $make($host, $port)->redisKey($key);
        $left = $redis->exists($lockKey);

        $procs = [];
        $procsCpuUs = 0;
        for ($i = 0; $i < $k; $i++) {
            $raw = (string) @file_get_contents("$dir/result-$i");
            $procs[$i] = $raw === '' ? [] : array_chunk(array_values(unpack('q*', $raw)), 4);
            $procsCpuUs += (int) @file_get_contents("$dir/result-$i.cpu");
        }
        $work = server_work($before, $after, 1); // the whole run's
        return [
            't0' => $t0, 'tEnd' => $tEnd, 'ended' => $ended, 'procs' => $procs,
            'counter' => (int) file_get_contents($counterFile),
            'calls' => $work['calls'], 'usec' => $work['usec_by'], 'redisCpuUs' => $work['cpu'],
            'procsCpuUs' => $procsCpuUs, 'keyLeft' => $left ? $lockKey : null,
        ];
    } catch (\Throwable $e) {
        return ['error' => get_class($e) . ': ' . $e->getMessage()];
    } finally {
        Workers::killAll();
    }
}

/** What one run measured, from its raw facts. */
function run_stats(array $run): array
{
    $t0 = $run['t0'];
    $tEnd = $run['tEnd'];
    $wall = ($tEnd - $t0) / 1e9;
    $all = [];
    $perProc = [];
    $waits = [];
    foreach ($run['procs'] as $i => $sections) {
        $perProc[$i] = 0;
        foreach ($sections as [$a0, $a1, $r0, $r1]) {
            $all[] = [$a0, $a1, $r0, $r1];
            $waits[] = ($a1 - $a0) / 1e6; // every acquire called before t_end, also those that returned after it
            if ($a1 < $tEnd) {
                $perProc[$i]++;
            }
        }
    }
    usort($all, fn ($x, $y) => $x[1] <=> $y[1]);
    // Acquire calls in progress at time t: started before t, not yet returned.
    $starts = array_column($all, 0);
    $returns = array_column($all, 1);
    sort($starts);
    $waitingAt = fn (int $t) => count_below($starts, $t) - count_below($returns, $t + 1);
    $inWindow = 0;
    $held = 0;
    $sectionMs = [];
    $releaseMs = [];
    $handoffs = [];
    $transitions = 0;
    $overlaps = 0;
    $lastRelease = PHP_INT_MIN;
    foreach ($all as $j => [$a0, $a1, $r0, $r1]) {
        // Mutual exclusion, seen from the clocks: a section must start after
        // every earlier one ended (its release was called).
        if ($a1 < $lastRelease) {
            $overlaps++;
        }
        $lastRelease = max($lastRelease, $r0);
        $sectionMs[] = ($r0 - $a1) / 1e6;
        $releaseMs[] = ($r1 - $r0) / 1e6;
        if ($a1 >= $tEnd) {
            continue;
        }
        $inWindow++;
        $held += min($r0, $tEnd) - $a1;
        if ($j > 0) {
            // Hand-off: the previous holder's release() returned → this acquire
            // returned; counted when some process was waiting for the lock as
            // the previous holder called release() (else the lock just lay free).
            $prev = $all[$j - 1];
            $transitions++;
            if ($waitingAt($prev[2]) > 0) {
                $handoffs[] = ($a1 - $prev[3]) / 1e6;
            }
        }
    }
    sort($waits);
    sort($sectionMs);
    sort($releaseMs);
    sort($handoffs);
    $commands = array_sum(array_diff_key($run['calls'], ['info' => 0]));
    $total = count($all);
    return [
        'rate' => $inWindow / $wall,
        'util' => $held / 1e9 / $wall,
        'waits' => $waits,
        'fair' => max($perProc) > 0 ? min($perProc) / max($perProc) : 0.0,
        'minmax' => [min($perProc), max($perProc)],
        'cmds' => $total ? $commands / $total : NAN,
        'calls' => $run['calls'],
        'usec' => $run['usec'],
        'cpu' => $total ? $run['redisCpuUs'] / $total : NAN,
        'pcpu' => $total ? $run['procsCpuUs'] / $total : NAN,
        'lost' => $total - $run['counter'],
        'overlaps' => $overlaps,
        'handoffs' => $handoffs,
        'transitions' => $transitions,
        'sectionMs' => $sectionMs,
        'releaseMs' => $releaseMs,
        'total' => $total,
        'inWindow' => $inWindow,
        'drainMs' => ($run['ended'] - $tEnd) / 1e6,
        'keyLeft' => $run['keyLeft'],
    ];
}

$ms = fn (?float $v) => $v === null ? '–' : ($v < 10 ? sprintf('%.2f', $v) : ($v < 100 ? sprintf('%.1f', $v) : number_format($v, 0)));

try {
    $redis = Masters::of($dsn ?? RedisServer::start()->dsn());
    // The implementations that run over RedLock's 5 masters.
    $fiveMasters = array_intersect($impls, ['redlock', 'redlock_floor']);
    if ($fiveMasters) {
        // RedLock's 4 other masters, throwaway servers of the same build.
        $more = array_map(fn () => RedisServer::start(), range(1, 4));
        putenv('BENCH_REDLOCK_MORE=' . implode(' ', array_map(fn ($r) => '127.0.0.1:' . $r->port, $more)));
        // Its commands and CPU are counted on all 5 (on the 4 live ones with one killed).
        $stopped = null;
        if ($redlockDown === 'killed') {
            array_pop($more)->stop();
            note('RedLock: one of its 5 masters killed');
        } elseif ($redlockDown === 'stopped') {
            $stopped = array_pop($more)->pid();
            posix_kill($stopped, SIGSTOP);
            note('RedLock: one of its 5 masters stopped (SIGSTOP)');
        }
        $redlockMasters = $redis->plus(array_map(fn ($r) => $r->dsn(), $more));
    }
    $runs = count($ks) * count($impls) * $rounds;
    note(sprintf('%s at %s; contention: K = %s; %d rounds × %d implementations × %d K × %s s '
        . '(+ start-up and drain: about %.0f s)', $redis->version(), $redis->dsn, implode(', ', $ks),
        $rounds, count($impls), count($ks), $seconds, $runs * ($seconds + 1.5) + $rounds * count($impls) * array_sum($ks) * 0.03));

    // The server's own background CPU (serverCron etc.) while nobody talks to it.
    $idle0 = $redis->snapshot();
    usleep(1_000_000);
    $idle1 = $redis->snapshot();
    $idleCpuPerS = $idle1['cpu_us'] - $idle0['cpu_us'];

    $mark = pressure_mark();
    $stats = []; // [impl][k] => list of per-round stats
    $failures = []; // [impl][k] => list of 'round r: why'
    for ($round = 0; $round < $rounds; $round++) {
        foreach ($ks as $k) {
            $progress = [];
            for ($i = 0; $i < count($impls); $i++) {
                $impl = $impls[($round + $i) % count($impls)];
                $run = run_contention($impl, $k, in_array($impl, $fiveMasters, true) ? $redlockMasters : $redis, $seconds, $sectionUs, $outsideUs, "$impl-$k-$round");
                if (isset($run['error'])) {
                    $failures[$impl][$k][] = sprintf('round %d: %s', $round + 1, $run['error']);
                    $progress[] = "$impl FAILED";
                    note("contention K=$k $impl round " . ($round + 1) . ' FAILED: ' . $run['error']);
                    continue;
                }
                $s = run_stats($run);
                $stats[$impl][$k][] = $s;
                if ($s['lost'] !== 0 || $s['overlaps'] !== 0) {
                    $failures[$impl][$k][] = sprintf('round %d: %d lost updates, %d overlapping sections',
                        $round + 1, $s['lost'], $s['overlaps']);
                }
                if ($s['keyLeft'] !== null) {
                    $failures[$impl][$k][] = sprintf('round %d: the lock key %s still existed after every process released and exited',
                        $round + 1, $s['keyLeft']);
                }
                $progress[] = sprintf('%s %.0f/s p99 %s ms', $impl, $s['rate'], $ms(pct($s['waits'], 0.99)));
            }
            note(sprintf('round %d/%d, K=%d: %s', $round + 1, $rounds, $k, implode(', ', $progress)));
        }
    }
    $pressure = cpu_pressure_since($mark);

    // Per implementation and K, over its rounds: medians of the rates and per-section
    // costs, percentiles of the pooled samples, the worst fairness, the sum of lost updates.
    $agg = [];
    foreach ($stats as $impl => $byK) {
        foreach ($byK as $k => $list) {
            $pool = function (string $f) use ($list) {
                $xs = array_merge(...array_column($list, $f));
                sort($xs);
                return $xs;
            };
            $waits = $pool('waits');
            $handoffs = $pool('handoffs');
            $sections = $pool('sectionMs');
            $releases = $pool('releaseMs');
            $agg[$impl][$k] = [
                'rate' => median(array_column($list, 'rate')),
                'util' => median(array_column($list, 'util')),
                'w50' => pct($waits, 0.5), 'w99' => pct($waits, 0.99), 'wmax' => $waits ? max($waits) : null,
                'fair' => min(array_column($list, 'fair')),
                'cmds' => median(array_column($list, 'cmds')),
                'cpu' => median(array_column($list, 'cpu')),
                'pcpu' => median(array_column($list, 'pcpu')),
                'lost' => array_sum(array_column($list, 'lost')),
                'overlaps' => array_sum(array_column($list, 'overlaps')),
                'h50' => pct($handoffs, 0.5), 'h99' => pct($handoffs, 0.99),
                'handoffs' => count($handoffs), 'transitions' => array_sum(array_column($list, 'transitions')),
                'r50' => pct($releases, 0.5), 'r99' => pct($releases, 0.99),
                's50' => pct($sections, 0.5), 's99' => pct($sections, 0.99), 'smax' => $sections ? max($sections) : null,
                'rounds' => $list,
            ];
        }
    }
    $failed = fn (string $impl, int $k) => !empty($failures[$impl][$k]);
    $series = fn (string $field) => array_combine(
        array_map(fn ($impl) => $short[$impl], $impls),
        array_map(fn ($impl) => array_map(fn ($k) => $failed($impl, $k) ? null : ($agg[$impl][$k][$field] ?? null), $ks), $impls));
    $kLabels = array_map(fn ($k) => "K=$k", $ks);
    if ($dsn === null) {
        chart('contention_p99', ['kind' => 'grouped', 'title' => 'Contention: wait p99 by number of processes (one key)',
            'unit' => 'wait p99, ms (log scale; lower is better)', 'log' => true, 'x' => $kLabels,
            'series' => $series('w99')]);
        chart('contention_fairness', ['kind' => 'grouped', 'title' => 'Contention: fairness (min/max sections per process)',
            'unit' => 'fairness (higher is better; 1 = equal shares)', 'x' => $kLabels, 'series' => $series('fair')]);
        chart('contention_rate', ['kind' => 'grouped', 'title' => 'Contention: critical sections per second',
            'unit' => 'sections/s (higher is better)', 'x' => $kLabels, 'series' => $series('rate')]);
    }

    foreach ($ks as $k) {
        printf("### Contention: %d processes, one key, %s (loopback)\n\n", $k, $redis->where());
        echo "| implementation | sections/s | utilisation | wait p50 / p99 / max (ms) | fairness (min/max sections per process) "
            . "| Redis commands/section | Redis CPU µs/section | CPU/section vs floor | lost updates | hand-off p50 / p99 (ms) |\n";
        echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
        // Redis CPU per section over the token floor's at this K, when the floor ran and did not fail.
        $floorCpu = !$failed($floor, $k) ? ($agg[$floor][$k]['cpu'] ?? null) : null;
        foreach ($impls as $impl) {
            $a = $agg[$impl][$k] ?? null;
            $label = $labels[$impl] . ($failed($impl, $k) ? ' — **FAILED**' : '');
            if ($a === null) {
                printf("| %s | – | – | – | – | – | – | – | – | – |\n", $label);
                continue;
            }
            printf("| %s | %s | %.0f %% | %s / %s / %s | %.3f | %.1f | %.0f | %s | %d | %s / %s |\n", $label,
                number_format($a['rate'], 0), 100 * $a['util'], $ms($a['w50']), $ms($a['w99']), $ms($a['wmax']),
                $a['fair'], $a['cmds'], $a['cpu'], $floorCpu > 0 ? sprintf('%.2f×', $a['cpu'] / $floorCpu) : '–',
                $a['lost'], $ms($a['h50']), $ms($a['h99']));
        }
        echo "\n";
        foreach ($impls as $impl) {
            foreach ($failures[$impl][$k] ?? [] as $why) {
                printf("- **%s FAILED** at K=%d, %s\n", $short[$impl], $k, $why);
            }
        }
        if (array_filter($impls, fn ($impl) => $failed($impl, $k))) {
            echo "\n";
        }
    }

    // The targets for RedisMutexLock, beside what the floor (one token passed
    // by BLPOP/RPUSH, nothing else) got in the same runs.
    if (in_array($reference, $impls, true) && $dsn === null) {
        $verdict = fn (?bool $met) => $met === null ? 'not measured' : ($met ? 'met' : '**NOT met**');
        $ran = fn (string $impl, int $k) => in_array($impl, $impls, true) && in_array($k, $ks, true);
        $at = fn (string $impl, int $k, string $field) => $ran($impl, $k) && isset($agg[$impl][$k]) && !$failed($impl, $k)
            ? $agg[$impl][$k][$field] : null;
        $perK = fn (string $impl, string $field, string $format) => !in_array($impl, $impls, true) ? '–' : implode(', ',
            array_map(fn ($k) => "K=$k: " . (($v = $at($impl, $k, $field)) === null ? 'failed' : sprintf($format, $v)), $ks));
        $all = fn (string $field, callable $pass) => array_reduce($ks,
            fn ($met, $k) => $met && ($v = $at($reference, $k, $field)) !== null && $pass($v), true);
        $rows = [];
        $rows[] = ['fairness ≥ 0.98 at every K', $perK($reference, 'fair', '%.3f'), $perK($floor, 'fair', '%.3f'),
            $verdict($all('fair', fn ($v) => $v >= 0.98))];
        foreach ([4 => 1.0, 16 => 12.0, 64 => 60.0] as $k => $limit) {
            $p99 = fn (string $impl) => !$ran($impl, $k) ? '–' : (($v = $at($impl, $k, 'w99')) === null ? 'failed' : $ms($v) . ' ms');
            $v = $at($reference, $k, 'w99');
            $rows[] = [sprintf('wait p99 ≤ %s ms at K=%d', $limit, $k), $p99($reference), $p99($floor),
                $verdict(!$ran($reference, $k) ? null : ($v !== null && $v <= $limit))];
        }
        // [sections/s over the polling mutex's, both rates] at K=16, or null.
        $vsPolling = fn (string $impl) => ($a = $at($impl, 16, 'rate')) !== null && ($b = $at($polling, 16, 'rate')) !== null
            ? [$a / max(1e-9, $b), $a, $b] : null;
        $times = fn (string $impl) => ($r = $vsPolling($impl)) === null ? '–'
            : sprintf('%.2f× (%s vs %s /s)', $r[0], number_format($r[1]), number_format($r[2]));
        $x = $vsPolling($reference)[0] ?? null;
        $rows[] = ["sections/s ≥ 2.5× the seed's polling mutex at K=16", $times($reference), $times($floor),
            $verdict($ran($polling, 16) && $ran($reference, 16) ? ($x !== null && $x >= 2.5) : null)];
        $rows[] = ['Redis CPU ≤ 200 µs per section (every K)', $perK($reference, 'cpu', '%.0f µs'), $perK($floor, 'cpu', '%.0f µs'),
            $verdict($all('cpu', fn ($v) => $v <= 200))];
        // [K => RedisMutexLock's Redis CPU per section over the floor's, or null when either failed].
        $cpuVsFloor = array_combine($ks, array_map(fn ($k) => ($a = $at($reference, $k, 'cpu')) !== null
            && ($b = $at($floor, $k, 'cpu')) !== null && $b > 0 ? $a / $b : null, $ks));
        $rows[] = ["Redis CPU per section ≤ 1.5× the floor's (every K)",
            implode(', ', array_map(fn ($k, $x) => "K=$k: " . ($x === null ? '–' : sprintf('%.2f×', $x)), $ks, $cpuVsFloor)),
            $perK($floor, 'cpu', '%.0f µs'),
            $verdict(!in_array($floor, $impls, true) ? null : !in_array(null, $cpuVsFloor, true) && max($cpuVsFloor) <= 1.5)];
        target_facts('contention', [
            'server' => $redis->version(),
            'perK' => array_map(fn ($k) => ['k' => $k, 'cpu' => $at($reference, $k, 'cpu'), 'floorCpu' => $at($floor, $k, 'cpu'),
                'ratio' => $cpuVsFloor[$k]], $ks),
            'floorRan' => in_array($floor, $impls, true),
            'rounds' => $rounds, 'seconds' => $seconds,
        ]);
        $lost = array_map(fn ($k) => [$k, isset($agg[$reference][$k]) ? $agg[$reference][$k]['lost'] + $agg[$reference][$k]['overlaps'] : null], $ks);
        $rows[] = ['lost updates 0 (every K, every round)',
            implode(', ', array_map(fn ($l) => "K=$l[0]: " . ($l[1] === null ? 'failed' : (string) $l[1]), $lost)), '',
            $verdict(!in_array(null, array_column($lost, 1), true) && max(array_column($lost, 1)) === 0
                && !array_filter($ks, fn ($k) => $failed($reference, $k)))];
        echo "Targets for RedisMutexLock:\n\n| target | RedisMutexLock | floor (token passing, same runs) | |\n|---|---|---|---|\n";
        foreach ($rows as [$what, $measured, $atFloor, $v]) {
            echo "| $what | $measured | $atFloor | $v |\n";
        }
        echo "\n";
    }

    printf("Each of K processes loops { acquire (blocking, 30 s timeout, TTL %d s); critical section: usleep(%d) between "
        . "reading and writing back a shared counter file (a non-atomic read-modify-write; a sleep, not a busy-wait, so "
        . "that the holder leaves the CPUs to Redis and the waiters; its measured length is in the details); release; "
        . "usleep(%d) } from a common start time for %s s; an acquire still waiting at the end completes and its section "
        . "runs (the drain). %d interleaved rounds (rotating order; a fresh set of K processes per run, each warmed up on "
        . "a key of its own first; FLUSHALL before each run).\n\n",
        CONTENTION_TTL_SECONDS, $sectionUs, $outsideUs, $seconds, $rounds);
    echo "How the columns are computed. Sections/s and utilisation (sum of section durations, acquire returned → "
        . "release called, over the wall time) count the sections whose acquire returned before the end; medians over "
        . "rounds. Wait = acquire called → returned, for every acquire of the run, also those that completed in the "
        . "drain; percentiles of all rounds' waits together. Fairness = min/max sections per process within the window, "
        . "worst round. Hand-off: the sections sorted by when their acquire returned, each paired with the one before "
        . "it; hand-off = this acquire returned − the previous holder's release() returned, counted only when some "
        . "process was waiting in acquire as the previous holder called release() (otherwise the lock just lay free; "
        . "\"contended hand-offs\" in the details); percentiles of all rounds together; it can be negative when the next "
        . "holder runs before the releaser has read its reply. Redis commands and CPU per section: INFO commandstats and "
        . "INFO cpu (used_cpu_user + used_cpu_sys) before the start and after every process exited, over every section "
        . "of the run (drain included), medians over rounds; the harness's only commands in between are those two INFO "
        . "calls, and INFO is left out of the count. commandstats counts the commands a Lua script runs as well as the "
        . "EVAL/EVALSHA that runs it (a compare-and-delete release is evalsha + get + del = 3): this is work for Redis, "
        . "not round trips; RedLock's are summed over its 5 masters. CPU/section vs floor = that Redis CPU per section over the token floor's at the same K. Lost updates = sections run − final counter, summed over rounds; the time stamps are also "
        . "checked for overlapping sections.\n\n";
    printf("Redis at rest used %.0f µs of CPU per second (background tasks), included in the CPU per section.\n\n", $idleCpuPerS);
    echo noise_note_contention($pressure);
    echo 'Machine: ', machine_facts($redis), "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";

    echo "<details><summary>per run: sections/s and drain per round, measured critical section, hand-offs, "
        . "the processes' CPU, commands and their server time per section</summary>\n\n";
    echo "The processes' CPU per section: what the K processes used in their loops (getrusage(), user + system: the "
        . "lock's client work, and the section's and the pause's own sleeps, reads and writes), over every section of "
        . "the run; median over rounds. With Redis's CPU it is what the two share of the machine. Redis µs per section by "
        . "command: INFO commandstats' usec over every section of every round, the largest first; a script's time "
        . "(evalsha) includes that of the commands it calls, which are also listed on their own.\n\n";
    echo "| K | implementation | sections/s per round | sections in window + drain (drain ms) per round | critical section p50 / p99 / max (ms) "
        . "| release() call p50 / p99 (ms) | contended hand-offs / all transitions | overlapping sections | processes' CPU µs/section | commands per section | Redis µs per section by command |\n"
        . "|---:|---|---|---|---|---|---:|---:|---:|---|---|\n";
    foreach ($ks as $k) {
        foreach ($impls as $impl) {
            $a = $agg[$impl][$k] ?? null;
            if ($a === null) {
                printf("| %d | %s | failed | | | | | | | | |\n", $k, $short[$impl]);
                continue;
            }
            $calls = [];
            $usec = [];
            foreach ($a['rounds'] as $r) {
                foreach (array_diff_key($r['calls'], ['info' => 0]) as $cmd => $n) {
                    $calls[$cmd] = ($calls[$cmd] ?? 0) + $n;
                }
                foreach ($r['usec'] as $cmd => $n) {
                    $usec[$cmd] = ($usec[$cmd] ?? 0) + $n;
                }
            }
            arsort($usec);
            $total = array_sum(array_column($a['rounds'], 'total'));
            arsort($calls);
            printf("| %d | %s | %s | %s | %s / %s / %s | %s / %s | %d / %d | %d | %.0f | %s | %s |\n", $k, $short[$impl],
                implode(', ', array_map(fn ($r) => number_format($r['rate']), $a['rounds'])),
                implode(', ', array_map(fn ($r) => sprintf('%d + %d (%.0f)', $r['inWindow'], $r['total'] - $r['inWindow'], $r['drainMs']), $a['rounds'])),
                $ms($a['s50']), $ms($a['s99']), $ms($a['smax']), $ms($a['r50']), $ms($a['r99']), $a['handoffs'], $a['transitions'], $a['overlaps'], $a['pcpu'],
                implode(', ', array_map(fn ($cmd, $n) => sprintf('%s %.2f', $cmd, $n / max(1, $total)), array_keys($calls), $calls)),
                implode(', ', array_map(fn ($cmd, $n) => sprintf('%s %.1f', $cmd, $n / max(1, $total)), array_keys($usec), $usec)));
        }
    }
    echo "\n</details>\n";
    $anyFailed = (bool) array_filter($failures, fn ($byK) => (bool) array_filter($byK));
    if ($anyFailed) {
        note('contention: some implementations FAILED (see the tables)');
        exit(1);
    }
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
} finally {
    Workers::killAll();
    if (isset($stopped)) {
        posix_kill($stopped, SIGCONT);
    }
    RedisServer::stopAll();
}

function noise_note_contention(?float $pressure): string
{
    return $pressure === null ? '' : sprintf("CPU pressure during the runs: some task was waiting for a CPU %.0f %% of the time "
        . "(/proc/pressure/cpu; with K processes on %s CPUs much of it is the benchmark's own).\n\n",
        $pressure, trim((string) shell_exec('nproc')));
}
