--TEST--
Redis Cluster slot migration under load: 8 processes contend for one lock (lock($key, 10, 5), queue hand-off) and increment a counter on another server inside it while the lock's slot migrates back and forth between two masters 20 times (CLUSTER SETSLOT IMPORTING/MIGRATING, MIGRATE of its keys, SETSLOT NODE; every 5th migration lasts longer than a call's retry budget, connect_timeout + read_timeout): no lock() or release() of a holder fails or returns false, never two holders, no increment lost, no key of the slot ever without a TTL, the hand-off's throughput from 1 s after the last migration (1..3 s) is back to at least 60 % of what it was before (two-second rates on 2 shared CPUs vary by ±35 % from run to run), nothing is left, every worker exits 0
--SKIPIF--
<?php
if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed');
exec('redis-server --version 2>&1', $out, $code);
if ($code !== 0) die('skip redis-server not found');
?>
--FILE--
<?php
require __DIR__ . '/inc/cluster.inc';

const WORKERS = 8;
const MIGRATIONS = 20;
const BASELINE = 2.0;     // s of contention measured before the migrations
const AFTER = 3.0;        // s of contention after them; the window [end + 1 s, end + 3 s] is compared (as long as the baseline: one second on this 2-vCPU VM moves by 10 %)
// Each migration: begin, HOLD s, MIGRATE the keys, HOLD s, finish. Every
// LONG_EVERY-th one holds LONG_HOLD s instead: the slot then stays migrating
// longer than a call's own retry budget (redis_lock.connect_timeout +
// redis_lock.read_timeout, 2 s by default), as a slot with many keys does.
const HOLD = 0.15;
const LONG_EVERY = 5;
const LONG_HOLD = 1.25;

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
try {
    for ($w = 0; $w < WORKERS; $w++) {
        $pids[] = rl_fork($worker);
    }
    // Warm-up: every worker connected and the scripts loaded before the baseline starts.
    if (rl_eventually(fn () => $book->cmd('LLEN', 'times') >= 200, true, 20.0) !== true) {
        throw new RuntimeException('no contention: ' . $book->cmd('LLEN', 'times') . ' sections in 20 s, errors: ' . json_encode($book->cmd('LRANGE', 'messages', 0, 4)));
    }
    $baseFrom = $us();
    rl_sleep(BASELINE);
    $baseTo = $us();

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
    rl_sleep(max(0.0, ($migTo - $us()) / 1e6 + AFTER + 0.1));
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
$debug(sprintf('after the migrations, per 250 ms from their end: %s sections/s', implode(' ', array_map(fn ($q) => (string) (4 * $in($migTo + $q * 250000, $migTo + ($q + 1) * 250000)), range(0, 7)))));
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
// Loose: two-second rates on 2 shared CPUs vary by ±35 % from run to run (while the slot
// migrated, the hand-off before its fix managed about a fifth of the baseline).
$back = $afterRate >= 0.6 * $baseRate;
echo "throughput from 1 s after the migrations (1..3 s) at least 60 % of the baseline: ", var_export($back, true),
    $back ? '' : sprintf(' (baseline %.0f/s, after %.0f/s)', $baseRate, $afterRate), "\n";
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
throughput from 1 s after the migrations (1..3 s) at least 60 % of the baseline: true
keys: []
workers exited: 0 0 0 0 0 0 0 0
