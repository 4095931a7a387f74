--TEST--
RedisLock::beginScope()/endScope(): ending a scope releases what was taken in it (and in scopes opened inside it) and is still held, of every kind (mutex, nested mutex holds, RedLock, read/write lock, semaphore), reports the keys (none failed here); locks taken before the scope, and locks already released, are left alone; a lock of an owner token is left held; an ended or unknown scope ends nothing; 0 ends the innermost; a negative id is a ValueError
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$show = function (array $r): string {
    sort($r['keys']);
    return json_encode($r);
};

var_dump(RedisMutexLock::lock('before', 0, 30));
$outer = RedisLock::beginScope();
var_dump(RedisMutexLock::lock('a', 0, 30), RedisMutexLock::lock('a', 0, 30)); // a nested hold
var_dump(RedisMutexLock::lock('done', 0, 30), RedisMutexLock::release('done'));
$redlock = new RedLock([$redis->dsn()]);
echo "redlock: ", is_array($redlock->lock('rl', 30000)) ? 'held' : 'not held', "\n";
$inner = RedisLock::beginScope();
echo "ids grow: ", var_export($inner > $outer, true), "\n";
var_dump(RedisReadWriteLock::lockRead('rw', 0, 30), RedisSemaphore::acquire('sem', 2, 0, 30));
$owner = RedisMutexLock::newOwner();
var_dump(RedisMutexLock::acquire('owned', $owner, 30000));
echo "keys held: ", json_encode($redis->keys()), "\n";

echo "end outer: ", $show(RedisLock::endScope($outer)), "\n";
echo "keys left: ", json_encode($redis->keys()), "\n";
echo "owner lock still the owner's: ", var_export($redis->cmd('GET', 'lock:owned') === $owner, true), "\n";
echo "inner ended with it: ", $show(RedisLock::endScope($inner)), "\n";
echo "outer again: ", $show(RedisLock::endScope($outer)), "\n";
echo "unknown: ", $show(RedisLock::endScope(12345)), "\n";
echo "none open: ", $show(RedisLock::endScope()), "\n";
echo "the scope's mutex is free: ", rl_show(RedisMutexLock::lock('a', 0, 30)), "\n";
var_dump(RedisMutexLock::release('a'));

// 0: the innermost scope.
$one = RedisLock::beginScope();
var_dump(RedisMutexLock::lock('x', 0, 30));
$two = RedisLock::beginScope();
var_dump(RedisMutexLock::lock('y', 0, 30));
echo "end innermost: ", $show(RedisLock::endScope()), "\n";
echo "x still held: ", json_encode(RedisMutexLock::inspect('x')['held']), "\n";
echo "end innermost again: ", $show(RedisLock::endScope(0)), "\n";

try {
    RedisLock::endScope(-1);
} catch (ValueError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
var_dump(RedisMutexLock::release('before'), RedisMutexLock::releaseOwner('owned', $owner));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
redlock: held
ids grow: true
bool(true)
bool(true)
bool(true)
keys held: ["lock:a","lock:before","lock:owned","lock:rw","lock:sem","rl"]
end outer: {"keys":["lock:a","lock:rw","lock:sem","rl"],"failed":0,"owner_locks":1}
keys left: ["lock:before","lock:owned"]
owner lock still the owner's: true
inner ended with it: {"keys":[],"failed":0,"owner_locks":0}
outer again: {"keys":[],"failed":0,"owner_locks":0}
unknown: {"keys":[],"failed":0,"owner_locks":0}
none open: {"keys":[],"failed":0,"owner_locks":0}
the scope's mutex is free: true
bool(true)
bool(true)
bool(true)
end innermost: {"keys":["lock:y"],"failed":0,"owner_locks":0}
x still held: true
end innermost again: {"keys":["lock:x"],"failed":0,"owner_locks":0}
ValueError: RedisLock::endScope(): Argument #1 ($scope) must be greater than or equal to 0
bool(true)
bool(true)
keys: []
