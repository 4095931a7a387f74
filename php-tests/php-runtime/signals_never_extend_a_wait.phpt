--TEST--
Signals (SIGUSR1 every 100 ms, pcntl_async_signals handler) never extend a wait, and the handler runs: a queued lock($key, 0.5) on a key this extension holds throughout returns false after 0.5 s (< 1 s), also when $sleep (5 s) is longer than the timeout, the waiter queued meanwhile, blocked in the kernel (little CPU), and out of the queue afterwards; a read from a stopped server ends at read_timeout; a wait for another client's lock ends at its timeout
--SKIPIF--
<?php if (!function_exists('pcntl_async_signals') || !function_exists('posix_kill')) die('skip pcntl and posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

echo "-- a queued wait behind a lock of this extension\n";
$K = 'lock:sigq';
var_dump(RedisMutexLock::lock('sigq', 0, 30));

$child = rl_child(rl_child_code(<<<'PHP'
pcntl_async_signals(true);
$signals = 0;
pcntl_signal(SIGUSR1, function () use (&$signals) { $signals++; });
ini_set('redis_lock.server', $argv[1]);
$pump = new RlSignalPump(getmypid(), SIGUSR1, 0.1);
rl_sleep(0.15);
foreach ([100000, 5000000] as $sleep) {
    $signals = 0;
    $before = $pump->sent();
    echo "waiting\n";
    $ru = getrusage();
    [$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('sigq', 0.5, 20, $sleep));
    $ru2 = getrusage();
    $cpu = ($ru2['ru_utime.tv_sec'] - $ru['ru_utime.tv_sec']) + ($ru2['ru_utime.tv_usec'] - $ru['ru_utime.tv_usec']) / 1e6
         + ($ru2['ru_stime.tv_sec'] - $ru['ru_stime.tv_sec']) + ($ru2['ru_stime.tv_usec'] - $ru['ru_stime.tv_usec']) / 1e6;
    $during = $pump->sent() - $before;
    echo "\$sleep $sleep: ", rl_show($r),
        ', 0.45 s <= time < 1 s: ', $secs >= 0.45 && $secs < 1.0 ? 'true' : sprintf('false (%.3f s)', $secs),
        ', 3 signals or more during the call: ', $during >= 3 ? 'true' : "false ($during)",
        ', handler ran 3 times or more: ', $signals >= 3 ? 'true' : "false ($signals)",
        ', CPU < 0.1 s: ', $cpu < 0.1 ? 'true' : sprintf('false (%.3f s)', $cpu), "\n";
    fgets(STDIN);
}
$pump->stop();
PHP), [], [$redis->dsn()]);

for ($n = 0; $n < 2; $n++) {
    echo $child->readLine(10), "\n";
    $seen = rl_eventually(fn () => count(rl_queue_tokens($redis, $K)), 1, 0.4);
    echo "queued during the wait: ", var_export($seen === 1, true), "\n";
    echo $child->readLine(10), "\n";
    echo "left the queue: ", var_export(rl_queue_tokens($redis, $K) === [], true), "\n";
    $child->writeLine('next');
}
$r = $child->wait(10);
echo "child: exit ", $r['status'], $r['status'] === 0 ? '' : "\n" . $r['out'] . $r['err'], "\n";
echo "lock still ours: ", var_export(rl_is_token(rl_holder($redis->cmd('GET', $K))), true), "\n";
var_dump(RedisMutexLock::release('sigq'));
echo "keys: ", rl_keys_left($redis), "\n";

echo "-- a read from a stopped server, a wait for another client's lock\n";
$child = rl_child(rl_child_code(<<<'PHP'
pcntl_async_signals(true);
$signals = 0;
pcntl_signal(SIGUSR1, function () use (&$signals) { $signals++; });
ini_set('redis_lock.server', $argv[1]);
ini_set('redis_lock.read_timeout', '0.5');
// A pooled connection, opened before the server stops.
var_dump(RedisMutexLock::lock('warm-up') && RedisMutexLock::release('warm-up'));
echo "ready\n";
fgets(STDIN); // the server is stopped now

$pump = new RlSignalPump(getmypid(), SIGUSR1, 0.1);
rl_sleep(0.15); // the pump runs
$before = $pump->sent();
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k'));
$during = $pump->sent() - $before;
// PHP drops the handler calls that are due while an exception is thrown: the
// handler is checked with the next signals, the signals during the call are
// counted by the pump.
rl_sleep(0.25);
$pump->stop();
$msg = $r instanceof Throwable ? $r->getMessage() : '';
echo 'stopped server: ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
    ', no reply within 0.5 s: ', preg_match('/: no reply within 0\.5 s$/', $msg) ? 'true' : "false ($msg)",
    ', 0.45 s <= time < 1 s: ', $secs >= 0.45 && $secs < 1.0 ? 'true' : sprintf('false (%.3f s)', $secs),
    ', 3 signals or more during the call: ', $during >= 3 ? 'true' : "false ($during)",
    ', handler ran: ', $signals >= 1 ? 'true' : 'false', "\n";
echo "next\n";
fgets(STDIN); // the server runs again and somebody else holds 'k2'

$pump = new RlSignalPump(getmypid(), SIGUSR1, 0.1);
rl_sleep(0.15);
$signals = 0;
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k2', 0.5));
$pump->stop();
echo 'held by another: ', rl_show($r),
    ', 0.45 s <= time < 1 s: ', $secs >= 0.45 && $secs < 1.0 ? 'true' : sprintf('false (%.3f s)', $secs),
    ', handler ran 3 times or more: ', $signals >= 3 ? 'true' : "false ($signals)", "\n";
PHP), [], [$redis->dsn()]);
echo $child->readLine(10), "\n";
echo $child->readLine(10), "\n";
$redis->pause();
$child->writeLine('go');
try {
    echo $child->readLine(10), "\n";
    echo $child->readLine(10), "\n";
} catch (RuntimeException $e) {
    echo "child: ", $e->getMessage(), "\n";
}
$redis->resume();
$redis->cmd('SET', 'lock:k2', 'another-owner', 'PX', 60000);
$child->writeLine('go');
$r = $child->wait(10);
echo $r['out'];
echo "child: exit ", $r['status'], $r['status'] === 0 ? '' : "\n" . $r['err'], "\n";
echo "k2: ", $redis->cmd('GET', 'lock:k2'), "\n";
?>
--EXPECT--
-- a queued wait behind a lock of this extension
bool(true)
waiting
queued during the wait: true
$sleep 100000: false, 0.45 s <= time < 1 s: true, 3 signals or more during the call: true, handler ran 3 times or more: true, CPU < 0.1 s: true
left the queue: true
waiting
queued during the wait: true
$sleep 5000000: false, 0.45 s <= time < 1 s: true, 3 signals or more during the call: true, handler ran 3 times or more: true, CPU < 0.1 s: true
left the queue: true
child: exit 0
lock still ours: true
bool(true)
keys: []
-- a read from a stopped server, a wait for another client's lock
bool(true)
ready
stopped server: RedisLockException, no reply within 0.5 s: true, 0.45 s <= time < 1 s: true, 3 signals or more during the call: true, handler ran: true
next
held by another: false, 0.45 s <= time < 1 s: true, handler ran 3 times or more: true
child: exit 0
k2: another-owner
