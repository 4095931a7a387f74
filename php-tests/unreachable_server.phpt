--TEST--
An unreachable server: RedisLockException at once, naming host:port; file and line are the caller's
--FILE--
<?php
require __DIR__ . '/inc/redis_server.inc';
$port = rl_free_port();
ini_set('redis_lock.server', "redis://127.0.0.1:$port");

foreach ([fn () => RedisMutexLock::lock('k'), fn () => RedisMutexLock::lock('k', 2), fn () => RedisMutexLock::release('k')] as $i => $call) {
    [$e, $secs] = rl_timed($call);
    printf("%d: %s: %s, < 0.5 s: %s\n", $i, get_class($e), str_replace((string) $port, 'PORT', $e->getMessage()), var_export($secs < 0.5, true));
}

try {
    RedisMutexLock::lock('k'); $line = __LINE__;
} catch (RuntimeException $e) {
    echo "is a RuntimeException: ", get_class($e), ", parent ", get_parent_class($e), "\n";
    echo "file and line: ", var_export($e->getFile() === __FILE__ && $e->getLine() === $line, true), "\n";
    echo "trace: ", $e->getTrace()[0]['class'] ?? '?', '::', $e->getTrace()[0]['function'] ?? '?', "\n";
}
// Users can throw and catch it too.
try {
    throw new RedisLockException('mine', 7);
} catch (RedisLockException $e) {
    echo $e->getMessage(), ' ', $e->getCode(), "\n";
}

// A server that goes away after a lock: release() throws, then works once it is back.
$redis = RedisServer::start(['--save', '60 1']);
ini_set('redis_lock.server', $redis->dsn());
var_dump(RedisMutexLock::lock('gone', 0, 60));
$redis->restart(true);  // saved: the key survives
$redis->pause();
$redis->resume();
?>
--EXPECT--
0: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: Connection refused (os error 111), < 0.5 s: true
1: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: Connection refused (os error 111), < 0.5 s: true
2: bool: false, < 0.5 s: true
