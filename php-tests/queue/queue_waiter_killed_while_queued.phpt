--TEST--
Queue: a waiter SIGKILLed while queued in the middle of the queue stalls nobody: the others acquire in order, each less than 1 s after the previous release (a dead waiter is passed over once its place runs out, not after the 20 s TTL); what is left expires by itself
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:mid';
$q = rl_queue_keys($K);

function run(RedisServer $redis, RedisServer $book, string $K, array $kill, float $killDelay): void
{
    $book->cmd('FLUSHALL');
    var_dump(RedisMutexLock::lock('mid', 0, 20));
    $opts = [];
    for ($i = 0; $i < 5; $i++) {
        $opts[] = ['key' => 'mid', 'i' => $i, 'timeout' => 30, 'hold' => 0.1];
    }
    [$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, $opts);
    rl_sleep($killDelay);
    foreach ($kill as $i) {
        $waiters[$i]->kill();
    }
    echo "killed: ", implode(' ', $kill), "\n";
    RedisMutexLock::release('mid');
    $released = rl_now();
    foreach ($waiters as $i => $w) {
        if (!in_array($i, $kill, true)) {
            $r = $w->result(30);
            echo "waiter $i: ", var_export($r['r'], true), "\n";
        }
    }
    foreach ($waiters as $w) {
        $w->finish(5);
    }
    echo "order: ", implode(' ', $book->cmd('LRANGE', 'order', 0, -1)), "\n";
    // Each acquisition against the previous release (the first one: this process').
    $prev = $released;
    $gaps = [];
    $acq = rl_book_times($book, 'acq');
    $rel = rl_book_times($book, 'rel');
    foreach ($acq as $n => [$i, $t]) {
        $gaps[] = round(($t - $prev) * 1000);
        $prev = $rel[$n][2] ?? INF;
    }
    echo "every gap < 1 s: ", max($gaps) < 1000 ? 'true' : 'false (ms: ' . json_encode($gaps) . ')', "\n";
    echo "two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
    echo "every key left expires: ", var_export(rl_all_keys_expire($redis, $bad), true), $bad ? ' ' . json_encode($bad) : '', "\n";
}

echo "-- the middle waiter, killed while the lock is held\n";
run($redis, $book, $K, [2], 0.0);
echo "-- two neighbours in the middle, killed 0.5 s later (their places ran out meanwhile)\n";
run($redis, $book, $K, [1, 2], 0.5);
echo "-- the head waiter\n";
run($redis, $book, $K, [0], 0.0);
echo "keys after 1 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 1.0)), "\n";
?>
--EXPECT--
-- the middle waiter, killed while the lock is held
bool(true)
killed: 2
waiter 0: true
waiter 1: true
waiter 3: true
waiter 4: true
order: 0 1 3 4
every gap < 1 s: true
two holders at once: []
every key left expires: true
-- two neighbours in the middle, killed 0.5 s later (their places ran out meanwhile)
bool(true)
killed: 1 2
waiter 0: true
waiter 3: true
waiter 4: true
order: 0 3 4
every gap < 1 s: true
two holders at once: []
every key left expires: true
-- the head waiter
bool(true)
killed: 0
waiter 1: true
waiter 2: true
waiter 3: true
waiter 4: true
order: 1 2 3 4
every gap < 1 s: true
two holders at once: []
every key left expires: true
keys after 1 s: []
