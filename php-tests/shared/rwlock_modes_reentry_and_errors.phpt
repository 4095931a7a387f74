--TEST--
RedisReadWriteLock: upgrade only as the only holder and never waiting, downgrade at once (readers queued at the head let in), re-entry per redis_lock.reentrant, ValueErrors worded like PHP's, another kind of lock on the name is a clear error
--SKIPIF--
<?php if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/actor.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$L = 'RedisReadWriteLock::';
$show = fn ($i) => sprintf('mode %s, count %d, writer %s, readers %d, waiters %d', json_encode($i['mode']), $i['count'], json_encode($i['writer']), $i['readers'], $i['waiters']);

echo "read: ", json_encode(RedisReadWriteLock::lockRead('k')), "\n";
echo "upgrade as the only holder: ", json_encode(RedisReadWriteLock::lockWrite('k')), "; ", $show(RedisReadWriteLock::inspect('k')), "\n";
$other = new RlActor($redis);
echo "another reader meanwhile: ", json_encode($other->result("{$L}lockRead", 'k')), "\n";
$other->send("{$L}lockRead", 'k', 20);
rl_eventually(fn () => RedisReadWriteLock::inspect('k')['waiters'], 1, 5);
$t = rl_now();
echo "downgrade: ", json_encode(RedisReadWriteLock::lockRead('k')), "; the queued reader let in: ", json_encode($other->answer()['r']), "\n";
echo $show(RedisReadWriteLock::inspect('k')), "\n";
$t = rl_now();
$up = RedisReadWriteLock::lockWrite('k', 5);
printf("upgrade beside another reader, timeout 5: %s after %s; %s\n", json_encode($up), rl_now() - $t < 1 ? '< 1 s' : 'too long', $show(RedisReadWriteLock::inspect('k')));
echo "read again (re-entry): ", json_encode(RedisReadWriteLock::lockRead('k')), "; count ", RedisReadWriteLock::inspect('k')['count'], "\n";
echo "release: ", json_encode(RedisReadWriteLock::release('k')), "; still held: ", json_encode(RedisReadWriteLock::inspect('k')['held']), "\n";
echo "release: ", json_encode(RedisReadWriteLock::release('k')), "; held: ", json_encode(RedisReadWriteLock::inspect('k')['held']), "\n";
echo "release again: ", json_encode(RedisReadWriteLock::release('k')), "\n";
echo "extend without a hold: ", json_encode(RedisReadWriteLock::extend('k', 5)), "\n";
$other->call("{$L}release", 'k');

// An owner token's hold (adapters) is the owner's: this process' own hold stays its own.
$owner = RedisMutexLock::newOwner();
echo "read, then an owner's read beside it: ", json_encode([RedisReadWriteLock::lockRead('o'), RedisReadWriteLock::acquireOwner('o', $owner, false, 10000)]),
    "; this process still holds: ", json_encode(RedisReadWriteLock::inspect('o')['held']), ", readers ", RedisReadWriteLock::inspect('o')['readers'], "\n";
$t = rl_now();
$up = RedisReadWriteLock::acquireOwner('o', $owner, true, 10000, 5);
echo "the owner's upgrade beside this process' read, timeout 5: ", json_encode($up), rl_now() - $t < 1 ? ' at once' : ' after waiting', ", its mode: ", RedisReadWriteLock::modeOf('o', $owner), "\n";
echo "releases: ", json_encode([RedisReadWriteLock::release('o'), RedisReadWriteLock::releaseOwner('o', $owner)]), "\n";

ini_set('redis_lock.reentrant', '0');
echo "reentrant off: ", json_encode(RedisReadWriteLock::lockWrite('k')), ", again: ", json_encode(RedisReadWriteLock::lockWrite('k')), "\n";
echo "extend: ", json_encode(RedisReadWriteLock::extend('k', 60)), ", ttl > 50 s: ", json_encode(RedisReadWriteLock::inspect('k')['holders'][0]['ttl'] > 50000), "\n";
RedisReadWriteLock::release('k');
ini_restore('redis_lock.reentrant');

foreach ([
    fn () => RedisReadWriteLock::lockRead(''),
    fn () => RedisReadWriteLock::lockWrite('k', -1),
    fn () => RedisReadWriteLock::lockRead('k', NAN),
    fn () => RedisReadWriteLock::lockRead('k', 0, 0),
    fn () => RedisReadWriteLock::release(''),
    fn () => RedisReadWriteLock::extend('k', -5),
    fn () => RedisReadWriteLock::acquireOwner('k', '', true, 1000),
    fn () => RedisReadWriteLock::acquireOwner('k', 'o', true, 1),
] as $call) {
    try {
        $call();
        echo "no error\n";
    } catch (ValueError $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
echo "semaphore permit: ", json_encode(RedisSemaphore::acquire('k', 2)), "\n";
try {
    RedisReadWriteLock::lockRead('k');
} catch (RedisLockException $e) {
    echo get_class($e), ": ", preg_replace('/:\d+:/', ':PORT:', $e->getMessage()), "\n";
}
RedisSemaphore::release('k');
echo "a mutex on the name: ", json_encode(RedisMutexLock::lock('k')), "\n";
try {
    RedisReadWriteLock::lockWrite('k');
} catch (RedisLockException $e) {
    echo get_class($e), ": ", preg_replace('/:\d+:/', ':PORT:', $e->getMessage()), "\n";
}
RedisMutexLock::release('k');
$other->finish();
echo "keys left: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
read: true
upgrade as the only holder: true; mode "write", count 1, writer true, readers 0, waiters 0
another reader meanwhile: false
downgrade: true; the queued reader let in: true
mode "read", count 1, writer false, readers 2, waiters 0
upgrade beside another reader, timeout 5: false after < 1 s; mode "read", count 1, writer false, readers 2, waiters 0
read again (re-entry): true; count 2
release: true; still held: true
release: true; held: false
release again: false
extend without a hold: false
read, then an owner's read beside it: [true,true]; this process still holds: true, readers 2
the owner's upgrade beside this process' read, timeout 5: false at once, its mode: read
releases: [true,true]
reentrant off: true, again: false
extend: true, ttl > 50 s: true
ValueError: RedisReadWriteLock::lockRead(): Argument #1 ($key) must not be empty
ValueError: RedisReadWriteLock::lockWrite(): Argument #2 ($timeout) must be greater than or equal to 0
ValueError: RedisReadWriteLock::lockRead(): Argument #2 ($timeout) must be a finite number
ValueError: RedisReadWriteLock::lockRead(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387
ValueError: RedisReadWriteLock::release(): Argument #1 ($key) must not be empty
ValueError: RedisReadWriteLock::extend(): Argument #2 ($lockSecond) must be between 1 and 4611686018427387
ValueError: RedisReadWriteLock::acquireOwner(): Argument #2 ($owner) must not be empty
ValueError: RedisReadWriteLock::acquireOwner(): Argument #4 ($ttl) must be between 3 and 4611686018427387903
semaphore permit: true
RedisLockException: Redis at 127.0.0.1:PORT: error reply: WRONGKIND the key is held as a semaphore, not as a read/write lock
a mutex on the name: true
RedisLockException: Redis at 127.0.0.1:PORT: error reply: WRONGTYPE the key is held as a mutex, not as a shared lock
keys left: []
