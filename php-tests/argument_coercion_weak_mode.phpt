--TEST--
Weak mode: scalar arguments are coerced as for PHP's own functions (with PHP's own deprecations); null is a TypeError
--FILE--
<?php
require __DIR__ . '/inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

var_dump(RedisMutexLock::lock(123));                 // key "123"
var_dump(RedisMutexLock::lock(1.5));                 // key "1.5"
var_dump(RedisMutexLock::lock(true));                // key "1"
var_dump(RedisMutexLock::lock(new class { public function __toString(): string { return 'obj'; } }));
var_dump(RedisMutexLock::lock('str-timeout', '0.5'));
var_dump(RedisMutexLock::lock('str-ttl', 0, '7'));
var_dump(RedisMutexLock::lock('float-ttl', 0, 9.0));
var_dump(RedisMutexLock::lock('bool-ttl', 0, true));
var_dump(RedisMutexLock::lock('fractional-ttl', 0, 5.5));
echo "keys: ", json_encode($redis->keys()), "\n";
foreach (['str-ttl' => 7000, 'float-ttl' => 9000, 'bool-ttl' => 1000, 'fractional-ttl' => 5000] as $k => $ms) {
    $pttl = $redis->cmd('PTTL', "lock:$k");
    echo "$k: ttl ", var_export($pttl > $ms - 1000 && $pttl <= $ms, true), "\n";
}
// null is refused even in weak mode (as for user functions, and PHP 9's internal ones).
foreach ([fn () => RedisMutexLock::lock(null), fn () => RedisMutexLock::release(null)] as $call) {
    echo rl_show(rl_timed($call)[0]), "\n";
}
var_dump(RedisMutexLock::release(123));
var_dump(RedisMutexLock::release(1.5));
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)

Deprecated: Implicit conversion from float 5.5 to int loses precision in %s on line %d
bool(true)
keys: ["lock:1","lock:1.5","lock:123","lock:bool-ttl","lock:float-ttl","lock:fractional-ttl","lock:obj","lock:str-timeout","lock:str-ttl"]
str-ttl: ttl true
float-ttl: ttl true
bool-ttl: ttl true
fractional-ttl: ttl true
TypeError: RedisMutexLock::lock(): Argument #1 ($key) must be of type string, null given
TypeError: RedisMutexLock::release(): Argument #1 ($key) must be of type string, null given
bool(true)
bool(true)
