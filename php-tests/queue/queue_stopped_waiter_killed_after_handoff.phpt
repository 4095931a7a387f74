--TEST--
Queue: the head waiter is frozen (SIGSTOP) while queued, the lock is handed to it, then it is SIGKILLed: the next waiter gets the lock less than 1 s after the release (the provisional hand-off runs out), not after the 20 s TTL
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:frozen';

foreach ([0.05, 0.4] as $killAfter) {
    echo "-- SIGKILL $killAfter s after the release\n";
    $book->cmd('FLUSHALL');
    var_dump(RedisMutexLock::lock('frozen', 0, 20));
    $opts = [];
    for ($i = 0; $i < 3; $i++) {
        $opts[] = ['key' => 'frozen', 'i' => $i, 'timeout' => 30, 'hold' => 0.05];
    }
    [$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, $opts);
    rl_sleep(0.05);                       // waiter 0 is blocked in Redis now
    $waiters[0]->signal(SIGSTOP);
    RedisMutexLock::release('frozen');
    $released = rl_now();
    $holder = rl_holder($redis->cmd('GET', $K));
    echo "after the release the lock is handed on (not free, not ours): ",
        var_export($holder !== null && in_array($holder, $tokens, true), true), "\n";
    rl_sleep($killAfter);
    $waiters[0]->kill();
    foreach ([1, 2] as $i) {
        $r = $waiters[$i]->result(30);
        echo "waiter $i: ", var_export($r['r'], true), "\n";
    }
    foreach ($waiters as $w) {
        $w->finish(5);
    }
    $acq = rl_book_times($book, 'acq');
    echo "order: ", implode(' ', array_column($acq, 0)), "\n";
    $wait = $acq[0][1] - $released;
    echo "waiter 1 got it < 1 s after the release: ", $wait < 1.0 ? 'true' : sprintf('false (%.3f s)', $wait), "\n";
    echo "two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
    echo "every key left expires: ", var_export(rl_all_keys_expire($redis, $bad), true), $bad ? ' ' . json_encode($bad) : '', "\n";
    echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
}
?>
--EXPECT--
-- SIGKILL 0.05 s after the release
bool(true)
after the release the lock is handed on (not free, not ours): true
waiter 1: true
waiter 2: true
order: 1 2
waiter 1 got it < 1 s after the release: true
two holders at once: []
every key left expires: true
keys after 2 s: []
-- SIGKILL 0.4 s after the release
bool(true)
after the release the lock is handed on (not free, not ours): true
waiter 1: true
waiter 2: true
order: 1 2
waiter 1 got it < 1 s after the release: true
two holders at once: []
every key left expires: true
keys after 2 s: []
