--TEST--
Waiters keep their place while the server's host is under CPU load: the server and 8 waiters (each a new process whose first call is the wait: 3 RedisMutexLock::lock() with $sleep 10000 / 100000 / 10000, a read/write lock's writer, reader, writer, 2 semaphore acquirers) pinned onto one CPU with 4 busy loops (hz 10, then hz 1), or with the server kept busy by another client's CPU-heavy Lua scripts (30 ms each, 10 ms apart); after 1.5 s (3 s at hz 1) of load the holders release and each lock goes from waiter to waiter under the same load: every waiter gets its lock once, in the order it queued, within its timeout; none ever joins its queue twice; every look (MONITOR: the scripts' ZADD of each place, on the server's clock) comes before the waiter's place deadline passed, its first one included; every hand-off is confirmed within its grant; no overlap; no key left
--SKIPIF--
<?php
if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed');
foreach (['taskset', 'timeout', 'yes', 'redis-server'] as $tool) {
    exec('command -v ' . $tool . ' 2>/dev/null', $out, $code);
    if ($code !== 0) die("skip $tool not found");
}
exec('taskset -p ' . getmypid() . ' 2>&1', $out, $code);
if ($code !== 0) die('skip taskset cannot read an affinity here');
?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_load.inc';

// RL_DEBUG=<file>: every measured figure (how long each waiter's place lived, the gaps
// between its looks and how much of its place was left at each, each
// hand-off's use of its grant, the slow scripts' durations) appended there.

$book = RedisServer::start(); // who held what when: never on the loaded server
$waiters = [
    'M1' => ['m', 10000], 'M2' => ['m', 100000], 'M3' => ['m', 10000],
    'W1' => ['w', 0], 'R1' => ['r', 0], 'W2' => ['w', 0],
    'S1' => ['s', 0], 'S2' => ['s', 0],
];
// Each waiter is a new process whose first call is the wait (a CLI worker,
// a fresh PHP-FPM worker): its place must live long enough to cover the
// server's tick from the join on (at hz 1 the next look comes up to 1 s later).
$variants = [
    '4 busy loops on the CPU of the server and the waiters, hz 10' => ['hogs' => 4, 'before' => 1.5],
    '4 busy loops on the CPU of the server and the waiters, hz 1' => ['hogs' => 4, 'hz' => 1, 'before' => 3.0],
    'the server busy with 30 ms scripts 10 ms apart' => ['hogs' => 0, 'slow' => [30, 10], 'before' => 1.5],
];
foreach ($variants as $name => $o) {
    $t = rl_now();
    $r = rl_load_scenario($book, $waiters, $o + ['hold' => 0.15]);
    rl_shared_debug(sprintf('%s: %.2f s', $name, rl_now() - $t));
    echo "== $name\n";
    foreach (rl_load_lines($name, $r, $o['before'] + 5.0) as $line) {
        echo "$line\n";
    }
}
?>
--EXPECT--
== 4 busy loops on the CPU of the server and the waiters, hz 10
calls: every waiter got its lock (true) within its timeout
mutex: M1 M2 M3
rwlock: W1 R1 W2
semaphore: S1 S2
places kept (each waiter joined its queue once): yes
every look renewed its place before the place deadline passed: yes
hand-offs confirmed within their grant: yes
overlaps: none
keys left: []
== 4 busy loops on the CPU of the server and the waiters, hz 1
calls: every waiter got its lock (true) within its timeout
mutex: M1 M2 M3
rwlock: W1 R1 W2
semaphore: S1 S2
places kept (each waiter joined its queue once): yes
every look renewed its place before the place deadline passed: yes
hand-offs confirmed within their grant: yes
overlaps: none
keys left: []
== the server busy with 30 ms scripts 10 ms apart
calls: every waiter got its lock (true) within its timeout
mutex: M1 M2 M3
rwlock: W1 R1 W2
semaphore: S1 S2
places kept (each waiter joined its queue once): yes
every look renewed its place before the place deadline passed: yes
hand-offs confirmed within their grant: yes
overlaps: none
keys left: []
