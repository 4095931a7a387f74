--TEST--
redis_lock.prefix containing a NUL byte is used verbatim, not cut at the NUL
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

ini_set('redis_lock.prefix', "app\0one:");
echo "ini_get: ", bin2hex(ini_get('redis_lock.prefix')), "\n";
var_dump(RedisMutexLock::lock('k'));
echo "keys: ", json_encode(array_map('bin2hex', $redis->keys())), "\n";
// Another prefix that differs only after the NUL is another lock.
ini_set('redis_lock.prefix', "app\0two:");
var_dump(RedisMutexLock::lock('k'));
var_dump(RedisMutexLock::release('k'));
ini_set('redis_lock.prefix', "app\0one:");
var_dump(RedisMutexLock::release('k'));
echo "left: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
ini_get: 617070006f6e653a
bool(true)
keys: ["617070006f6e653a6b"]
bool(true)
bool(true)
bool(true)
left: []
