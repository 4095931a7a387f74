--TEST--
Audit, scale: 500 waiters parked on one RedisMutexLock key at once — 400 CLI processes and 100 PHP-FPM workers, each lock($key, 60, 10) — while this process holds it: all 500 in the queue, one connection each to Redis, a bounded server cost while they wait (memory per waiter, commands per second, no per-waiter keys); then one release hands the lock down the whole line: every waiter gets it, never two at once, wake-up gaps bounded, no key and no extra connection left, no FPM worker crash
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
if (!function_exists('pcntl_fork') || !function_exists('posix_kill')) die('skip needs pcntl and posix');
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
require __DIR__ . '/../inc/queue.inc';

const N_CLI = 400;
const N_FPM = 100;
const N = N_CLI + N_FPM;
const KEY = 'scale500';
// The measured figures, one JSON line per run (stdout only shows the behaviour).
const FIGURES = '/tmp/scale_500_waiters_on_one_key.log';

$started = rl_now();
$redis = RedisServer::start(['--maxclients', '2000']);
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:' . KEY;
$qk = rl_queue_keys($K);
$me = getmypid();
$fig = ['maxclients' => (int) $redis->cmd('CONFIG', 'GET', 'maxclients')[1]];

/** How many of $seq are out of order: count($seq) - its longest increasing subsequence. */
function out_of_order(array $seq): int
{
    $tails = [];
    foreach ($seq as $p) {
        [$lo, $hi] = [0, count($tails)];
        while ($lo < $hi) {
            $mid = ($lo + $hi) >> 1;
            if ($tails[$mid] < $p) {
                $lo = $mid + 1;
            } else {
                $hi = $mid;
            }
        }
        $tails[$lo] = $p;
    }
    return count($seq) - count($tails);
}

/** One INFO field of $s as a number. */
function info_field(RedisServer $s, string $section, string $field): float
{
    return preg_match("/^$field:([0-9.]+)/m", $s->cmd('INFO', $section), $m) ? (float) $m[1] : -1.0;
}

/** Inodes of the TCP sockets (v4 and v6) whose remote end is loopback port $port. */
function sockets_to_port(int $port): array
{
    $inodes = [];
    foreach (['/proc/net/tcp', '/proc/net/tcp6'] as $f) {
        foreach (array_slice(file($f) ?: [], 1) as $line) {
            $col = preg_split('/\s+/', trim($line));
            if (hexdec(substr($col[2], strrpos($col[2], ':') + 1)) === $port) {
                $inodes['socket:[' . $col[9] . ']'] = true;
            }
        }
    }
    return $inodes;
}

/** "fd=link target" of each open file of a process. */
function fds_of(int $pid): array
{
    $out = [];
    foreach (scandir("/proc/$pid/fd") ?: [] as $fd) {
        if ($fd !== '.' && $fd !== '..') {
            $out[] = $fd . '=' . @readlink("/proc/$pid/fd/$fd");
        }
    }
    return $out;
}

// What each waiter runs, in the CLI children (forked from here) and in the
// FPM workers alike: record its open fds, wait in the queue, and once it holds
// the lock mark itself inside (SETNX: a second holder would find the mark),
// hold 1 ms, clear the mark, release; its times on the shared CLOCK_MONOTONIC.
$pool = FpmPool::start(['children' => N_FPM, 'ini' => ['redis_lock.server' => $redis->dsn()]]);
$pool->script('waiter_lib.php', <<<'PHP'
function rl_scale_wait(string $who, string $bookSocket, string $key): string
{
    $book = new RespClient('unix://' . $bookSocket);
    $pid = getmypid();
    $fds = [];
    foreach (scandir('/proc/self/fd') ?: [] as $fd) {
        if ($fd !== '.' && $fd !== '..') {
            $fds[] = $fd . '=' . @readlink("/proc/self/fd/$fd"); // scandir's own handle: closed by now, ''
        }
    }
    $book->cmd('HSET', 'fds', (string) $pid, implode("\n", $fds));
    $t0 = rl_now();
    try {
        $r = RedisMutexLock::lock($key, 60, 10);
    } catch (Throwable $e) {
        $r = $e;
    }
    $acq = rl_now();
    $rel = $out = null;
    if ($r === true) {
        $alone = $book->cmd('SETNX', 'inside', $who) === 1;
        if (!$alone) {
            $book->cmd('RPUSH', 'double', "$who got the lock while " . $book->cmd('GET', 'inside') . ' held it');
        }
        rl_sleep(0.001);
        if ($alone) {
            $book->cmd('DEL', 'inside');
        }
        $out = rl_now();
        try {
            $rel = RedisMutexLock::release($key);
        } catch (Throwable $e) {
            $rel = $e;
        }
    }
    $line = json_encode(['who' => $who, 'pid' => $pid, 'r' => rl_show($r), 'rel' => rl_show($rel), 'wait' => $acq - $t0, 'acq' => $acq, 'out' => $out]);
    $book->cmd('RPUSH', 'results', $line);
    $book->close();
    return $line;
}
PHP);
$pool->script('wait.php', sprintf(<<<'PHP'
require __DIR__ . '/waiter_lib.php';
echo rl_scale_wait('f' . $_GET['i'], %s, %s), "\n";
PHP, var_export($book->socket, true), var_export(KEY, true)));
require $pool->docroot . '/waiter_lib.php';

// Every child is reaped, also when the test fails half-way.
$children = []; // pid => name
register_shutdown_function(function () use (&$children, $me): void {
    if (getmypid() !== $me) {
        return;
    }
    foreach ($children as $pid => $_) {
        posix_kill($pid, SIGKILL);
    }
    foreach ($children as $pid => $_) {
        pcntl_waitpid($pid, $st);
    }
    $children = [];
});

// ---- Phase 1: this process holds the lock, 500 waiters park behind it.
echo 'held by this process: ', var_export(RedisMutexLock::lock(KEY, 0, 60), true), "\n";
$baseClients = (int) info_field($redis, 'clients', 'connected_clients');
$baseMemory = info_field($redis, 'memory', 'used_memory');

$fpmFile = rl_tmpdir('rl-scale') . '/fpm-responses';
$requests = [];
for ($i = 0; $i < N_FPM; $i++) {
    $requests[] = ['wait.php', ['i' => $i]];
}
$sender = rl_fork(function () use ($pool, $requests, $fpmFile): int {
    file_put_contents($fpmFile, serialize($pool->run($requests, N_FPM, 60)));
    return 0;
});
$children[$sender] = 'fpm sender';
$t = rl_now();
for ($i = 0; $i < N_CLI; $i++) {
    $pid = rl_fork(fn (): int => rl_scale_wait("c$i", $book->socket, KEY) !== '' ? 0 : 1);
    $children[$pid] = "c$i";
}
$fig['fork_400_s'] = round(rl_now() - $t, 2);

$deadline = rl_now() + 20;
while (($queued = $redis->cmd('LLEN', $qk['q'])) < N && rl_now() < $deadline) {
    rl_sleep(0.02);
}
$fig['all_queued_after_s'] = round(rl_now() - $t, 2);
$seen = RedisMutexLock::inspect(KEY);
echo 'waiters in the queue: ', $queued, ', in the places set: ', $redis->cmd('ZCARD', $qk['t']),
    ', inspect(): held ', var_export($seen['held'], true), ', waiters ', $seen['waiters'], "\n";

// Whose tokens are queued: the pid is the token's third field.
$cliPids = array_keys(array_diff($children, ['fpm sender']));
$workers = $pool->workerPids();
$queue = $redis->cmd('LRANGE', $qk['q'], 0, -1);
$queuedPids = array_map(fn ($tok) => (int) explode(':', rl_holder($tok))[2], $queue);
$expected = array_merge($cliPids, $workers);
sort($expected);
$sortedQueued = $queuedPids;
sort($sortedQueued);
echo 'the queue holds one token of each of the 400 CLI processes and 100 FPM workers: ',
    var_export(count($workers) === N_FPM && $sortedQueued === $expected, true), "\n";

// Server side: keys, clients, memory.
$keys = $redis->keys();
echo 'keys while 500 wait: ', json_encode($keys), "\n";
$clients = (int) info_field($redis, 'clients', 'connected_clients');
$memory = info_field($redis, 'memory', 'used_memory');
$fig['clients_base'] = $baseClients;
$fig['clients_parked'] = $clients;
$fig['memory_per_waiter_bytes'] = (int) (($memory - $baseMemory) / N);
echo 'server clients added by 500 waiters (one each): ', var_export($clients - $baseClients === N, true),
    $clients - $baseClients === N ? '' : ' (' . ($clients - $baseClients) . ')', "\n";
echo 'server memory per waiter below 128 KiB: ', var_export($fig['memory_per_waiter_bytes'] < 131072, true), "\n";

// Client side: what lock() opened in each waiter process (its fds now that
// were not open before its call; a forked CLI waiter also has this process'
// connection, inherited and never used).
$toLock = sockets_to_port($redis->port);
$onLock = fn (string $fd) => isset($toLock[substr($fd, strpos($fd, '=') + 1)]);
$added = $addedLock = $allLock = $totalFds = [];
$bases = $book->cmd('HGETALL', 'fds');
$base = [];
for ($j = 0; $j + 1 < count($bases); $j += 2) {
    $base[(int) $bases[$j]] = explode("\n", $bases[$j + 1]);
}
foreach ($expected as $pid) {
    $fds = fds_of($pid);
    $new = array_diff($fds, $base[$pid] ?? []);
    $kind = in_array($pid, $workers, true) ? 'fpm' : 'cli';
    $added[$kind][] = count($new);
    $addedLock[$kind][] = count(array_filter($new, $onLock));
    $allLock[$kind][] = count(array_filter($fds, $onLock));
    $totalFds[$kind][] = count($fds);
}
foreach (['cli', 'fpm'] as $kind) {
    $fig["fds_$kind"] = [min($totalFds[$kind]), max($totalFds[$kind])];
    $fig["fds_opened_by_lock_$kind"] = array_count_values($added[$kind]);
    $fig["sockets_to_lock_server_$kind"] = array_count_values($allLock[$kind]);
    echo "$kind waiters: fds opened by lock() at most 2: ", var_export(max($added[$kind]) <= 2, true),
        ', of them connections to the lock server: exactly 1: ', var_export(min($addedLock[$kind]) === 1 && max($addedLock[$kind]) === 1, true), "\n";
}

// The cost of 500 parked waiters: commands per second, server CPU, blocked clients.
$blocked = [];
$redis->cmd('CONFIG', 'RESETSTAT');
$stat = fn () => array_sum(array_slice(explode(' ', (string) file_get_contents("/proc/{$redis->pid}/stat")), 13, 2));
$cpu0 = $stat();
$t0 = rl_now();
for ($j = 0; $j < 10; $j++) {
    rl_sleep(0.1);
    $blocked[] = (int) info_field($redis, 'clients', 'blocked_clients');
}
$secs = rl_now() - $t0;
$cpu = ($stat() - $cpu0) / 100 / $secs;
$cmds = info_field($redis, 'stats', 'total_commands_processed') / $secs;
sort($blocked);
$fig['commands_per_s'] = (int) $cmds;
$fig['commandstats_per_s'] = [];
preg_match_all('/^cmdstat_(\w+):calls=(\d+)/m', $redis->cmd('INFO', 'commandstats'), $m, PREG_SET_ORDER);
foreach ($m as [, $name, $calls]) {
    $fig['commandstats_per_s'][$name] = (int) ($calls / $secs);
}
$fig['server_cpu_parked'] = round($cpu, 3);
$fig['blocked_clients'] = [$blocked[0], $blocked[5], $blocked[9]];
echo 'while parked: most waiters blocked in BLPOP (median sample >= 250): ', var_export($blocked[5] >= 250, true), "\n";
$looks = ($fig['commandstats_per_s']['blpop'] ?? 0) / N;
$perLook = $cmds / max(1, $fig['commandstats_per_s']['blpop'] ?? 0);
$fig['looks_per_waiter_per_s'] = round($looks, 2);
$fig['commands_per_look'] = round($perLook, 2);
echo 'while parked: each waiter looks at most once per $sleep (<= 12 BLPOP/s): ', var_export($looks > 0 && $looks <= 12, true),
    ', at most 15 commands per look (scripts\' own included): ', var_export($perLook <= 15, true), "\n";
$after = $redis->cmd('LRANGE', $qk['q'], 0, -1);
$fig['phase1_out_of_place'] = out_of_order(array_map(fn ($tok) => array_search($tok, $queue, true), $after));
echo 'every waiter kept its place for that second: ', var_export($after === $queue, true), "\n";

// ---- Phase 2: one release, and the lock goes down the line.
$t0 = rl_now();
echo 'released by this process: ', var_export(RedisMutexLock::release(KEY), true), "\n";
$deadline = rl_now() + 25;
$status = [];
while (count($status) < N_CLI + 1 && rl_now() < $deadline) {
    foreach ($children as $pid => $name) {
        if (pcntl_waitpid($pid, $st, WNOHANG) === $pid) {
            $status[$name] = pcntl_wifexited($st) ? pcntl_wexitstatus($st) : 128 + pcntl_wtermsig($st);
            unset($children[$pid]);
        }
    }
    rl_sleep(0.01);
}
$fig['phase2_s'] = round(rl_now() - $t0, 2);
$cliExits = array_count_values(array_filter($status, fn ($name) => $name !== 'fpm sender', ARRAY_FILTER_USE_KEY));
ksort($cliExits);
echo 'CLI children exits: ', implode(', ', array_map(fn ($code, $n) => "$n × code $code", array_keys($cliExits), $cliExits)),
    ', still running: ', count($children), "\n";
$responses = is_file($fpmFile) ? unserialize((string) file_get_contents($fpmFile)) : [];
$fpmOk = count(array_filter($responses, fn ($r) => $r->outcome === 'ok' && str_contains($r->body(), '"r":"true","rel":"true"')));
echo 'FPM requests that got and released the lock: ', $fpmOk, "\n";

$results = array_map(fn ($l) => json_decode($l, true), $book->cmd('LRANGE', 'results', 0, -1));
$outcomes = array_count_values(array_map(fn ($r) => "lock {$r['r']}, release {$r['rel']}", $results));
echo 'waiters in the book: ', count($results), ', outcomes: ', json_encode($outcomes), "\n";
echo 'double holders seen inside: ', json_encode($book->cmd('LRANGE', 'double', 0, -1)), "\n";

// The holds in the order they happened; gap = next holder's acquisition - previous holder's release call.
$holds = array_values(array_filter($results, fn ($r) => $r['r'] === 'true'));
usort($holds, fn ($a, $b) => $a['acq'] <=> $b['acq']);
$gaps = [];
$prev = $t0;
foreach ($holds as $h) {
    $gaps[] = $h['acq'] - $prev;
    $prev = $h['out'];
}
$overlaps = count(array_filter($gaps, fn ($g) => $g <= 0));
sort($gaps);
$pct = fn (float $p) => $gaps === [] ? -1.0 : $gaps[(int) ceil($p * count($gaps)) - 1];
$fig['gap_ms'] = ['p50' => round($pct(0.5) * 1000, 2), 'p99' => round($pct(0.99) * 1000, 2), 'max' => round(($gaps ? max($gaps) : -1) * 1000, 2)];
$fig['longest_wait_s'] = $results ? round(max(array_column($results, 'wait')), 2) : -1;
// FIFO (reported, not asserted): the holders out of the order they queued in.
$position = array_flip($queuedPids);
$seq = array_map(fn ($h) => $position[$h['pid']] ?? -1, $holds);
$fig['holds_out_of_queue_order'] = out_of_order($seq);
$fig['displaced'] = array_slice(array_values(array_filter(array_map(fn ($n, $p) => $n === $p ? null : "#$n had queue place $p", array_keys($seq), $seq))), 0, 5);
echo 'holds overlapping on the clock: ', $overlaps, "\n";
// Bounds for a busy 2-CPU machine. Seen here: p50 0.5-3 ms, p99 10-26 ms, max
// 16-80 ms with other tests running; p50 up to 8 ms, p99 up to 250 ms, max up
// to 560 ms with a second such run and three CPU hogs (woken waiters then miss
// their 100 ms grant or are passed over). The bounds are 3x the worst of those.
// A hand-off whose wake-up is lost is found only at the waiter's next look,
// 100-200 ms later (p50 far above 30 ms); a line that stalls on a lost waiter
// waits for place deadlines and timeouts (seconds).
echo 'wake-up gap p50 below 30 ms: ', var_export($gaps !== [] && $pct(0.5) < 0.03, true), ', p99 below 750 ms: ', var_export($gaps !== [] && $pct(0.99) < 0.75, true),
    ', max below 2 s: ', var_export($gaps !== [] && max($gaps) < 2.0, true), "\n";

// ---- Afterwards: nothing left, connections back.
echo 'keys left: ', json_encode(rl_eventually(fn () => $redis->keys(), [], 3)), "\n";
$withPool = rl_eventually(fn () => (int) info_field($redis, 'clients', 'connected_clients') - $baseClients <= N_FPM, true, 3);
$fig['clients_after_cli_exit'] = (int) info_field($redis, 'clients', 'connected_clients');
echo 'clients once the CLI waiters exited: at most one pooled connection per FPM worker: ', var_export($withPool, true), "\n";
echo 'FPM worker crashes: ', json_encode($pool->crashLines()), "\n";
$pool->stop();
$back = rl_eventually(fn () => (int) info_field($redis, 'clients', 'connected_clients'), $baseClients, 5);
$fig['clients_after_pool_stop'] = $back;
echo 'clients back to the baseline once the pool stopped: ', var_export($back === $baseClients, true), "\n";
$fig['wall_s'] = round(rl_now() - $started, 1);
file_put_contents(FIGURES, json_encode(['at' => date('c')] + $fig) . "\n", FILE_APPEND);
?>
--EXPECT--
held by this process: true
waiters in the queue: 500, in the places set: 500, inspect(): held true, waiters 500
the queue holds one token of each of the 400 CLI processes and 100 FPM workers: true
keys while 500 wait: ["lock:scale500","{lock:scale500}:q","{lock:scale500}:t"]
server clients added by 500 waiters (one each): true
server memory per waiter below 128 KiB: true
cli waiters: fds opened by lock() at most 2: true, of them connections to the lock server: exactly 1: true
fpm waiters: fds opened by lock() at most 2: true, of them connections to the lock server: exactly 1: true
while parked: most waiters blocked in BLPOP (median sample >= 250): true
while parked: each waiter looks at most once per $sleep (<= 12 BLPOP/s): true, at most 15 commands per look (scripts' own included): true
every waiter kept its place for that second: true
released by this process: true
CLI children exits: 400 × code 0, still running: 0
FPM requests that got and released the lock: 100
waiters in the book: 500, outcomes: {"lock true, release true":500}
double holders seen inside: []
holds overlapping on the clock: 0
wake-up gap p50 below 30 ms: true, p99 below 750 ms: true, max below 2 s: true
keys left: []
clients once the CLI waiters exited: at most one pooled connection per FPM worker: true
FPM worker crashes: []
clients back to the baseline once the pool stopped: true
