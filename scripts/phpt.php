<?php
// The .phpt tests in parallel (scripts/php-tests.sh calls this): each test is
// one run of PHP's own run-tests.php, PHPT_JOBS of them at once, the slowest
// (as the last run timed them) first. A test that must have the machine to
// itself says so the way run-tests.php understands, `--CONFLICTS--` `all`,
// and runs alone after the others; tests naming the same other conflict key
// never overlap. run-tests.php's own -j hands out batches of up to 32 tests
// from one folder, so one worker ends up with the slow folder alone.
//
//   php scripts/phpt.php RUN_TESTS PHP EXT [--check] [run-tests options] [tests or folders]
//   --check     only the tests php-tests/check.list names (make check)
//   PHPT_JOBS   tests at once (default: 2 per CPU; most of a test is waiting)
//   PHPT_TIMES  the last run's times, the order's only input (default:
//               ~/.cache/redis-lock/phpt-times.tsv, outside the clone, so that a
//               fresh clone starts with them); without it, the folders' order
//
// A test that passes only on run-tests.php's silent retry (its code sleeps or
// its output says "timed out") counts as failed: it would hide an intermittent
// bug. Last line: `phpt: P passed, F failed, S skipped`; exit 1 on any failure.

[$self, $runTests, $php, $ext] = array_pad(array_slice($argv, 0, 4), 4, null);
if ($ext === null) {
    fwrite(STDERR, "usage: php $self RUN_TESTS PHP EXT [run-tests options] [tests or folders]\n");
    exit(2);
}
$options = [];
$targets = [];
$check = false;
foreach (array_slice($argv, 4) as $arg) {
    if ($arg === '--check') {
        $check = true;
    } elseif (file_exists($arg)) {
        $targets[] = rtrim($arg, '/');
    } else {
        $options[] = $arg;
    }
}
$targets = $targets ?: ['php-tests'];

$files = [];
foreach ($targets as $t) {
    if (is_dir($t)) {
        $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($t, FilesystemIterator::SKIP_DOTS));
        foreach ($it as $f) {
            if (str_ends_with($f->getFilename(), '.phpt')) {
                $files[] = $f->getPathname();
            }
        }
    } elseif (str_ends_with($t, '.phpt')) {
        $files[] = $t;
    }
}
if ($check) {
    $files = check_list('php-tests/check.list', $files);
}
$files = array_values(array_unique($files));
sort($files);
if (!$files) {
    fwrite(STDERR, "phpt: no .phpt file in " . implode(' ', $targets) . "\n");
    exit(2);
}

$cpus = (int) (@shell_exec('nproc') ?: 2);
$jobs = (int) (getenv('PHPT_JOBS') ?: 2 * max(1, $cpus));
if ($jobs < 1) {
    fwrite(STDERR, "phpt: PHPT_JOBS must be a positive number\n");
    exit(2);
}
$timesFile = getenv('PHPT_TIMES') ?: (getenv('REDIS_LOCK_CACHE') ?: (getenv('HOME') ?: '/root') . '/.cache/redis-lock') . '/phpt-times.tsv';
$times = [];
foreach (@file($timesFile, FILE_IGNORE_NEW_LINES) ?: [] as $line) {
    [$f, $s] = array_pad(explode("\t", $line), 2, '0');
    $times[$f] = (float) $s;
}

// --check: the tests php-tests/check.list names (make check), which must
// all exist and cover every folder that has tests.
function check_list(string $list, array $all): array
{
    $picked = [];
    foreach (file($list, FILE_IGNORE_NEW_LINES) ?: [] as $line) {
        $line = trim($line);
        if ($line !== '' && $line[0] !== '#') {
            $picked[] = dirname($list) . '/' . $line;
        }
    }
    $errors = [];
    foreach (array_diff($picked, $all) as $gone) {
        $errors[] = "$list names $gone, which is not a test";
    }
    foreach (array_diff(array_unique(array_map('dirname', $all)), array_map('dirname', $picked)) as $dir) {
        $errors[] = "$list names no test of $dir/";
    }
    if ($errors) {
        fwrite(STDERR, 'phpt: ' . implode("\nphpt: ", $errors) . "\n");
        exit(2);
    }
    return $picked;
}

// The conflict keys of a test, as run-tests.php reads them.
function conflicts(string $file): array
{
    $text = file_get_contents($file);
    if (preg_match('/^--CONFLICTS--(.+?)^--/ms', $text, $m)) {
        $src = $m[1];
    } elseif (is_file(dirname($file) . '/CONFLICTS')) {
        $src = file_get_contents(dirname($file) . '/CONFLICTS');
    } else {
        return [];
    }
    $keys = [];
    foreach (explode("\n", $src) as $line) {
        $line = trim(preg_replace('/#.*/', '', $line));
        if ($line !== '') {
            $keys[] = $line;
        }
    }
    return $keys;
}

$parallel = [];
$alone = [];
$keys = [];
foreach ($files as $f) {
    $keys[$f] = conflicts($f);
    if (in_array('all', $keys[$f], true)) {
        $alone[] = $f;
    } else {
        $parallel[] = $f;
    }
}
// Slowest first, so that no long test starts last; unknown ones first of all
// (a new test may be slow). Ties keep the folders' order.
usort($parallel, fn($a, $b) => [$times[$b] ?? INF, $a] <=> [$times[$a] ?? INF, $b]);

$logDir = sys_get_temp_dir() . '/redis_lock_phpt.' . getmypid() . '.' . bin2hex(random_bytes(4));
mkdir($logDir, 0700);
register_shutdown_function(function () use ($logDir) {
    foreach (glob("$logDir/*") as $f) {
        @unlink($f);
    }
    @rmdir($logDir);
});

$total = count($files);
$done = 0;
$started = hrtime(true);
$results = ['PASS' => [], 'FAIL' => [], 'SKIP' => []];
$running = [];   // file => [proc, log, t0]

function start(string $file, array $cmd, string $logDir): array
{
    $log = $logDir . '/' . md5($file) . '.log';
    $proc = proc_open(
        array_merge($cmd, [$file]),
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'a']],
        $pipes,
        null,
        array_merge(getenv(), ['NO_INTERACTION' => '1'])
    );
    if (!is_resource($proc)) {
        fwrite(STDERR, "phpt: could not start run-tests.php for $file\n");
        exit(2);
    }
    return [$proc, $log, hrtime(true)];
}

// run-tests.php runs a failed test a second time when its code sleeps or its
// output says "timed out" or "connection refused", and shows only the second
// run. A pass on that retry is a failure here anyway, so a copy without the
// retry shows the first run's diff, the one that explains it. (Where the copy
// cannot be made, the retry's WARN is still counted as a failure.)
$src = (string) file_get_contents($runTests);
$noRetry = preg_replace('/(if \(!\$passed && !\$retried && )error_may_be_retried\(\$test, \$output\)\)/', '$1false)', $src, 1, $n);
if ($n === 1 && file_put_contents("$logDir/run-tests.php", $noRetry) !== false) {
    $runTests = "$logDir/run-tests.php";
}
$cmd = array_merge([PHP_BINARY, $runTests, '-p', $php, '-d', "extension=$ext", '-q', '--show-diff'], $options);

// What one run of run-tests.php said about its one test.
function judge(string $file, string $out, int $exit): array
{
    $clean = str_replace("\r", "\n", preg_replace('/\e\[[0-9;]*m/', '', $out));
    if (preg_match_all('/^(?:TEST \d+\/\d+ \[[^\]]+\])?(PASS|FAIL|SKIP|BORK|LEAK|WARN|XFAIL|XLEAK|LEAK&FAIL) (.*)$/m', $clean, $m, PREG_SET_ORDER)) {
        $m = end($m);
        $line = $m[1] . ' ' . $m[2];
        $kind = $m[1];
    } else {
        $line = "FAIL run-tests.php exited $exit without a result [$file]";
        $kind = 'FAIL';
    }
    if ($kind === 'WARN' && str_contains($line, 'passed on retry')) {
        $line = "FAIL (passed only on run-tests.php's retry) " . $line;
        $kind = 'FAIL';
    }
    $kind = match ($kind) {
        'PASS', 'XFAIL' => 'PASS',
        'SKIP' => 'SKIP',
        default => 'FAIL',
    };
    if ($kind !== 'FAIL' && $exit !== 0) {
        $kind = 'FAIL';
        $line = "FAIL (run-tests.php exited $exit) " . $line;
    }
    return [$kind, trim($line), $clean];
}

function busy(array $running, array $keys, string $file): bool
{
    foreach ($running as $other => $_) {
        if (array_intersect($keys[$other], $keys[$file])) {
            return true;
        }
    }
    return false;
}

$queue = $parallel;
$parallelJobs = $jobs;
$aloneCount = count($alone);
while ($queue || $running || $alone) {
    if (!$queue && !$running && $alone) {
        // The tests that need the machine to themselves, one at a time.
        $queue = $alone;
        $alone = [];
        $jobs = 1;
        printf("phpt: %d tests that run alone\n", count($queue));
    }
    while (count($running) < $jobs && $queue) {
        $pick = null;
        foreach ($queue as $i => $f) {
            if (!busy($running, $keys, $f)) {
                $pick = $i;
                break;
            }
        }
        if ($pick === null) {
            break;
        }
        $f = $queue[$pick];
        array_splice($queue, $pick, 1);
        $running[$f] = start($f, $cmd, $logDir);
    }
    usleep(20000);
    foreach ($running as $f => [$proc, $log, $t0]) {
        $st = proc_get_status($proc);
        if ($st['running']) {
            continue;
        }
        proc_close($proc);
        unset($running[$f]);
        $secs = (hrtime(true) - $t0) / 1e9;
        $times[$f] = $secs;
        [$kind, $line, $out] = judge($f, (string) file_get_contents($log), $st['exitcode']);
        $results[$kind][] = $f;
        $done++;
        printf("%s (%.1f s, %d/%d)\n", $line, $secs, $done, $total);
        if ($kind === 'FAIL') {
            // run-tests.php's diff, else the end of what it printed.
            if (preg_match('/^========DIFF========\n.*?^========DONE========$/ms', $out, $d)) {
                echo $d[0], "\n";
            } else {
                $tail = preg_replace('/^={10,}\n(Number of tests|TEST RESULT SUMMARY).*\z/ms', '', $out);
                $tail = preg_replace('/^(TEST \d+\/\d+ .*|(PASS|FAIL|SKIP|BORK|LEAK|WARN|XFAIL|XLEAK|LEAK&FAIL) .*)\n?/m', '', $tail);
                echo implode("\n", array_slice(explode("\n", rtrim($tail)), -30)), "\n";
            }
        }
    }
}

ksort($times);
@mkdir(dirname($timesFile), 0777, true);
$tsv = '';
foreach ($times as $f => $s) {
    if (is_file($f)) {
        $tsv .= sprintf("%s\t%.2f\n", $f, $s);
    }
}
// Whole or not at all: another run may be reading it.
$tmp = "$timesFile." . getmypid();
if (@file_put_contents($tmp, $tsv) !== false) {
    @rename($tmp, $timesFile);
}

$wall = (hrtime(true) - $started) / 1e9;
$slow = array_intersect_key($times, array_flip($files));
arsort($slow);
echo "\nslowest:\n";
foreach (array_slice($slow, 0, 8, true) as $f => $s) {
    printf("  %6.1f s  %s\n", $s, $f);
}
printf("phpt: %d tests in %.0f s (%.0f s of tests; %d at once, then %d alone)\n", $total, $wall, array_sum($slow), $parallelJobs, $aloneCount);
if ($results['FAIL']) {
    echo "failed:\n";
    foreach ($results['FAIL'] as $f) {
        echo "  $f\n";
    }
}
printf("phpt: %d passed, %d failed, %d skipped\n", count($results['PASS']), count($results['FAIL']), count($results['SKIP']));
exit($results['FAIL'] ? 1 : 0);
