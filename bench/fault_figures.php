<?php
/**
 * Fault figures: how long each fault of DESIGN.md's fault model costs a caller,
 * measured on this machine against servers and fakes of its own (the helpers of
 * php-tests/inc: RedisServer, RlBlackHole, RlFakeRedis), each in a fresh PHP
 * process so that nothing is pooled or remembered from one run to the next.
 * Prints a Markdown table: the median of 5 runs, with the fastest and slowest.
 *
 *   php -d extension=target/release/libredis_lock.so bench/fault_figures.php
 *
 * FAULT_RUNS (default 5) changes the number of runs; FAULT_CYCLE_SECONDS
 * (default 2.5) how long each RedLock run times lock + unlock cycles (more than
 * 1 s: a host that did not answer is remembered as down for 1 s).
 */
declare(strict_types=1);

require __DIR__ . '/../php-tests/inc/fake_server.inc';

if (!extension_loaded('redis_lock')) {
    fwrite(STDERR, "fault_figures: load the extension: php -d extension=target/release/libredis_lock.so bench/fault_figures.php\n");
    exit(1);
}
if (!is_file(rl_extension_path())) {
    fwrite(STDERR, 'fault_figures: ' . rl_extension_path() . " is missing (run: cargo build --release)\n");
    exit(1);
}
$runs = max(1, (int) (getenv('FAULT_RUNS') ?: 5));
$cycleSeconds = max(0.1, (float) (getenv('FAULT_CYCLE_SECONDS') ?: 2.5));

function median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

/** Seconds in a readable unit. */
function fmt(float $s): string
{
    return match (true) {
        $s >= 1 => sprintf('%.3f s', $s),
        $s >= 0.01 => sprintf('%.1f ms', $s * 1000),
        $s >= 0.001 => sprintf('%.2f ms', $s * 1000),
        default => sprintf('%.0f µs', $s * 1e6),
    };
}

/** Runs a child script (fake_server.inc already required) and returns its last stdout line, JSON-decoded. */
function child_json(string $body, array $ini, array $args = []): array
{
    $r = PhpChild::run(rl_child_code($body), $ini, $args, true, null, 60);
    $lines = array_values(array_filter(explode("\n", trim($r['out'])), fn ($l) => str_starts_with($l, '{')));
    $data = $lines ? json_decode(end($lines), true) : null;
    if (!is_array($data)) {
        throw new RuntimeException("child failed (exit {$r['status']}): {$r['out']} {$r['err']}");
    }
    return $data + ['_out' => $r['out'], '_status' => $r['status']];
}

/** $text with the numbers that change from run to run (ports, keys) replaced. */
function mask(string $text): string
{
    return preg_replace(['/127\.0\.0\.1:\d+/', '/\bk\d+\b/'], ['127.0.0.1:PORT', 'kN'], $text);
}

$rows = [];
/** @param float[] $secs */
$row = function (string $what, string $setting, array $secs, string $note) use (&$rows): void {
    $rows[] = [$what, $setting, fmt(median($secs)), fmt(min($secs)) . ' – ' . fmt(max($secs)), $note];
    fwrite(STDERR, "  $what, $setting: " . fmt(median($secs)) . "\n");
};
$progress = fn (string $s) => fwrite(STDERR, "$s\n");
$loadBefore = sys_getloadavg();

// 1. RedLock over 5 nodes, one of them black-holed (SYN never answered).
$progress('RedLock, 5 nodes, 1 black-holed');
$servers = rl_start_servers(4);
$bh = RlBlackHole::tcp();
$redlockChild = <<<'PHP'
[$_, $ports, $seconds] = $argv;
$list = array_map(fn ($p) => ['127.0.0.1', (int) $p, 0.05], explode(',', $ports));
$rl = new RedLock($list, 50, 3);
$t = hrtime(true);
$lock = $rl->lock('fault-figures', 10000);
$first = (hrtime(true) - $t) / 1e9;
if (!is_array($lock) || !$rl->unlock($lock)) { echo "first lock failed\n"; exit(1); }
$times = [];
$end = hrtime(true) + (float) $seconds * 1e9;
while (hrtime(true) < $end) {
    $t = hrtime(true);
    $lock = $rl->lock('fault-figures', 10000);
    $ok = is_array($lock) && $rl->unlock($lock);
    $times[] = (hrtime(true) - $t) / 1e9;
    if (!$ok) { echo 'cycle ', count($times), " failed\n"; exit(1); }
}
sort($times);
echo json_encode(['first' => $first, 'cycle' => $times[intdiv(count($times), 2)], 'max' => end($times),
    'n' => count($times), 'slow' => count(array_filter($times, fn ($x) => $x >= 0.025))]), "\n";
PHP;
$ports = [$servers[0]->port, $servers[1]->port, $bh->port, $servers[2]->port, $servers[3]->port];
$live = [$servers[0]->port, $servers[1]->port, $servers[2]->port, $servers[3]->port, RedisServer::start()->port];
$res = ['bh' => [], 'live' => []];
for ($i = 0; $i < $runs; $i++) {
    $res['bh'][] = child_json($redlockChild, [], [implode(',', $ports), (string) $cycleSeconds]);
    $res['live'][] = child_json($redlockChild, [], [implode(',', $live), (string) $cycleSeconds]);
}
$col = fn (string $set, string $k) => array_column($res[$set], $k);
$slow = fn (string $set) => sprintf('%d–%d of %d–%d cycles per run took 25 ms or more',
    min($col($set, 'slow')), max($col($set, 'slow')), min($col($set, 'n')), max($col($set, 'n')));
$row('RedLock::lock(), first call of a process', '5 nodes `[host, port, 0.05]`, the 3rd black-holed', $col('bh', 'first'),
    'connects to all 5 at once; the 4 live nodes answer within about a millisecond (see the reference row), and the call still waits for the black-holed node to connect (its 0.05 s), so that a node that is only slow to connect still gets the lock');
$row('RedLock::lock() + unlock(), later cycles: median cycle', 'the same', $col('bh', 'cycle'), "cycles for $cycleSeconds s per run");
$row('RedLock::lock() + unlock(), later cycles: slowest cycle', 'the same', $col('bh', 'max'), $slow('bh'));
$row('(reference) RedLock::lock(), first call', '5 live nodes', $col('live', 'first'), 'connects to all 5');
$row('(reference) RedLock::lock() + unlock(): median cycle', '5 live nodes', $col('live', 'cycle'), "cycles for $cycleSeconds s per run");
$row('(reference) RedLock::lock() + unlock(): slowest cycle', '5 live nodes', $col('live', 'max'), $slow('live'));

// 2. RedisMutexLock against a black-holed host.
$progress('RedisMutexLock, black-holed host');
$bhChild = <<<'PHP'
$out = [];
foreach (['first', 'again'] as $k) {
    $t = hrtime(true);
    try { RedisMutexLock::lock('k'); $out[$k . '_msg'] = 'no exception'; }
    catch (Throwable $e) { $out[$k . '_msg'] = get_class($e) . ': ' . $e->getMessage(); }
    $out[$k] = (hrtime(true) - $t) / 1e9;
}
echo json_encode($out), "\n";
PHP;
$t1 = $t2 = [];
for ($i = 0; $i < $runs; $i++) {
    $d = child_json($bhChild, ['redis_lock.server' => "redis://127.0.0.1:{$bh->port}", 'redis_lock.connect_timeout' => '0.2']);
    $t1[] = $d['first'];
    $t2[] = $d['again'];
}
$row('RedisMutexLock::lock() → exception', 'black-holed host, `connect_timeout` 0.2', $t1, '`' . mask($d['first_msg']) . '`');
$row('the next lock() within 1 s', 'the same', $t2, '`' . mask($d['again_msg']) . '` (a connect timeout is remembered for 1 s)');

// 3. A server that drips its reply one byte every 200 ms.
$progress('RedisMutexLock, dripping server');
$drip = new RlFakeRedis('drip');
$dripChild = <<<'PHP'
$t = hrtime(true);
try { RedisMutexLock::lock('k'); $msg = 'no exception'; }
catch (Throwable $e) { $msg = get_class($e) . ': ' . $e->getMessage(); }
echo json_encode(['secs' => (hrtime(true) - $t) / 1e9, 'msg' => $msg]), "\n";
PHP;
$t1 = [];
for ($i = 0; $i < $runs; $i++) {
    $d = child_json($dripChild, ['redis_lock.server' => $drip->dsn(), 'redis_lock.read_timeout' => '1']);
    $t1[] = $d['secs'];
}
$row('RedisMutexLock::lock() → exception', 'server drips 1 byte / 200 ms, `read_timeout` 1', $t1, '`' . mask($d['msg']) . '`: one deadline for the whole reply');
$drip->stop();

// 4. Locks still held when a request ends: a stopped server, and a running one.
$progress('request end');
$redis = RedisServer::start();
$holdChild = <<<'PHP'
<?php
$n = (int) $argv[1];
for ($i = 0; $i < $n; $i++) {
    if (!RedisMutexLock::lock("k$i", 0, 60)) { echo "lock k$i failed\n"; exit(1); }
}
echo "held\n";
fgets(STDIN);
PHP;
$ini = ['redis_lock.server' => $redis->dsn(), 'redis_lock.read_timeout' => '0.5', 'redis_lock.connect_timeout' => '0.5'];
$clear = function () use ($redis): void {
    foreach ($redis->cmd('KEYS', 'lock:*') as $k) {
        $redis->cmd('DEL', $k);
    }
};
foreach ([[0, false], [20, true], [1000, true], [20, false], [1000, false]] as [$n, $stopped]) {
    $secs = [];
    $left = [];
    for ($i = 0; $i < $runs; $i++) {
        $child = rl_child($holdChild, $ini, [(string) $n]);
        $line = $child->readLine(30);
        if ($line !== 'held') {
            throw new RuntimeException("the child did not take its locks: $line");
        }
        if ($stopped) {
            $redis->pause();
        }
        $t = rl_now();
        $r = $child->wait(30); // closes its stdin: the script ends, request shutdown releases
        $secs[] = rl_now() - $t;
        if ($stopped) {
            $redis->resume();
        } else {
            $left[] = count($redis->cmd('KEYS', 'lock:*'));
        }
        if ($r['status'] !== 0) {
            throw new RuntimeException("the child exited with {$r['status']}: {$r['out']} {$r['err']}");
        }
        $clear();
    }
    if ($n === 0) {
        $row('(reference) a PHP process ends', 'no lock held', $secs, 'process teardown, measured the same way');
    } elseif ($stopped) {
        $row("request end with $n locks held", 'server stopped (SIGSTOP), `read_timeout` 0.5, `connect_timeout` 0.5', $secs,
            'from closing the child\'s stdin to its exit: one bounded release round');
    } else {
        $row("request end with $n locks held", 'server running', $secs, 'locks left afterwards: ' . (max($left) === 0 ? 'none, in every run' : json_encode($left)));
    }
}

// 5. max_execution_time during a busy wait inside the extension (RedLock
// retrying without pause) for a lock another process holds. (A queued
// RedisMutexLock wait blocks in the kernel and uses no CPU time, which is
// what PHP's limit counts.)
$progress('max_execution_time');
$redis->cmd('SET', 'b', 'the-parent', 'PX', 600000);
$metChild = <<<'PHP'
<?php
$t = 0;
register_shutdown_function(function () use (&$t) {
    $ru = getrusage();
    echo "\n", json_encode(['secs' => (hrtime(true) - $t) / 1e9,
        'cpu' => $ru['ru_utime.tv_sec'] + $ru['ru_utime.tv_usec'] / 1e6 + $ru['ru_stime.tv_sec'] + $ru['ru_stime.tv_usec'] / 1e6]), "\n";
});
$t = hrtime(true);
(new RedLock([$argv[1]], 0, 4294967295))->lock('b', 20000);
echo "not reached\n";
PHP;
$secs = $cpu = [];
for ($i = 0; $i < $runs; $i++) {
    $r = PhpChild::run($metChild, ['redis_lock.server' => $redis->dsn(), 'max_execution_time' => '1'], [$redis->dsn()], true, null, 60);
    if (!str_contains($r['out'], 'Maximum execution time of 1 second exceeded') || !preg_match('/^(\{.*\})$/m', $r['out'], $m)) {
        throw new RuntimeException("no time-limit fatal error: {$r['out']} {$r['err']}");
    }
    $d = json_decode($m[1], true);
    $secs[] = $d['secs'];
    $cpu[] = $d['cpu'];
}
$row('RedLock::lock() retrying without pause → PHP\'s fatal error', '`max_execution_time` 1, retryDelay 0, lock held by another process', $secs,
    sprintf('"Maximum execution time of 1 second exceeded"; CPU time of the process by then: %.2f s (median); PHP\'s limit counts CPU time, not wall time', median($cpu)));
$redis->cmd('DEL', 'b');

// The report.
$so = rl_extension_path();
$redisVersion = preg_match('/v=(\S+)/', (string) shell_exec('redis-server --version'), $m) ? $m[1] : '?';
$cpuModel = preg_match('/^model name\s*:\s*(.+)$/m', (string) @file_get_contents('/proc/cpuinfo'), $m) ? trim($m[1]) : '?';
$loadAfter = sys_getloadavg();
echo "### Fault figures: what each fault costs a caller\n\n";
echo "| fault, call | configuration | median of $runs runs | fastest – slowest | note |\n|---|---|---:|---:|---|\n";
foreach ($rows as $r) {
    echo '| ', implode(' | ', array_map(fn ($c) => str_replace('|', '\|', $c), $r)), " |\n";
}
echo "\nEach run is a fresh PHP process (nothing pooled or remembered from an earlier run); times are wall times "
    . "measured inside it with hrtime(), except the request-end rows, measured by the parent from closing the child's stdin "
    . "to its exit (that includes the process teardown of the reference row).\n\n";
printf("Machine: nproc %d (%s), %s %s; PHP %s; Redis %s; redis_lock %s (.so sha256 %s); load average %.2f before, %.2f after\n\n",
    (int) trim((string) shell_exec('nproc')), $cpuModel, php_uname('s'), php_uname('r'), PHP_VERSION, $redisVersion,
    phpversion('redis_lock') ?: '?', substr(hash_file('sha256', $so), 0, 12), $loadBefore[0], $loadAfter[0]);
echo "Command: `php -d extension=target/release/libredis_lock.so bench/fault_figures.php`"
    . ($runs !== 5 || $cycleSeconds !== 2.5 ? " (FAULT_RUNS=$runs FAULT_CYCLE_SECONDS=$cycleSeconds)" : '') . "\n";
