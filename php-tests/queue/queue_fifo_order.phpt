--TEST--
Queue: waiters acquire in the order they queued (FIFO), each handed the lock directly by the previous holder's release()
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();   // bookkeeping: acquisition order, a non-atomic "inside" counter
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:fifo';
$q = rl_queue_keys($K);

var_dump(RedisMutexLock::lock('fifo', 0, 30));
$opts = [];
for ($i = 0; $i < 6; $i++) {
    $opts[] = ['key' => 'fifo', 'i' => $i, 'timeout' => 30, 'hold' => 0.02];
}
// Each waiter is started only once the previous one is in the queue list.
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, $opts);
echo "queued: ", count($waiters), ", distinct tokens: ", count(array_unique($tokens)), "\n";
echo "queue list in start order: ", var_export(rl_queue_tokens($redis, $K) === array_values($tokens), true), "\n";
echo "a place per waiter: ", var_export($redis->cmd('ZCARD', $q['t']) === 6, true), "\n";
$v = $redis->cmd('GET', $K);
echo "lock still ours, marked for its waiters: ", var_export(rl_is_token(rl_holder($v)) && $v !== rl_holder($v), true), "\n";

var_dump(RedisMutexLock::release('fifo'));
foreach ($waiters as $i => $w) {
    $r = $w->result(15);
    echo "waiter $i: ", var_export($r['r'], true), ", released: ", var_export($r['rel'], true), "\n";
}
foreach ($waiters as $w) {
    $w->finish(5);
}
echo "order: ", implode(' ', $book->cmd('LRANGE', 'order', 0, -1)), "\n";
echo "two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
echo "keys: ", rl_keys_left($redis, $tokens), "\n";
?>
--EXPECT--
bool(true)
queued: 6, distinct tokens: 6
queue list in start order: true
a place per waiter: true
lock still ours, marked for its waiters: true
bool(true)
waiter 0: true, released: true
waiter 1: true, released: true
waiter 2: true, released: true
waiter 3: true, released: true
waiter 4: true, released: true
waiter 5: true, released: true
order: 0 1 2 3 4 5
two holders at once: []
keys: []
