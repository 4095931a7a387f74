--TEST--
Queue: SCRIPT FLUSH while waiters are queued (the script cache is lost, as after a restart or a failover): the release still hands the lock on and wakes the next waiter at once (< 300 ms, where its next look is 2 s away), and the queue goes on in order
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:flush';

// $sleep = 2 s: a waiter that was not woken would only notice at its next check.
var_dump(RedisMutexLock::lock('flush', 0, 20));
$opts = [];
for ($i = 0; $i < 3; $i++) {
    $opts[] = ['key' => 'flush', 'i' => $i, 'timeout' => 30, 'sleep' => 2000000, 'hold' => 0.05];
}
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, $opts);
rl_sleep(0.05);
var_dump($redis->cmd('SCRIPT', 'FLUSH'));
RedisMutexLock::release('flush');
$released = rl_now();
foreach ($waiters as $i => $w) {
    $r = $w->result(10);
    echo "waiter $i: ", var_export($r['r'], true), "\n";
    if ($i === 0) {
        echo "waiter 0 < 300 ms after the release: ", $r['t'] - $released < 0.3 ? 'true' : sprintf('false (%.3f s)', $r['t'] - $released), "\n";
    }
}
foreach ($waiters as $w) {
    $w->finish(5);
}
$acq = rl_book_times($book, 'acq');
$rel = rl_book_times($book, 'rel');
$gaps = [];
for ($n = 1; $n < count($acq); $n++) {
    $gaps[] = round(($acq[$n][1] - $rel[$n - 1][2]) * 1000);
}
echo "order: ", implode(' ', array_column($acq, 0)), ", each next one < 300 ms after the release: ", $gaps !== [] && max($gaps) < 300 ? 'true' : 'false (ms: ' . json_encode($gaps) . ')', "\n";
echo "keys: ", rl_keys_left($redis, $tokens), "\n";
?>
--EXPECT--
bool(true)
string(2) "OK"
waiter 0: true
waiter 0 < 300 ms after the release: true
waiter 1: true
waiter 2: true
order: 0 1 2, each next one < 300 ms after the release: true
keys: []
