--TEST--
Audit, PHP itself: "Allowed memory size exhausted" in a process holding a RedisMutexLock, a RedLock lock (3 masters), a RedisReadWriteLock write lock and read hold and a RedisSemaphore permit, each with a waiter in another process (queued, or retrying for the RedLock): whether the memory runs out in user code or inside an extension call (RedisSemaphore::inspect() building a 9000-holder array past memory_limit, with auto_renew on), the fatal error is PHP's own, request end releases every hold, and each waiter gets its lock after that request end began and < 1 s after it; nothing of the holder is left on any server
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_php.inc';
$redis = RedisServer::start();
[$r2, $r3] = rl_start_servers(2);
$book = RedisServer::start();
$nodes = [$redis, $r2, $r3];
$redlock = rl_redlock_list($nodes);
ini_set('redis_lock.server', $redis->dsn());

// 9000 permits of somebody else on another name, for an inspect() whose answer
// takes about 3 MB of PHP arrays (its reply stays under the 1 MiB cap).
$t = $redis->cmd('TIME');
$args = [];
for ($i = 0; $i < 9000; $i++) {
    array_push($args, (int) $t[0] * 1000 + 600000, sprintf('s10000:1|t%05d', $i));
}
$redis->cmd('ZADD', 'lock:big', ...$args);

const HOLDS = ['m' => 'mm', 'L' => 'ml', 'w' => 'mw', 'r' => 'mr', 's' => 'ms'];
// Each waiter waits for the hold that excludes it: a reader behind the writer, a writer behind the reader.
const WAITS = ['m' => ['m', 'mm'], 'L' => ['L', 'ml'], 'r behind w' => ['r', 'mw'], 'w behind r' => ['w', 'mr'], 's' => ['s', 'ms']];

$holder = <<<'PHP'
[, $where, $redlock] = $argv;
$redlock = json_decode($redlock, true);
// The time request end began needs memory: PHP 8.2.32 (not 8.2.36) leaves the
// limit exhausted for shutdown functions, so a reserve is freed first.
$reserve = str_repeat('r', 1 << 20);
register_shutdown_function(function () use (&$reserve) { $reserve = null; echo 'end ', sprintf('%.6f', rl_now()), "\n"; });
$held = [];
foreach (json_decode($argv[3], true) as $kind => $key) {
    $held[] = rl_php_take($kind, $key, 0, 30, 1, $redlock);
}
echo 'held ', json_encode($held), "\n";
fgets(STDIN);
ini_set('memory_limit', '32M');
if ($where === 'user code') {
    $a = str_repeat('x', 64 << 20);
} else {
    $fill = str_repeat('x', (32 << 20) - memory_get_usage(true) - (1 << 20));
    echo "calling inspect()\n";
    $i = RedisSemaphore::inspect('big');
}
echo "not reached\n";
PHP;

foreach (['user code' => [], 'an extension call' => ['redis_lock.auto_renew' => '1']] as $where => $ini) {
    echo "-- memory exhausted in $where", $ini === [] ? '' : ' (auto_renew on)', "\n";
    $book->cmd('FLUSHALL');
    $h = rl_php_child($holder, ['redis_lock.server' => $redis->dsn()] + $ini, [$where, json_encode($redlock), json_encode(HOLDS)]);
    echo $h->readLine(10), "\n";
    $waiters = [];
    foreach (WAITS as $who => [$kind, $key]) {
        $waiters[$who] = rl_php_waiter($book, $kind, $key, $who, ['timeout' => 8, 'redlock' => $redlock]);
        if ($kind !== 'L') {
            rl_php_wait_queued($redis, $kind, $key, 1);
        }
    }
    rl_sleep(0.1); // the RedLock waiter retries meanwhile
    echo "waiters: queued, none got in yet: ", var_export(array_filter(array_keys(WAITS), fn ($w) => rl_shared_has($book, $w, 'take')) === [], true), "\n";
    $h->writeLine('go');
    $out = $h->wait(15);
    preg_match('/^end (\S+)$/m', $out['out'], $m);
    $end = isset($m[1]) ? (float) $m[1] : INF;
    echo "holder: exit ", $out['status'], ", printed: ", json_encode(explode("\n", rl_php_plain(preg_replace('/^end \S+$/m', 'end', $out['out'])))),
        "\n  errors: ", rl_php_errors($out['out']), $out['err'] === '' ? '' : "\n  stderr: {$out['err']}", "\n";
    foreach ($waiters as $who => $p) {
        $take = rl_shared_result($book, $who, 'take', 10);
        $t1 = rl_shared_result($book, $who, 't1');
        echo "waiter $who: ", var_export($take, true), ", after the holder's request end began: ", var_export($t1 > $end, true),
            ", < 1 s after: ", rl_within($t1 - $end, -10.0, 0.999),
            ", release: ", rl_php_rel($book, $who), ", exit ", $p->wait(10), "\n";
    }
    echo "keys: ", rl_all_keys($nodes), "\n";
}
$redis->cmd('DEL', 'lock:big');
echo "keys: ", rl_all_keys($nodes), "\n";
?>
--EXPECTF--
-- memory exhausted in user code
held [true,true,true,true,true]
waiters: queued, none got in yet: true
holder: exit 255, printed: ["end"]
  errors: Fatal error: Allowed memory size of 33554432 bytes exhausted (tried to allocate %d bytes)
waiter m: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter L: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter r behind w: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter w behind r: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter s: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
keys: ["lock:big"] [] []
-- memory exhausted in an extension call (auto_renew on)
held [true,true,true,true,true]
waiters: queued, none got in yet: true
holder: exit 255, printed: ["calling inspect()","end"]
  errors: Fatal error: Allowed memory size of 33554432 bytes exhausted (tried to allocate %d bytes)
waiter m: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter L: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter r behind w: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter w behind r: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
waiter s: true, after the holder's request end began: true, < 1 s after: true, release: true, exit 0
keys: ["lock:big"] [] []
keys: [] [] []
