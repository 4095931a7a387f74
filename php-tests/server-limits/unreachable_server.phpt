--TEST--
An unreachable server: RedisLockException at once (even with a timeout), naming host:port; file and line are the caller's
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$port = rl_free_port();
ini_set('redis_lock.server', "redis://127.0.0.1:$port");

foreach ([
    'lock' => fn () => RedisMutexLock::lock('k'),
    'lock, timeout 2' => fn () => RedisMutexLock::lock('k', 2),
    'release, never locked' => fn () => RedisMutexLock::release('k'),
] as $name => $call) {
    [$r, $secs] = rl_timed($call);
    printf("%s: %s, < 0.5 s: %s\n", $name, str_replace((string) $port, 'PORT', rl_show($r)), var_export($secs < 0.5, true));
}

try {
    $line = __LINE__ + 1;
    RedisMutexLock::lock('k');
} catch (RuntimeException $e) {
    echo "class: ", get_class($e), ", parent: ", get_parent_class($e), "\n";
    echo "file and line: ", var_export($e->getFile() === __FILE__ && $e->getLine() === $line, true), "\n";
    echo "trace: ", $e->getTrace()[0]['class'] ?? '?', '::', $e->getTrace()[0]['function'] ?? '?', "\n";
}
// Users can throw and catch it too.
try {
    throw new RedisLockException('mine', 7);
} catch (RedisLockException $e) {
    echo $e->getMessage(), ' ', $e->getCode(), "\n";
}
?>
--EXPECT--
lock: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: Connection refused (os error 111), < 0.5 s: true
lock, timeout 2: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: Connection refused (os error 111), < 0.5 s: true
release, never locked: false, < 0.5 s: true
class: RedisLockException, parent: RuntimeException
file and line: true
trace: RedisMutexLock::lock
mine 7
