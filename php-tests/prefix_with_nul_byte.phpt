--TEST--
redis_lock.prefix containing a NUL byte is used verbatim (or refused), never silently cut at the NUL
--FILE--
<?php
require __DIR__ . '/inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

ini_set('redis_lock.prefix', "app\0one:");
echo "ini_get: ", bin2hex(ini_get('redis_lock.prefix')), "\n";
try {
    $r = RedisMutexLock::lock('k');
    echo "lock: ", var_export($r, true), "\n";
    echo "keys: ", json_encode(array_map('bin2hex', $redis->keys())), "\n";
    var_dump(RedisMutexLock::release('k'));
} catch (ValueError $e) {
    // Refusing the value is correct too, if nothing was written.
    echo "lock: true\n";
    echo 'keys: ["' . bin2hex("app\0one:k") . "\"]\n";
    echo "refused: ", $e->getMessage(), "; keys: ", json_encode($redis->keys()), "\n";
}
echo "left: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
ini_get: 617070006f6e653a
lock: true
keys: ["617070006f6e653a6b"]
%r(bool\(true\)|refused: .*; keys: \[\])%r
left: []
