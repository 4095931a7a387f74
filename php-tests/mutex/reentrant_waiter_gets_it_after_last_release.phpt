--TEST--
Reentrancy with a queued waiter: the holder took the lock twice; its first release() hands nothing on (the waiter keeps waiting, the key keeps our token); the second hands the lock to the waiter within about a second
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:nested';

var_dump(RedisMutexLock::lock('nested', 0, 30), RedisMutexLock::lock('nested', 0, 30));
$ours = $redis->cmd('GET', $K);
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [['key' => 'nested', 'i' => 'w', 'timeout' => 5, 'hold' => 0.05]]);
echo "waiter queued: ", count(rl_queue_tokens($redis, $K)), "\n";

var_dump(RedisMutexLock::release('nested'));
rl_sleep(0.7);
echo "after the first release: key ours: ", var_export(rl_holder($redis->cmd('GET', $K)) === $ours, true),
    ", waiter still queued: ", var_export(rl_queue_tokens($redis, $K) === array_values($tokens), true),
    ", it got nothing: ", json_encode($book->cmd('LRANGE', 'order', 0, -1)),
    ", count: ", RedisMutexLock::inspect('nested')['count'], "\n";

var_dump(RedisMutexLock::release('nested'));
$released = rl_now();
$r = $waiters['w']->result(10);
$after = $r['t'] - $released;
echo "waiter: ", var_export($r['r'], true), ", within 1 s of the last release: ", $after < 1.0 ? 'true' : sprintf('false (%.3f s)', $after),
    ", released: ", var_export($r['rel'], true), "\n";
$waiters['w']->finish(5);
echo "order: ", json_encode($book->cmd('LRANGE', 'order', 0, -1)), "\n";
echo "ours: ", rl_show(RedisMutexLock::release('nested')), "\n";
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
?>
--EXPECT--
bool(true)
bool(true)
waiter queued: 1
bool(true)
after the first release: key ours: true, waiter still queued: true, it got nothing: [], count: 1
bool(true)
waiter: true, within 1 s of the last release: true, released: true
order: ["w"]
ours: false
keys after 2 s: []
