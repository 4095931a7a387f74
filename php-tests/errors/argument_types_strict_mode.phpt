--TEST--
strict_types=1: no coercion, PHP's own TypeError (null included, for every parameter of both classes); int is still accepted for float
--FILE--
<?php
declare(strict_types=1);
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$servers = [['127.0.0.1', $redis->port]];
$rl = new RedLock($servers);

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
    fn () => RedisMutexLock::lock('k', null),
    fn () => RedisMutexLock::lock('k', 0, null),
    fn () => RedisMutexLock::lock('k', 0, 20, null),
    fn () => new RedLock(null),
    fn () => new RedLock($servers, null),
    fn () => new RedLock($servers, 200, null),
    fn () => new RedLock($servers, '200'),
    fn () => new RedLock($servers, 200, 3.0),
    fn () => $rl->lock(null, 1000),
    fn () => $rl->lock(1, 1000),
    fn () => $rl->lock('k', null),
    fn () => $rl->lock('k', 1000.0),
    fn () => $rl->unlock(null),
    fn () => $rl->extend(null, 1000),
    fn () => $rl->extend(['resource' => 'k', 'token' => 't'], null),
    fn () => $rl->extend(['resource' => 'k', 'token' => 't'], '1000'),
] as $call) {
    // PHP 8.3+ names a bool by its value ("false given"), 8.2 by its type.
    echo preg_replace('/, (true|false) given$/', ', bool given', rl_show(rl_timed($call)[0])), "\n";
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
TypeError: RedisMutexLock::lock(): Argument #2 ($timeout) must be of type float, null given
TypeError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be of type int, null given
TypeError: RedisMutexLock::lock(): Argument #4 ($sleep) must be of type int, null given
TypeError: RedLock::__construct(): Argument #1 ($servers) must be of type array, null given
TypeError: RedLock::__construct(): Argument #2 ($retryDelay) must be of type int, null given
TypeError: RedLock::__construct(): Argument #3 ($retryCount) must be of type int, null given
TypeError: RedLock::__construct(): Argument #2 ($retryDelay) must be of type int, string given
TypeError: RedLock::__construct(): Argument #3 ($retryCount) must be of type int, float given
TypeError: RedLock::lock(): Argument #1 ($resource) must be of type string, null given
TypeError: RedLock::lock(): Argument #1 ($resource) must be of type string, int given
TypeError: RedLock::lock(): Argument #2 ($ttl) must be of type int, null given
TypeError: RedLock::lock(): Argument #2 ($ttl) must be of type int, float given
TypeError: RedLock::unlock(): Argument #1 ($lock) must be of type array, null given
TypeError: RedLock::extend(): Argument #1 ($lock) must be of type array, null given
TypeError: RedLock::extend(): Argument #2 ($ttl) must be of type int, null given
TypeError: RedLock::extend(): Argument #2 ($ttl) must be of type int, string given
keys: []
bool(true)
bool(true)
