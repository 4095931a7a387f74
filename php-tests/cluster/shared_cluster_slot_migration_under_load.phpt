--TEST--
Redis Cluster slot migration under load, RedisReadWriteLock and RedisSemaphore: 6 processes contend for a read/write lock (3: readers and writers, lockRead/lockWrite($key, 10, 5)) and a semaphore of 2 (3: acquire($key, 2, 10, 5)) whose keys share one slot (a hash tag), while that slot migrates back and forth between two masters 10 times (CLUSTER SETSLOT IMPORTING/MIGRATING, MIGRATE of its keys, SETSLOT NODE; every 5th migration lasts longer than a call's retry budget, connect_timeout + read_timeout): no take or release of a holder fails or returns false (the calls degrade while the slot migrates), no over-admission (no writer beside another holder, never a third permit; an independent book, live and replayed), no increment of the writers' counter lost, no key of the slot ever without a TTL, sections go on during the migrations and after them, nothing is left, every process exits 0
--SKIPIF--
<?php
if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed');
exec('redis-server --version 2>&1', $out, $code);
if ($code !== 0) die('skip redis-server not found');
?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
require __DIR__ . '/../inc/shared.inc';

const MIGRATIONS = 10;
const HOLD = 0.15;
const LONG_EVERY = 5;
const LONG_HOLD = 1.25;

$c = RlCluster::start(3, 0);
$book = RedisServer::start();
[$m1, $m2] = $c->masters();
$names = [];
foreach ($c->masters() as $i => $m) {
    $names[$m->port] = 'M' . ($i + 1);
}
$mask = fn (string $s): string => preg_replace_callback('/127\.0\.0\.1:(\d+)/', fn ($x) => $names[(int) $x[1]] ?? $x[0], $s);
ini_set('redis_lock.server', $c->dsn());
$tag = $c->keyOn($m1, 'shared');            // "shared-N": its slot is on M1
$rw = '{' . $tag . '}:rw';
$sem = '{' . $tag . '}:sem';
$slot = $c->slot($tag);
echo "both keys in one slot: ", var_export($c->slot("lock:$rw") === $slot && $c->slot("lock:$sem") === $slot, true), "\n";

$common = ['key' => $rw, 'skey' => $sem, 'limit' => 2, 'timeout' => 10, 'lease' => 5, 'hold' => 0.002, 'releaseTries' => 100];
$plan = ['rw0' => ['w', 'r', 'r'], 'rw1' => ['r', 'w', 'r'], 'rw2' => ['r', 'r', 'w'], 's0' => ['s'], 's1' => ['s'], 's2' => ['s']];
$procs = [];
$exits = [];
try {
    foreach ($plan as $name => $kinds) {
        $procs[$name] = new RlSharedProc($name, fn () => rl_shared_worker($book, $name, ['kinds' => $kinds] + $common));
    }
    if (rl_eventually(fn () => $book->cmd('LLEN', 'sections') >= 150, true, 20.0) !== true) {
        throw new RuntimeException('no contention: ' . $book->cmd('LLEN', 'sections') . ' sections in 20 s, errors: ' . json_encode($book->cmd('LRANGE', 'errors', 0, 4)));
    }
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
    $migFrom = rl_now();
    for ($i = 0; $i < MIGRATIONS; $i++) {
        $to = $i % 2 === 0 ? $m2 : $m1;
        $hold = ($i + 1) % LONG_EVERY === 0 ? LONG_HOLD : HOLD;
        $step = 'migration ' . ($i + 1) . " to {$names[$to->port]}";
        $c->beginMigration($slot, $to);
        $check("$step, begun");
        rl_sleep($hold);
        $c->migrateKeys($slot);
        $check("$step, keys moved");
        rl_sleep($hold);
        $c->finishMigration($slot);
        $check("$step, finished");
        rl_sleep(0.2);
    }
    $migTo = rl_now();
    rl_sleep(1.5);
} finally {
    $book->cmd('SET', 'stop', '1');
    foreach ($procs as $name => $p) {
        $exits[] = $p->wait(20);
    }
}

$sections = rl_shared_sections($book);
$errors = rl_shared_errors($book);
$during = count(array_filter($sections, fn ($s) => $s['t1'] > $migFrom && $s['t1'] < $migTo));
$after = count(array_filter($sections, fn ($s) => $s['t1'] > $migTo));
$kinds = array_count_values(array_column($sections, 'kind'));
ksort($kinds);
echo "the slot migrated ", MIGRATIONS, " times between M1 and M2; sections during the migrations: ", $during > 0 ? 'some' : 'none',
    ", after them: ", $after > 0 ? 'some' : 'none', ", kinds: ", implode(' ', array_keys($kinds)), "\n";
echo "failed takes and releases: ", count($errors), "\n";
if ($errors !== []) {
    $counts = array_count_values(array_map(fn ($e) => $mask($e[2]), $errors));
    arsort($counts);
    foreach (array_slice($counts, 0, 5, true) as $m => $n) {
        echo "  {$n}x $m\n";
    }
}
echo "releases not true: ", count(array_filter($sections, fn ($s) => $s['rel'] !== true)), "\n";
[$bad, $max] = rl_shared_check($book, [$sem => 2]);
echo "over-admissions: ", $bad === [] ? 'none' : json_encode(array_slice($bad, 0, 5)), "\n";
echo "live over-admissions: ", json_encode($book->cmd('LRANGE', 'live_violations', 0, 4)), "\n";
echo "lost increments: ", (int) $book->cmd('GET', 'writes') - (int) $book->cmd('GET', 'counter'), "\n";
echo "keys without a TTL during the migrations: ", $noTtl === [] ? 'none' : json_encode(array_slice($noTtl, 0, 5)), "\n";
$left = rl_eventually(function () use ($c): array {
    $all = [];
    foreach ($c->masters() as $m) {
        $all = array_merge($all, $m->keys());
    }
    return $all;
}, [], 8.0);
echo "keys: ", json_encode($left), "\n";
echo "processes exited: ", implode(' ', $exits), "\n";
rl_shared_debug(sprintf("%d sections (%d during the migrations, %.1f s; %d after), max %s", count($sections), $during, $migTo - $migFrom, $after, json_encode($max)));
?>
--EXPECT--
both keys in one slot: true
the slot migrated 10 times between M1 and M2; sections during the migrations: some, after them: some, kinds: r s w
failed takes and releases: 0
releases not true: 0
over-admissions: none
live over-admissions: []
lost increments: 0
keys without a TTL during the migrations: none
keys: []
processes exited: 0 0 0 0 0 0
