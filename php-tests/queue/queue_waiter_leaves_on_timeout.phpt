--TEST--
Queue: a waiter whose $timeout expires returns false at its deadline and leaves the queue (its token is in neither the queue list nor the places zset, no wake list of its own is left without a TTL); the waiter behind it (its own next look 5 s away) is handed the lock by the release, < 1 s after it
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:gone';
$q = rl_queue_keys($K);

var_dump(RedisMutexLock::lock('gone', 0, 20));
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [
    ['key' => 'gone', 'i' => 'A', 'timeout' => 0.5],
    ['key' => 'gone', 'i' => 'B', 'timeout' => 30, 'sleep' => 5000000], // its own next look: seconds away
]);
$a = $waiters['A']->result(5);
echo "A: ", var_export($a['r'], true), " after 0.45..1.0 s: ", $a['secs'] >= 0.45 && $a['secs'] < 1.0 ? 'true' : sprintf('false (%.3f s)', $a['secs']), "\n";
$waiters['A']->finish(5);
echo "A in the queue list: ", var_export(in_array($tokens['A'], rl_queue_tokens($redis, $K), true), true), "\n";
echo "A in the places zset: ", var_export($redis->cmd('ZSCORE', $q['t'], $tokens['A']) !== null, true), "\n";
$wakeA = $q['w'] . $tokens['A'];
echo "A's wake list: ", $redis->cmd('EXISTS', $wakeA) === 0 ? 'none' : 'PTTL > 0: ' . var_export($redis->cmd('PTTL', $wakeA) > 0, true), "\n";
echo "B still queued: ", var_export(rl_queue_tokens($redis, $K) === [$tokens['B']], true), "\n";
var_dump(RedisMutexLock::release('gone'));
$released = rl_now();
$b = $waiters['B']->result(5);
echo "B: ", var_export($b['r'], true), ", < 1 s after the release: ", $b['t'] - $released < 1.0 ? 'true' : sprintf('false (%.3f s)', $b['t'] - $released), "\n";
$waiters['B']->finish(5);
echo "keys: ", rl_keys_left($redis, $tokens), "\n";
?>
--EXPECT--
bool(true)
A: false after 0.45..1.0 s: true
A in the queue list: false
A in the places zset: false
A's wake list: none
B still queued: true
bool(true)
B: true, < 1 s after the release: true
keys: []
