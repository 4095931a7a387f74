--TEST--
Queue: signals (SIGUSR1 every 100 ms, pcntl_async_signals handler) never extend a queued wait: lock($key, 0.5) on a key held throughout returns false after 0.5 s (< 1 s), also when $sleep (5 s) is longer than the timeout; the waiter was queued meanwhile, blocked in the kernel (little CPU), and left the queue
--SKIPIF--
<?php if (!function_exists('pcntl_async_signals') || !function_exists('posix_kill')) die('skip pcntl and posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
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
?>
--EXPECT--
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
