--TEST--
Queue: the head waiter is frozen (SIGSTOP) for 2 s while the lock is handed to it: the others go on meanwhile (the next one < 1 s after the release); resumed (SIGCONT) while another holds the lock, it never enters at the same time: it gets the lock after that holder, or, when its own deadline passed while it was frozen, returns false
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:thaw';

// Waiter 1 holds the lock for 3 s: across the moment waiter 0 is resumed.
foreach ([30, 1.5] as $timeout0) {
    echo "-- waiter 0 with timeout $timeout0\n";
    $book->cmd('FLUSHALL');
    var_dump(RedisMutexLock::lock('thaw', 0, 20));
    [$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [
        ['key' => 'thaw', 'i' => 0, 'timeout' => $timeout0, 'hold' => 0.1],
        ['key' => 'thaw', 'i' => 1, 'timeout' => 30, 'hold' => 3.0],
        ['key' => 'thaw', 'i' => 2, 'timeout' => 30, 'hold' => 0.1],
    ]);
    rl_sleep(0.05);
    $waiters[0]->signal(SIGSTOP);
    RedisMutexLock::release('thaw');
    $released = rl_now();
    rl_sleep(2.0);
    // Waiter 1 holds the lock now.
    $acq = rl_book_times($book, 'acq');
    echo "while 0 is frozen: ", implode(' ', array_column($acq, 0)), " got the lock, the first one < 1 s after the release: ",
        isset($acq[0]) && $acq[0][1] - $released < 1.0 ? 'true' : 'false (' . json_encode($acq) . ", released at $released)", "\n";
    echo "the lock is waiter 1's: ", var_export(rl_holder($redis->cmd('GET', $K)) === $tokens[1], true), "\n";
    $waiters[0]->signal(SIGCONT);
    $resumed = rl_now();
    $r0 = $waiters[0]->result(40);
    $r1 = $waiters[1]->result(10);
    $r2 = $waiters[2]->result(10);
    foreach ($waiters as $w) {
        $w->finish(5);
    }
    $acq = rl_book_times($book, 'acq');
    $rel = rl_book_times($book, 'rel');
    // When waiter 1 left its section (before its release() call): the hand-off
    // may wake waiter 0 before that call has returned.
    $relOf = array_column($rel, 1, 0);
    $acqOf = array_column($acq, 1, 0);
    echo "waiter 1: ", var_export($r1['r'], true), ", waiter 2: ", var_export($r2['r'], true), "\n";
    if ($r0['r'] === true) {
        echo "waiter 0: true, after waiter 1 released: ", var_export($acqOf['0'] > $relOf['1'], true), "\n";
    } elseif ($r0['r'] === false) {
        $late = rl_now() - $resumed;
        echo "waiter 0: false, its deadline had passed: ", var_export($r0['secs'] >= $timeout0, true),
            ", returned < 0.5 s after it was resumed: ", $r0['t'] - $resumed < 0.5 ? 'true' : sprintf('false (%.3f s)', $r0['t'] - $resumed), "\n";
    } else {
        echo "waiter 0: ", var_export($r0['r'], true), "\n";
    }
    echo "order: ", implode(' ', array_column($acq, 0)), "\n";
    echo "two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
    echo "every key left expires: ", var_export(rl_all_keys_expire($redis, $bad), true), $bad ? ' ' . json_encode($bad) : '', "\n";
    echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
}
?>
--EXPECTF--
-- waiter 0 with timeout 30
bool(true)
while 0 is frozen: 1 got the lock, the first one < 1 s after the release: true
the lock is waiter 1's: true
waiter 1: true, waiter 2: true
waiter 0: true, after waiter 1 released: true
order: 1 %s
two holders at once: []
every key left expires: true
keys after 2 s: []
-- waiter 0 with timeout 1.5
bool(true)
while 0 is frozen: 1 got the lock, the first one < 1 s after the release: true
the lock is waiter 1's: true
waiter 1: true, waiter 2: true
waiter 0: false, its deadline had passed: true, returned < 0.5 s after it was resumed: true
order: 1 2
two holders at once: []
every key left expires: true
keys after 2 s: []
