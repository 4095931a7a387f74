--TEST--
strict_types=1: no coercion, PHP's own TypeError; int is still accepted for float
--FILE--
<?php
declare(strict_types=1);
require __DIR__ . '/inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

foreach ([
    fn () => RedisMutexLock::lock(1),
    fn () => RedisMutexLock::lock(null),
    fn () => RedisMutexLock::lock('k', '1'),
    fn () => RedisMutexLock::lock('k', 0, 1.0),
    fn () => RedisMutexLock::lock('k', 0, '5'),
    fn () => RedisMutexLock::lock('k', 0, 20, 1.0),
    fn () => RedisMutexLock::lock('k', false),
    fn () => RedisMutexLock::release(1),
    fn () => RedisMutexLock::release(null),
] as $call) {
    echo rl_show(rl_timed($call)[0]), "\n";
}
echo "keys: ", json_encode($redis->keys()), "\n";
var_dump(RedisMutexLock::lock('k', 1));             // int for float: allowed
var_dump(RedisMutexLock::release('k'));
?>
--EXPECT--
TypeError: RedisMutexLock::lock(): Argument #1 ($key) must be of type string, int given
TypeError: RedisMutexLock::lock(): Argument #1 ($key) must be of type string, null given
TypeError: RedisMutexLock::lock(): Argument #2 ($timeout) must be of type float, string given
TypeError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be of type int, float given
TypeError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be of type int, string given
TypeError: RedisMutexLock::lock(): Argument #4 ($sleep) must be of type int, float given
TypeError: RedisMutexLock::lock(): Argument #2 ($timeout) must be of type float, bool given
TypeError: RedisMutexLock::release(): Argument #1 ($key) must be of type string, int given
TypeError: RedisMutexLock::release(): Argument #1 ($key) must be of type string, null given
keys: []
bool(true)
bool(true)
