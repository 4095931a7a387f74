--TEST--
RedisSemaphore and RedisReadWriteLock under load: 12 forked processes take a semaphore of 3 for 3000 short sections (acquire($key, 3, 10, 10)), then a read/write lock for 3000 sections (a quarter of them writes; lockRead/lockWrite($key, 10, 10)): no take fails or returns false, every release is true; an independent book (live counters and a replay of the entries and exits) sees never more than 3 permit holders and the limit reached, never a writer beside another holder and readers inside together; a counter incremented non-atomically (GET, pause, SET) only under the write lock loses no increment; nothing is left in Redis
--SKIPIF--
<?php if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/shared.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
const PROCS = 12;
const SECTIONS = 3000;

function run(RedisServer $book, callable $kindsOf): array
{
    $book->cmd('FLUSHALL');
    $common = ['key' => 'load-rw', 'skey' => 'load-sem', 'limit' => 3, 'timeout' => 10, 'lease' => 10, 'hold' => 0.001, 'until' => SECTIONS];
    $t = rl_now();
    $procs = [];
    for ($i = 0; $i < PROCS; $i++) {
        $o = ['kinds' => $kindsOf($i)] + $common;
        $procs[] = new RlSharedProc("p$i", fn () => rl_shared_worker($book, "p$i", $o));
    }
    $exits = array_map(fn (RlSharedProc $p) => $p->wait(40), $procs);
    $secs = rl_now() - $t;
    $sections = rl_shared_sections($book);
    $errors = rl_shared_errors($book);
    echo "processes exited: ", implode(' ', array_unique($exits)), "\n";
    echo "sections: ", count($sections) >= SECTIONS ? 'at least ' . SECTIONS : count($sections), ", by every process: ",
        var_export(count(array_unique(array_map(fn ($s) => explode('.', $s['who'])[0], $sections))) === PROCS, true), "\n";
    echo "failed takes and releases: ", $errors === [] ? 'none' : json_encode(rl_shared_error_summary($errors)), "\n";
    echo "releases not true: ", count(array_filter($sections, fn ($s) => $s['rel'] !== true)), "\n";
    echo "live over-admissions: ", json_encode($book->cmd('LRANGE', 'live_violations', 0, 4)), "\n";
    rl_shared_debug(sprintf("%d sections in %.2f s (%.0f/s)", count($sections), $secs, count($sections) / $secs));
    return $sections;
}

echo "-- a semaphore of 3\n";
run($book, fn (int $i) => ['s']);
[$bad, $max] = rl_shared_check($book, ['load-sem' => 3]);
echo "over-admissions (replay): ", $bad === [] ? 'none' : json_encode(array_slice($bad, 0, 5)), "\n";
echo "most holders at once: replay ", $max['load-sem']['s'], ", live ", $book->cmd('HGET', 'max:load-sem', 's'), "\n";
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";

echo "-- a read/write lock, a quarter of the sections writes\n";
$sections = run($book, fn (int $i) => array_map(fn ($n) => ($n + $i) % 4 === 0 ? 'w' : 'r', range(0, 3)));
[$bad, $max] = rl_shared_check($book);
echo "over-admissions (replay): ", $bad === [] ? 'none' : json_encode(array_slice($bad, 0, 5)), "\n";
$writes = (int) $book->cmd('GET', 'writes');
echo "writes: ", $writes >= SECTIONS / 5 ? 'at least ' . SECTIONS / 5 : $writes, ", lost increments: ", $writes - (int) $book->cmd('GET', 'counter'), "\n";
echo "most writers at once: ", $max['load-rw']['w'], ", readers inside together: ", var_export(($max['load-rw']['r'] ?? 0) >= 2, true), "\n";
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
?>
--EXPECT--
-- a semaphore of 3
processes exited: 0
sections: at least 3000, by every process: true
failed takes and releases: none
releases not true: 0
live over-admissions: []
over-admissions (replay): none
most holders at once: replay 3, live 3
keys after 2 s: []
-- a read/write lock, a quarter of the sections writes
processes exited: 0
sections: at least 3000, by every process: true
failed takes and releases: none
releases not true: 0
live over-admissions: []
over-admissions (replay): none
writes: at least 600, lost increments: 0
most writers at once: 1, readers inside together: true
keys after 2 s: []
