--TEST--
Queue: a holder that took the lock while nobody waited does not know whom to wake; its release hands the lock to the first waiter and wakes it through the shared list {K}:n. When another waiter has been blocked there longer (the first one looked at the queue since), that one pops the wake-up and passes it on: the first waiter gets the lock < 0.5 s after the release, long before its own next look (1.5 s after its last), and the order stays 0 1
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:pass';
$keys = rl_queue_keys($K);

var_dump(RedisMutexLock::lock('pass', 0, 20));   // taken with nobody waiting: no hint
// Waiter 0 looks at the queue every 1.5 s (its blocking pop ends, it renews
// its place and blocks again); waiter 1 every 5 s.
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [
    ['key' => 'pass', 'i' => 0, 'timeout' => 30, 'sleep' => 1500000, 'hold' => 0.05],
    ['key' => 'pass', 'i' => 1, 'timeout' => 30, 'sleep' => 5000000, 'hold' => 0.05],
]);
// Once waiter 0 renewed its place after waiter 1 queued, it blocked again
// behind waiter 1: Redis now serves waiter 1 first on {K}:n.
$lease = (float) $redis->cmd('ZSCORE', $keys['t'], $tokens[0]);
$deadline = rl_now() + 5;
while ((float) $redis->cmd('ZSCORE', $keys['t'], $tokens[0]) === $lease && rl_now() < $deadline) {
    usleep(2000);
}
echo "waiter 0 looked again: ", var_export((float) $redis->cmd('ZSCORE', $keys['t'], $tokens[0]) > $lease, true), "\n";
rl_sleep(0.02);
$mon = new RlMonitor($redis);
RedisMutexLock::release('pass');
$released = rl_now();
foreach ($waiters as $i => $w) {
    $r = $w->result(10);
    echo "waiter $i: ", var_export($r['r'], true), "\n";
    if ($i === 0) {
        echo "waiter 0 < 0.5 s after the release: ", $r['t'] - $released < 0.5 ? 'true' : sprintf('false (%.3f s)', $r['t'] - $released), "\n";
    }
}
// The wake-up passed on: the one script with two keys (K and the first
// waiter's own list), sent as text by waiter 1.
$passed = array_filter($mon->collect(0.1), fn ($c) => $c[0] !== 'lua' && in_array(strtoupper($c[1][0]), ['EVAL', 'EVALSHA'], true)
    && $c[1][2] === '2' && $c[1][4] === $keys['w'] . $tokens[0]);
$mon->close();
echo "wake-ups passed on: ", count($passed), "\n";
foreach ($waiters as $w) {
    $w->finish(5);
}
echo "order: ", implode(' ', array_column(rl_book_times($book, 'acq'), 0)), "\n";
echo "keys: ", rl_keys_left($redis, $tokens), "\n";
?>
--EXPECT--
bool(true)
waiter 0 looked again: true
waiter 0: true
waiter 0 < 0.5 s after the release: true
waiter 1: true
wake-ups passed on: 1
order: 0 1
keys: []
