--TEST--
Audit, other clients: a release that first passes over a dead waiter (frozen, its place run out) and then meets a key of another type (the shared wake-up list {K}:n as a hash) throws a RedisLockException naming that key and writes nothing but the dead waiter's drop: the lock stays the holder's, the live waiter keeps its place, and once the hash is gone the release hands the lock to that waiter
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
$token = RedisMutexLock::lock('dead', 0, 20) ? RedisMutexLock::owner('dead') : null;
echo "held: ", var_export($token !== null, true), "\n";
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [
    // Looks every 100 ms: its place runs out 300 ms after its last look.
    ['key' => 'dead', 'i' => 'dead', 'timeout' => 30],
    // Looks every 5 s: nothing of it runs while the release below does.
    ['key' => 'dead', 'i' => 'live', 'timeout' => 30, 'sleep' => 5000000],
]);
$waiters['dead']->signal(SIGSTOP);
$runOut = rl_eventually(fn () => (int) $redis->cmd('ZSCORE', $keys['t'], $tokens['dead']) < $redis->nowMs(), true, 3.0);
echo "the frozen waiter's place ran out: ", var_export($runOut, true), "\n";

$redis->cmd('HSET', $keys['n'], 'f', 'attacker');
try {
    var_dump(RedisMutexLock::release('dead'));
} catch (RedisLockException $e) {
    echo get_class($e), ': ', preg_replace('/127\.0\.0\.1:\d+/', '127.0.0.1:P', $e->getMessage()), "\n";
}
echo "queue: ", json_encode(array_map(fn ($t) => array_search($t, $tokens, true), rl_queue_tokens($redis, $K))),
    ", places: ", json_encode(array_map(fn ($t) => array_search($t, $tokens, true), $redis->cmd('ZRANGE', $keys['t'], 0, -1))), "\n";
echo "the lock is still the holder's: ", var_export(RedisMutexLock::owner('dead') === $token, true),
    ", its TTL untouched: ", var_export($redis->cmd('PTTL', $K) > 15000, true), "\n";
echo "the hash kept: ", json_encode($redis->cmd('HGETALL', $keys['n'])), "\n";

$redis->cmd('DEL', $keys['n']);
$released = rl_now();
echo "released once the hash is gone: ", var_export(RedisMutexLock::release('dead'), true), "\n";
$live = $waiters['live']->result(10);
echo "live waiter: ", json_encode($live['r']), ", after that release: ", var_export($live['t'] > $released, true), "\n";
$waiters['dead']->signal(SIGKILL);
foreach ($waiters as $w) {
    $w->finish(5);
}
echo "two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
echo "every key left expires: ", var_export(rl_all_keys_expire($redis, $bad), true), $bad ? ' ' . json_encode($bad) : '', "\n";
?>
--EXPECT--
held: true
the frozen waiter's place ran out: true
RedisLockException: Redis at 127.0.0.1:P: error reply: WRONGTYPE its shared wake-up list is a hash, not what the lock keeps there
queue: ["live"], places: ["live"]
the lock is still the holder's: true, its TTL untouched: true
the hash kept: ["f","attacker"]
released once the hash is gone: true
live waiter: true, after that release: true
two holders at once: []
every key left expires: true
