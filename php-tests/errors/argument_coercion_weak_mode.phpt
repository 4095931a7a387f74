--TEST--
Weak mode: scalar arguments are coerced as for PHP's own functions (with PHP's own deprecations), null included, for every parameter of both classes
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
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
// null for a scalar parameter: PHP 8.2's deprecation, then coerced ("", 0, 0.0)
// and judged as that value; null for an array parameter is a TypeError.
$servers = [['127.0.0.1', $redis->port]];
$rl = new RedLock($servers);
$held = $rl->lock('held', 10000);
foreach ([
    'lock key' => fn () => RedisMutexLock::lock(null),
    'lock timeout' => fn () => RedisMutexLock::lock('null-timeout', null),
    'lock lockSecond' => fn () => RedisMutexLock::lock('null-ttl', 0, null),
    'lock sleep' => fn () => RedisMutexLock::lock('null-sleep', 0, 20, null),
    'release key' => fn () => RedisMutexLock::release(null),
    'new servers' => fn () => new RedLock(null),
    'new retryDelay' => fn () => get_class(new RedLock($servers, null)),
    'new retryCount' => fn () => new RedLock($servers, 200, null),
    'lock resource' => fn () => $rl->lock(null, 1000),
    'lock ttl' => fn () => $rl->lock('null-ttl', null),
    'unlock lock' => fn () => $rl->unlock(null),
    'extend lock' => fn () => $rl->extend(null, 1000),
    'extend ttl' => fn () => $rl->extend($held, null),
] as $what => $call) {
    $shown = rl_show(rl_timed($call)[0]);
    echo "$what: $shown\n";
}
var_dump($rl->unlock($held));
echo "keys: ", json_encode($redis->keys()), "\n";
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

Deprecated: RedisMutexLock::lock(): Passing null to parameter #1 ($key) of type string is deprecated in %s on line %d
lock key: ValueError: RedisMutexLock::lock(): Argument #1 ($key) must not be empty

Deprecated: RedisMutexLock::lock(): Passing null to parameter #2 ($timeout) of type float is deprecated in %s on line %d
lock timeout: true

Deprecated: RedisMutexLock::lock(): Passing null to parameter #3 ($lockSecond) of type int is deprecated in %s on line %d
lock lockSecond: ValueError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387

Deprecated: RedisMutexLock::lock(): Passing null to parameter #4 ($sleep) of type int is deprecated in %s on line %d
lock sleep: true

Deprecated: RedisMutexLock::release(): Passing null to parameter #1 ($key) of type string is deprecated in %s on line %d
release key: ValueError: RedisMutexLock::release(): Argument #1 ($key) must not be empty
new servers: TypeError: RedLock::__construct(): Argument #1 ($servers) must be of type array, null given

Deprecated: RedLock::__construct(): Passing null to parameter #2 ($retryDelay) of type int is deprecated in %s on line %d
new retryDelay: 'RedLock'

Deprecated: RedLock::__construct(): Passing null to parameter #3 ($retryCount) of type int is deprecated in %s on line %d
new retryCount: ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 1 and 4294967295

Deprecated: RedLock::lock(): Passing null to parameter #1 ($resource) of type string is deprecated in %s on line %d
lock resource: ValueError: RedLock::lock(): Argument #1 ($resource) must not be empty

Deprecated: RedLock::lock(): Passing null to parameter #2 ($ttl) of type int is deprecated in %s on line %d
lock ttl: ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
unlock lock: TypeError: RedLock::unlock(): Argument #1 ($lock) must be of type array, null given
extend lock: TypeError: RedLock::extend(): Argument #1 ($lock) must be of type array, null given

Deprecated: RedLock::extend(): Passing null to parameter #2 ($ttl) of type int is deprecated in %s on line %d
extend ttl: ValueError: RedLock::extend(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
bool(true)
keys: ["lock:1","lock:1.5","lock:123","lock:bool-ttl","lock:float-ttl","lock:fractional-ttl","lock:null-sleep","lock:null-timeout","lock:obj","lock:str-timeout","lock:str-ttl"]
bool(true)
bool(true)
