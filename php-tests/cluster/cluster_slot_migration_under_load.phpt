--TEST--
Redis Cluster slot migration under load: 8 processes contend for one lock (lock($key, 10, 5), queue hand-off) and increment a counter on another server inside it while the lock's slot migrates back and forth between two masters 20 times (CLUSTER SETSLOT IMPORTING/MIGRATING, MIGRATE of its keys, SETSLOT NODE; every 5th migration lasts longer than a call's retry budget, connect_timeout + read_timeout): no lock() or release() of a holder fails or returns false, never two holders, no increment lost, no key of the slot ever without a TTL, from 1 s after the last migration the waiters are back in the queue (a blocking pop per section) and the hand-off's throughput is at least 20 % of what it was before (a loose bound: this VM has slow phases of seconds that take it to 30-50 %, before the migrations as well as after), nothing is left, every worker exits 0
--CONFLICTS--
all # alone: 8 processes and 20 slot migrations; beside other tests (6 at once) a release waited longer than its 1 s read timeout
--SKIPIF--
<?php
if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed');
exec('redis-server --version 2>&1', $out, $code);
if ($code !== 0) die('skip redis-server not found');
?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';

const WORKERS = 8;
const MIGRATIONS = 20;
const BASELINE = 2.0;     // s of contention measured before the migrations
const AFTER = 3.0;        // s of contention after them; the window [end + 1 s, end + 3 s] is compared (as long as the baseline: one second on this 2-vCPU VM moves by 10 %)
// Each migration: begin, HOLD s, MIGRATE the keys, HOLD s, finish. Every
// LONG_EVERY-th one holds LONG_HOLD s instead: the slot then stays migrating
// longer than a call's own retry budget (redis_lock.connect_timeout +
// redis_lock.read_timeout: 1 + READ_TIMEOUT s here), as a slot with many keys
// does. READ_TIMEOUT is 3 s, not the default 1 s: this VM stalls a server for
// a second now and then (a lock() got "no reply within 1 s" from M2 in 2 of 6
// runs in the matrix cells), and the subject here is the migration.
const HOLD = 0.15;
const LONG_EVERY = 5;
const READ_TIMEOUT = 3.0;
const LONG_HOLD = 2.25;

// RL_DEBUG=1: the measured numbers on stderr; RL_DEBUG=<file>: appended to that file.
$debug = function (string $line): void {
    $to = getenv('RL_DEBUG');
    if ($to === false || $to === '' || $to === '0') {
        return;
    }
    $line = "[cluster_slot_migration_under_load] $line\n";
    $to === '1' ? fwrite(STDERR, $line) : file_put_contents($to, $line, FILE_APPEND);
};
$t0 = rl_now();
$us = fn (): int => (int) (rl_now() * 1e6);   // CLOCK_MONOTONIC, shared by all processes

$c = RlCluster::start(3, 0);
$book = RedisServer::start(); // counters, timestamps and flags: never the cluster
[$m1, $m2] = $c->masters();
$names = [];
foreach ($c->masters() as $i => $m) {
    $names[$m->port] = 'M' . ($i + 1);
}
$mask = fn (string $s): string => preg_replace_callback('/127\.0\.0\.1:(\d+)/', fn ($x) => isset($names[(int) $x[1]]) ? $names[(int) $x[1]] : $x[0], $s);
ini_set('redis_lock.server', $c->dsn());
ini_set('redis_lock.read_timeout', (string) READ_TIMEOUT);
$key = substr($c->keyOn($m1, 'lock:migrating'), 5);
$slot = $c->slot("lock:$key");
$debug(sprintf('cluster up after %.1f s; key %s, slot %d on 127.0.0.1:%d', rl_now() - $t0, $key, $slot, $m1->port));

$worker = function () use ($book, $key, $us): int {
    $b = new RespClient('unix://' . $book->socket);
    $error = function (string $what) use ($b): void {
        $b->cmd('INCR', 'errors');
        $b->cmd('RPUSH', 'messages', $what);
    };
    while ($b->cmd('GET', 'stop') === null) {
        try {
            if (!RedisMutexLock::lock($key, 10, 5, 20000)) {
                $error('lock() false');
                continue;
            }
        } catch (Throwable $e) {
            $error('lock(): ' . get_class($e) . ': ' . $e->getMessage());
            rl_sleep(0.01);
            continue;
        }
        $mine = $b->cmd('SETNX', 'inside', getmypid()) === 1;
        if (!$mine) {
            $b->cmd('INCR', 'doubles');
        }
        $v = (int) $b->cmd('GET', 'counter');
        rl_sleep(0.0002);
        $b->cmd('SET', 'counter', $v + 1);
        $b->cmd('RPUSH', 'times', $us());
        if ($mine) {
            $b->cmd('DEL', 'inside');
        }
        // After a failed release the lock is still ours (and this process
        // still counts it): released again until that works, so the others
        // go on and the rest of the run still says something.
        for ($try = 0; ; $try++) {
            try {
                if (!RedisMutexLock::release($key)) {
                    $error('release() false');
                }
                break;
            } catch (Throwable $e) {
                if ($try === 0) {
                    $error('release(): ' . get_class($e) . ': ' . $e->getMessage());
                }
                if ($try === 100) {
                    $error('release(): still failing after 100 more tries');
                    break;
                }
                $b->cmd('INCR', 'release_retries');
                rl_sleep(0.05);
            }
        }
    }
    return 0;
};

$pids = [];
$exits = [];
// CPU ticks: [all, busy] of the host, those of this test's processes
// (workers and servers), and every other process' (pid => [name, ticks]),
// from /proc.
$cpu = function () use (&$pids, $c, $book): array {
    $host = preg_split('/\s+/', trim(strtok((string) file_get_contents('/proc/stat'), "\n")));
    $all = array_sum(array_map('intval', array_slice($host, 1, 8)));
    $mine = array_flip(array_merge($pids, array_map(fn (RedisServer $n): int => $n->pid, $c->nodes()), [$book->pid, getmypid()]));
    [$ours, $others] = [0, []];
    foreach (glob('/proc/[0-9]*/stat') as $file) {
        $stat = @file_get_contents($file);
        if ($stat === false || ($close = strrpos($stat, ')')) === false) {
            continue;
        }
        $f = explode(' ', substr($stat, $close + 2));
        $pid = (int) substr($file, 6);
        $ticks = (int) $f[11] + (int) $f[12]; // utime, stime
        if (isset($mine[$pid])) {
            $ours += $ticks;
        } else {
            $others[$pid] = [substr($stat, strpos($stat, '(') + 1, $close - strpos($stat, '(') - 1), $ticks];
        }
    }
    return [$all, $all - (int) $host[4] - (int) $host[5], $ours, $others];
};
// The host's and this test's shares of the CPUs between two looks, and the
// other processes that used the most.
$share = function (array $from, array $to): string {
    $span = max(1, $to[0] - $from[0]);
    $others = [];
    foreach ($to[3] as $pid => [$name, $ticks]) {
        $used = $ticks - ($from[3][$pid][1] ?? 0);
        if ($used > 0) {
            $others["$name/$pid"] = $used;
        }
    }
    arsort($others);
    $top = implode(' ', array_map(fn ($k, $v) => sprintf('%s %d %%', $k, 100 * $v / $span), array_keys(array_slice($others, 0, 3, true)), array_slice($others, 0, 3)));
    return sprintf('host busy %d %%, this test %d %%, others: %s', 100 * ($to[1] - $from[1]) / $span, 100 * ($to[2] - $from[2]) / $span, $top === '' ? 'none' : $top);
};
try {
    for ($w = 0; $w < WORKERS; $w++) {
        $pids[] = rl_fork($worker);
    }
    // Warm-up: every worker connected and the scripts loaded before the baseline starts.
    if (rl_eventually(fn () => $book->cmd('LLEN', 'times') >= 200, true, 20.0) !== true) {
        throw new RuntimeException('no contention: ' . $book->cmd('LLEN', 'times') . ' sections in 20 s, errors: ' . json_encode($book->cmd('LRANGE', 'messages', 0, 4)));
    }
    $baseCpu0 = $cpu();
    $baseFrom = $us();
    rl_sleep(BASELINE);
    $baseTo = $us();
    $baseCpu1 = $cpu();

    // The slot to M2 and back, MIGRATIONS times; after each step no key of the slot without a TTL.
    $noTtl = [];
    $check = function (string $step) use ($c, $slot, $names, &$noTtl): void {
        foreach ($c->pttlsInSlot($slot) as $port => $keys) {
            foreach ($keys as $k => $pttl) {
                if (!is_int($pttl) || $pttl === -1) {
                    $noTtl[] = "$step: $k on {$names[$port]}: " . json_encode($pttl);
                }
            }
        }
    };
    $migFrom = $us();
    $keysMoved = 0;
    $windows = [];
    for ($i = 0; $i < MIGRATIONS; $i++) {
        $to = $i % 2 === 0 ? $m2 : $m1;
        $hold = ($i + 1) % LONG_EVERY === 0 ? LONG_HOLD : HOLD;
        $step = "migration " . ($i + 1) . " to {$names[$to->port]}";
        $begun = rl_now();
        $c->beginMigration($slot, $to);
        $check("$step, begun");
        rl_sleep($hold);
        $keysMoved += count($c->pttlsInSlot($slot)[$c->masterOfSlot($slot)->port]);
        $c->migrateKeys($slot);
        $check("$step, keys moved");
        rl_sleep($hold);
        $c->finishMigration($slot); // (returns once every node agrees on the new owner)
        $migTo = $us();             // the last one: when the migrations ended
        $windows[] = rl_now() - $begun;
        $check("$step, finished");
        if ($i < MIGRATIONS - 1) {
            rl_sleep(0.2);
        }
    }
    // The window compared with the baseline, and what the CPUs and the
    // slot's master did meanwhile (for the failure's message).
    rl_sleep(max(0.0, ($migTo - $us()) / 1e6 + 1.0));
    [$afterCpu0, $afterCmds0] = [$cpu(), $c->masterOfSlot($slot)->allCalls()];
    rl_sleep(max(0.0, ($migTo - $us()) / 1e6 + AFTER));
    [$afterCpu1, $afterCmds1] = [$cpu(), $c->masterOfSlot($slot)->allCalls()];
    rl_sleep(0.1);
    $book->cmd('SET', 'stop', '1');
} finally {
    $book->cmd('SET', 'stop', '1');
    foreach ($pids as $pid) {
        $exits[] = rl_wait($pid);
    }
}

$times = array_map('intval', $book->cmd('LRANGE', 'times', 0, -1));
$in = fn (int $from, int $to): int => count(array_filter($times, fn (int $t) => $t >= $from && $t < $to));
$baseRate = $in($baseFrom, $baseTo) / (($baseTo - $baseFrom) / 1e6);
$afterRate = $in($migTo + 1000000, $migTo + 3000000) / 2.0;
$during = $in($migFrom, $migTo);
$errors = (int) $book->cmd('GET', 'errors');
$messages = $book->cmd('LRANGE', 'messages', 0, -1);
$sections = count($times);
$counter = (int) $book->cmd('GET', 'counter');
$debug(sprintf('baseline %.0f sections/s over %.2f s; %d sections in the %.2f s of migrations (%.0f/s, %d keys MIGRATEd in all); after: %.0f/s in [end + 1 s, end + 3 s] = %.0f %% of the baseline',
    $baseRate, ($baseTo - $baseFrom) / 1e6, $during, ($migTo - $migFrom) / 1e6, $during / (($migTo - $migFrom) / 1e6), $keysMoved, $afterRate, 100 * $afterRate / max($baseRate, 1)));
$series = implode(' ', array_map(fn ($q) => (string) (4 * $in($migTo + $q * 250000, $migTo + ($q + 1) * 250000)), range(0, 11)));
$calls = [];
foreach ($afterCmds1 as $name => $n) {
    if ($n - ($afterCmds0[$name] ?? 0) > 0) {
        $calls[] = sprintf('%s %d', $name, $n - ($afterCmds0[$name] ?? 0));
    }
}
$where = sprintf('baseline: %s; after: %s; on the slot\'s master after: %s', $share($baseCpu0, $baseCpu1), $share($afterCpu0, $afterCpu1), implode(', ', $calls));
$debug("after the migrations, per 250 ms from their end: $series sections/s");
$debug($where);
$debug(sprintf('migration windows (begin to agreed end): %s s', implode(' ', array_map(fn ($w) => sprintf('%.2f', $w), $windows))));
$debug(sprintf('sections %d, counter %d, errors %d, release retries %d, doubles %d', $sections, $counter, $errors, (int) $book->cmd('GET', 'release_retries'), (int) $book->cmd('GET', 'doubles')));

echo "workers: ", WORKERS, ", the slot migrated ", MIGRATIONS, " times between M1 and M2, sections during the migrations: ", $during > 0 ? 'some' : 'none', "\n";
echo "errors: $errors\n";
if ($errors > 0) {
    $distinct = array_count_values(array_map($mask, $messages));
    arsort($distinct);
    foreach (array_slice($distinct, 0, 5, true) as $m => $n) {
        echo "  {$n}x $m\n";
    }
}
echo "double holders: ", (int) $book->cmd('GET', 'doubles'), "\n";
echo "lost increments: ", $sections - $counter, "\n";
echo "keys without a TTL during the migrations: ", $noTtl === [] ? 'none' : json_encode(array_slice($noTtl, 0, 5)), "\n";
// Back to the queue: each section of the window came after a waiter's
// blocking pop on the slot's master (polling the lock key, as while the slot
// migrates, makes none).
$afterSections = $in($migTo + 1000000, $migTo + 3000000);
$pops = ($afterCmds1['blpop'] ?? 0) - ($afterCmds0['blpop'] ?? 0);
$queued = $afterSections > 0 && $pops >= $afterSections / 2;
echo "after the migrations the waiters wait in the queue again (a BLPOP per section from 1 s after them): ", var_export($queued, true),
    $queued ? '' : sprintf(' (%d sections, %d BLPOPs)', $afterSections, $pops), "\n";
// Loose: this VM has slow phases of a few seconds, in the baseline as well
// as after the migrations, that take the rate down to 30-50 %.
$back = $afterRate >= 0.2 * $baseRate;
echo "throughput from 1 s after the migrations (1..3 s) at least 20 % of the baseline: ", var_export($back, true),
    $back ? '' : sprintf(' (baseline %.0f/s, after %.0f/s)', $baseRate, $afterRate), "\n";
if (!$queued || !$back) {
    echo "  per 250 ms from the end: $series; $where\n";
}
// Once the TTLs (5 s) allow: nothing of ours is left on any master.
$left = rl_eventually(function () use ($c): array {
    $all = [];
    foreach ($c->masters() as $m) {
        $all = array_merge($all, $m->keys());
    }
    return $all;
}, [], 8.0);
echo "keys: ", json_encode($left), "\n";
echo "workers exited: ", implode(' ', $exits), "\n";
$debug(sprintf('run time %.1f s', rl_now() - $t0));
?>
--EXPECT--
workers: 8, the slot migrated 20 times between M1 and M2, sections during the migrations: some
errors: 0
double holders: 0
lost increments: 0
keys without a TTL during the migrations: none
after the migrations the waiters wait in the queue again (a BLPOP per section from 1 s after them): true
throughput from 1 s after the migrations (1..3 s) at least 20 % of the baseline: true
keys: []
workers exited: 0 0 0 0 0 0 0 0
