--TEST--
Redis restarted or SCRIPT FLUSHed between lock and release: release() still works (stale connection replaced; the script's EVAL fallback, or the native delete where the server has one)
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$port = $redis->port;

// Restart with the key saved: the pooled connection is dead and the script cache is empty.
var_dump(RedisMutexLock::lock('k', 0, 60));
$token = $redis->cmd('GET', 'lock:k');
$redis->restart(save: true);
echo "same port: ", var_export($redis->port === $port, true), ", key survived: ", var_export($redis->cmd('GET', 'lock:k') === $token, true), "\n";
$native = rl_native_release($redis);
var_dump(RedisMutexLock::release('k'));
echo "gone: ", var_export($redis->cmd('EXISTS', 'lock:k') === 0, true), ", by EVAL after NOSCRIPT (or natively): ",
    var_export($native ? $redis->calls($native) === 1 : $redis->calls('eval') === 1, true), "\n";
// The script is cached again: the next release goes by EVALSHA (or natively again).
var_dump(RedisMutexLock::lock('k') && RedisMutexLock::release('k'));
echo "then by EVALSHA (or natively): ", var_export($native ? $redis->calls($native) === 2 : $redis->calls('eval') === 1 && $redis->calls('evalsha') > 0, true), "\n";

// A lock right after a restart, on the stale pooled connection.
$redis->restart(save: false);
var_dump(RedisMutexLock::lock('k2'));
echo "k2 token: ", var_export(rl_is_token($redis->cmd('GET', 'lock:k2')), true), "\n";
var_dump(RedisMutexLock::release('k2'));

// SCRIPT FLUSH between lock and release.
var_dump(RedisMutexLock::lock('k3'));
var_dump($redis->cmd('SCRIPT', 'FLUSH'));
var_dump(RedisMutexLock::release('k3'));
echo "k3 gone: ", var_export($redis->cmd('EXISTS', 'lock:k3') === 0, true), "\n";

// Killed without persistence: the lock is lost; release() says so without an error.
var_dump(RedisMutexLock::lock('k4', 0, 60));
$redis->kill();
echo "release while down: ", str_replace((string) $port, 'PORT', rl_show(rl_timed(fn () => RedisMutexLock::release('k4'))[0])), "\n";
$redis->restart(save: false);
var_dump(RedisMutexLock::release('k4'));
var_dump(RedisMutexLock::release('k4'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
same port: true, key survived: true
bool(true)
gone: true, by EVAL after NOSCRIPT (or natively): true
bool(true)
then by EVALSHA (or natively): true
bool(true)
k2 token: true
bool(true)
bool(true)
string(2) "OK"
bool(true)
k3 gone: true
bool(true)
release while down: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: Connection refused (os error 111)
bool(false)
bool(false)
keys: []
