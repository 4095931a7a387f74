--TEST--
Queue: a lock held by another client's value (a hand-rolled SET NX string, symfony/lock's sorted set) is waited for, never an exception, never written: the first waiter in line looks again soon behind it instead of at its next check ($sleep 2 s here): it gets the key within 0.5 s of the other client's DEL after 0.3 s, just after the key's PTTL runs out (0.4 s), and a sorted set that stays is a plain timeout (false) while release(), acquire(), releaseOwner() and extend() answer false, owner() shows it as \0zset, and the key is left as it was; our own read/write lock on the name is still a clear error
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$r = $redis->client();

// One waiter with a 2 s look interval; each round starts with a line on its stdin.
$w = new RlWaiter($redis, $book, ['key' => 'fx', 'timeout' => 1.5, 'sleep' => 2000000, 'hold' => 0, 'loops' => 4, 'gate' => true]);

// 1. A hand-rolled lock (`SET lock:K 1 NX EX 20`) released by DEL after 0.3 s.
$r->cmd('SET', 'lock:fx', '1', 'NX', 'EX', '20');
$w->writeLine('go');
rl_queue_wait_len($redis, 'lock:fx', 1, 5.0, 'hand-rolled');
rl_sleep(0.3);
$r->cmd('DEL', 'lock:fx');
$deleted = rl_now();
$res = $w->result(5);
printf("hand-rolled SET NX, DEL after 0.3 s: got it %s, within 0.5 s of the DEL: %s\n", json_encode($res['r']),
    $res['t'] - $deleted < 0.5 ? 'yes' : sprintf('no (%.0f ms)', ($res['t'] - $deleted) * 1000));

// 2. A foreign holder that is never deleted: its TTL (0.4 s) runs out.
$r->cmd('SET', 'lock:fx', 'laravel-owner-16ch', 'PX', '400');
$set = rl_now();
$w->writeLine('go');
$res = $w->result(5);
printf("foreign holder with PX 400: got it %s after %s\n", json_encode($res['r']),
    $res['t'] - $set >= 0.35 && $res['t'] - $set < 0.8 ? '0.35 to 0.8 s' : sprintf('%.0f ms', ($res['t'] - $set) * 1000));

// 3. symfony/lock's RedisStore keeps a sorted set of its keys' tokens.
$symfony = fn () => [$r->cmd('ZADD', 'lock:fx', (string) (time() * 1000 + 30000), 'c3ltZm9ueQ=='), $r->cmd('PEXPIRE', 'lock:fx', '30000')];
$symfony();
$w->writeLine('go');
$res = $w->result(5);
printf("symfony's sorted set kept for the whole wait: %s after %.1f s\n", json_encode($res['r']), $res['secs']);
$calls = [];
foreach ([
    'lock(timeout 0)' => fn () => RedisMutexLock::lock('fx'),
    'release' => fn () => RedisMutexLock::release('fx'),
    'acquire(owner, timeout 0)' => fn () => RedisMutexLock::acquire('fx', RedisMutexLock::newOwner(), 5000),
    'acquire(owner, timeout 0.3)' => fn () => RedisMutexLock::acquire('fx', RedisMutexLock::newOwner(), 5000, 0.3),
    'releaseOwner' => fn () => RedisMutexLock::releaseOwner('fx', RedisMutexLock::newOwner()),
    'extend' => fn () => RedisMutexLock::extend('fx'),
    'owner' => fn () => RedisMutexLock::owner('fx'),
    'inspect().held' => fn () => RedisMutexLock::inspect('fx')['held'],
] as $name => $call) {
    try {
        $calls[] = "$name " . json_encode($call());
    } catch (Throwable $e) {
        $calls[] = "$name " . get_class($e) . ': ' . $e->getMessage();
    }
}
echo "on it: ", implode(', ', $calls), "\n";
echo "left as it was: ", json_encode([$r->cmd('TYPE', 'lock:fx'), $r->cmd('ZRANGE', 'lock:fx', '0', '-1')]), "\n";
// ... and once symfony's release (ZREM; the emptied key is gone) came, ours gets it.
$w->writeLine('go');
rl_queue_wait_len($redis, 'lock:fx', 1, 5.0, 'symfony');
rl_sleep(0.3);
$r->cmd('ZREM', 'lock:fx', 'c3ltZm9ueQ==');
$deleted = rl_now();
$res = $w->result(5);
printf("after symfony's release: got it %s, within 0.5 s: %s\n", json_encode($res['r']), $res['t'] - $deleted < 0.5 ? 'yes' : 'no');
$w->finish(5);

// 4. Our own read/write lock on the name: a mix-up of classes, said so.
RedisReadWriteLock::lockRead('rw');
try {
    var_dump(RedisMutexLock::lock('rw', 0.2));
} catch (RedisLockException $e) {
    echo get_class($e), ': ', preg_replace('/127\.0\.0\.1:\d+/', '127.0.0.1:P', $e->getMessage()), "\n";
}
RedisReadWriteLock::release('rw');
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
hand-rolled SET NX, DEL after 0.3 s: got it true, within 0.5 s of the DEL: yes
foreign holder with PX 400: got it true after 0.35 to 0.8 s
symfony's sorted set kept for the whole wait: false after 1.5 s
on it: lock(timeout 0) false, release false, acquire(owner, timeout 0) false, acquire(owner, timeout 0.3) false, releaseOwner false, extend false, owner "\u0000zset", inspect().held false
left as it was: ["zset",["c3ltZm9ueQ=="]]
after symfony's release: got it true, within 0.5 s: yes
RedisLockException: Redis at 127.0.0.1:P: error reply: WRONGTYPE the lock key is held as a shared lock, not what the lock keeps there
keys: []
