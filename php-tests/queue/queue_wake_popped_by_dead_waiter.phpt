--TEST--
Queue: the wake-up that a release without a hint pushes onto {K}:n is popped by a waiter that dies before it passes it on (a client blocked there longest that pops it and never writes again): the first waiter finds the lock at its own next look, or, once its 100 ms grant ran out, queues again at the back and the next one takes it; the first new holder comes < 1 s after the release, both waiters get the lock, never two at once, and no key is left
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:dead';
$keys = rl_queue_keys($K);

var_dump(RedisMutexLock::lock('dead', 0, 20));   // taken with nobody waiting: no hint
// The one that will pop the wake-up, blocked on {K}:n before any waiter.
$thief = new RespClient("unix://" . $redis->socket);
$thief->send(['BLPOP', $keys['n'], '10']);
$deadline = rl_now() + 5;
while (!preg_match('/^blocked_clients:1\r?$/m', $redis->cmd('INFO', 'clients')) && rl_now() < $deadline) {
    usleep(2000);
}
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [
    ['key' => 'dead', 'i' => 0, 'timeout' => 30, 'hold' => 0.05],
    ['key' => 'dead', 'i' => 1, 'timeout' => 30, 'hold' => 0.05],
]);
RedisMutexLock::release('dead');
$released = rl_now();
$popped = $thief->read();
$thief->close();                                  // and it is gone
echo "popped: the first waiter's wake-up: ", var_export($popped === [$keys['n'], $tokens[0]], true), "\n";
$first = INF;
foreach ($waiters as $i => $w) {
    $r = $w->result(10);
    echo "waiter $i: ", var_export($r['r'], true), "\n";
    $first = min($first, $r['t'] - $released);
}
echo "first new holder < 1 s after the release: ", $first < 1.0 ? 'true' : sprintf('false (%.3f s)', $first), "\n";
foreach ($waiters as $w) {
    $w->finish(5);
}
// 0 first when it looked again within its grant, else 1 (0 queued again at the back).
$order = implode(' ', array_column(rl_book_times($book, 'acq'), 0));
echo "order 0 1 or 1 0: ", var_export(in_array($order, ['0 1', '1 0'], true), true), "\n";
echo "two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
echo "keys: ", rl_keys_left($redis, $tokens), "\n";
?>
--EXPECT--
bool(true)
popped: the first waiter's wake-up: true
waiter 0: true
waiter 1: true
first new holder < 1 s after the release: true
order 0 1 or 1 0: true
two holders at once: []
keys: []
