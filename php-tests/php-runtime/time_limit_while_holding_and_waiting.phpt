--TEST--
Audit, PHP itself: the time limit. set_time_limit(1) and a busy loop in a process holding a RedisMutexLock, a RedLock lock (3 masters), a RedisReadWriteLock write lock and read hold and a RedisSemaphore permit, each with a waiter in another process: PHP's "Maximum execution time of 1 second exceeded", request end releases every hold, each waiter gets its lock after that request end began and < 1 s after it. The time limit firing during a queued wait (SIGPROF, as PHP's CPU timer sends it) of a mutex, a reader, a writer and a semaphore waiter with another waiter behind it, and during RedLock::lock()'s retries: the call gives up at once (not at its 5 s timeout), PHP's own fatal error follows (not the hard "(terminated)" kill), its place in the queue is gone, and the waiter behind (or retrying beside) gets the lock < 1 s after the holder's release. max_execution_time=1 does not fire during 1.5 s lockRead()/lockWrite() waits (CPU time on Linux). No key left.
--SKIPIF--
<?php
if (PHP_OS_FAMILY !== 'Linux') die('skip PHP counts CPU time only on Linux');
if (!function_exists('pcntl_fork')) die('skip pcntl needed');
?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_php.inc';
$redis = RedisServer::start();
[$r2, $r3] = rl_start_servers(2);
$book = RedisServer::start();
$nodes = [$redis, $r2, $r3];
$redlock = rl_redlock_list($nodes);
ini_set('redis_lock.server', $redis->dsn());

// Runs meanwhile (it mostly waits): waits under max_execution_time=1 for locks this process holds.
var_dump(RedisReadWriteLock::lockWrite('cw', 0, 30), RedisReadWriteLock::lockRead('cr', 0, 30));
$cpu = rl_php_child(<<<'PHP'
foreach (['lockRead, a writer holds' => fn () => RedisReadWriteLock::lockRead('cw', 1.5), 'lockWrite, a reader holds' => fn () => RedisReadWriteLock::lockWrite('cr', 1.5)] as $what => $call) {
    [$r, $secs] = rl_timed($call);
    echo "$what: ", rl_show($r), ', after the whole timeout: ', $secs >= 1.45 ? 'true' : sprintf('false (%.3f s)', $secs), "\n";
}
echo "still running\n";
PHP, ['redis_lock.server' => $redis->dsn(), 'max_execution_time' => '1']);

// Keys on every node, those of the waits above (still under way) left out.
$keys = fn () => implode(' ', array_map(fn (RedisServer $s) => json_encode(array_values(array_filter($s->keys(), fn ($k) => !preg_match('/lock:c[rw]\b/', $k)))), $nodes));

echo "-- set_time_limit(1) and a busy loop while holding\n";
const HOLDS = ['m' => 'tm', 'L' => 'tl', 'w' => 'tw', 'r' => 'tr', 's' => 'ts'];
const WAITS = ['m' => ['m', 'tm'], 'L' => ['L', 'tl'], 'r behind w' => ['r', 'tw'], 'w behind r' => ['w', 'tr'], 's' => ['s', 'ts']];
$h = rl_php_child(<<<'PHP'
$redlock = json_decode($argv[1], true);
register_shutdown_function(function () { echo 'end ', sprintf('%.6f', rl_now()), "\n"; });
$held = [];
foreach (json_decode($argv[2], true) as $kind => $key) {
    $held[] = rl_php_take($kind, $key, 0, 30, 1, $redlock);
}
echo 'held ', json_encode($held), "\n";
fgets(STDIN);
set_time_limit(1);
while (true) {
}
PHP, ['redis_lock.server' => $redis->dsn()], [json_encode($redlock), json_encode(HOLDS)]);
echo $h->readLine(10), "\n";
$waiters = [];
foreach (WAITS as $who => [$kind, $key]) {
    $waiters[$who] = rl_php_waiter($book, $kind, $key, $who, ['timeout' => 8, 'redlock' => $redlock]);
    if ($kind !== 'L') {
        rl_php_wait_queued($redis, $kind, $key, 1);
    }
}
$h->writeLine('go');
$out = $h->wait(15);
preg_match('/^end (\S+)$/m', $out['out'], $m);
$end = isset($m[1]) ? (float) $m[1] : INF;
echo "holder: exit ", $out['status'], ", printed: ", json_encode(explode("\n", rl_php_plain(preg_replace('/^end \S+$/m', 'end', $out['out'])))),
    "\n  errors: ", rl_php_errors($out['out']), $out['err'] === '' ? '' : "\n  stderr: {$out['err']}", "\n";
foreach ($waiters as $who => $p) {
    $t1 = rl_shared_result($book, $who, 't1', 10);
    echo "waiter $who: ", var_export(rl_shared_result($book, $who, 'take'), true), ", after the holder's request end began: ", var_export($t1 > $end, true),
        ", < 1 s after: ", rl_within($t1 - $end, -10.0, 0.999), ", release: ", rl_php_rel($book, $who), ", exit ", $p->wait(10), "\n";
}
echo "keys: ", $keys(), "\n";

$waiter = <<<'PHP'
[, $kind, $key, $redlock] = $argv;
set_time_limit(30); // PHP's timer and its SIGPROF handler
register_shutdown_function(function () { echo 'end ', sprintf('%.6f', rl_now()), "\n"; });
echo 'waiting, pid ', getmypid(), "\n";
// RedLock: the extension's own retries (every 100-200 ms, for about 5 s).
$r = $kind === 'L' ? (new RedLock(json_decode($redlock, true), 200, 34))->lock($key, 20000) : rl_php_take($kind, $key, 5.0, 20);
echo "not reached\n";
PHP;
$cases = ['a mutex waiter' => 'm', 'a reader behind a writer' => 'r', 'a writer behind a writer' => 'w', 'a semaphore waiter' => 's',
    'a RedLock retrying (no queue)' => 'L'];
foreach ($cases as $what => $kind) {
    echo "-- the time limit fires during the wait of $what\n";
    $book->cmd('FLUSHALL');
    $key = "tq$kind";
    $hk = $kind === 'r' ? 'w' : $kind;
    var_dump(rl_php_take($hk, $key, 0, 30, 1, $redlock));
    $s = rl_php_child($waiter, ['redis_lock.server' => $redis->dsn()], [$kind, $key, json_encode($redlock)]);
    $line = $s->readLine(10);
    $pid = (int) substr($line, strrpos($line, ' ') + 1);
    if ($kind === 'L') {
        $n = rl_php_waiter($book, $kind, $key, 'N', ['timeout' => 10, 'redlock' => $redlock]);
        rl_sleep(0.3); // both retry meanwhile
    } else {
        rl_php_wait_queued($redis, $kind, $key, 1);
        $n = rl_php_waiter($book, $kind, $key, 'N', ['timeout' => 10]);
        rl_php_wait_queued($redis, $kind, $key, 2);
    }
    $fired = rl_now(); // before the signal: the child may end before this process runs again
    rl_signal($pid, SIGPROF);
    $out = $s->wait(10);
    preg_match('/^end (\S+)$/m', $out['out'], $m);
    $end = isset($m[1]) ? (float) $m[1] : INF;
    echo "S: exit ", $out['status'], ", printed: ", json_encode(explode("\n", rl_php_plain(preg_replace('/^end \S+$/m', 'end', $out['out'])))),
        "\n  errors: ", rl_php_errors($out['out']), $out['err'] === '' ? '' : "\n  stderr: {$out['err']}",
        "\n  its request ended < 0.5 s after the signal: ", rl_within($end - $fired, 0.0, 0.5),
        ", hard kill: ", var_export(str_contains($out['out'] . $out['err'], '(terminated)'), true), "\n";
    $queued = match ($kind) { 'm' => count(rl_queue_tokens($redis, "lock:$key")), 'L' => '-', default => rl_shared_inspect($kind, $key)['waiters'] };
    echo "waiters left in the queue: $queued, N got in meanwhile: ", var_export(rl_shared_has($book, 'N', 'take'), true), "\n";
    $t0 = rl_now();
    echo "holder's release: ", var_export(rl_php_release($hk, $key, $redlock), true), "\n";
    $released = rl_now();
    $t1 = rl_shared_result($book, 'N', 't1', 10);
    echo "N: ", var_export(rl_shared_result($book, 'N', 'take'), true), ", after the release began: ", var_export($t1 > $t0, true),
        ", < 1 s after it: ", rl_within($t1 - $released, -10.0, 0.999), ", release: ", rl_php_rel($book, 'N'),
        ", exit ", $n->wait(10), "\n";
    echo "keys: ", $keys(), "\n";
}

echo "-- max_execution_time=1 during waits\n";
$r = $cpu->wait(10);
echo $r['out'], "exit ", $r['status'], $r['err'] === '' ? '' : "\nstderr: {$r['err']}", "\n";
var_dump(RedisReadWriteLock::release('cw'), RedisReadWriteLock::release('cr'));
echo "keys: ", rl_all_keys($nodes), "\n";
?>
--EXPECT--
bool(true)
bool(true)
-- set_time_limit(1) and a busy loop while holding
held [true,true,true,true,true]
holder: exit 255, printed: ["end"]
  errors: Fatal error: Maximum execution time of 1 second exceeded
waiter m: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter L: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter r behind w: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter w behind r: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter s: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
keys: [] [] []
-- the time limit fires during the wait of a mutex waiter
bool(true)
S: exit 255, printed: ["end"]
  errors: Fatal error: Maximum execution time of 30 seconds exceeded
  its request ended < 0.5 s after the signal: true, hard kill: false
waiters left in the queue: 1, N got in meanwhile: false
holder's release: true
N: true, after the release began: true, < 1 s after it: true, release: true, exit 0
keys: [] [] []
-- the time limit fires during the wait of a reader behind a writer
bool(true)
S: exit 255, printed: ["end"]
  errors: Fatal error: Maximum execution time of 30 seconds exceeded
  its request ended < 0.5 s after the signal: true, hard kill: false
waiters left in the queue: 1, N got in meanwhile: false
holder's release: true
N: true, after the release began: true, < 1 s after it: true, release: true, exit 0
keys: [] [] []
-- the time limit fires during the wait of a writer behind a writer
bool(true)
S: exit 255, printed: ["end"]
  errors: Fatal error: Maximum execution time of 30 seconds exceeded
  its request ended < 0.5 s after the signal: true, hard kill: false
waiters left in the queue: 1, N got in meanwhile: false
holder's release: true
N: true, after the release began: true, < 1 s after it: true, release: true, exit 0
keys: [] [] []
-- the time limit fires during the wait of a semaphore waiter
bool(true)
S: exit 255, printed: ["end"]
  errors: Fatal error: Maximum execution time of 30 seconds exceeded
  its request ended < 0.5 s after the signal: true, hard kill: false
waiters left in the queue: 1, N got in meanwhile: false
holder's release: true
N: true, after the release began: true, < 1 s after it: true, release: true, exit 0
keys: [] [] []
-- the time limit fires during the wait of a RedLock retrying (no queue)
bool(true)
S: exit 255, printed: ["end"]
  errors: Fatal error: Maximum execution time of 30 seconds exceeded
  its request ended < 0.5 s after the signal: true, hard kill: false
waiters left in the queue: -, N got in meanwhile: false
holder's release: true
N: true, after the release began: true, < 1 s after it: true, release: true, exit 0
keys: [] [] []
-- max_execution_time=1 during waits
lockRead, a writer holds: false, after the whole timeout: true
lockWrite, a reader holds: false, after the whole timeout: true
still running
exit 0
bool(true)
bool(true)
keys: [] [] []
