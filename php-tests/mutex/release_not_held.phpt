--TEST--
RedisMutexLock::release(): false for a key this process does not hold; the holder's key and value stay untouched
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

// Never locked, nothing in Redis.
var_dump(RedisMutexLock::release('never'));

// Held by another owner (a foreign token): release() is false and touches nothing.
$redis->cmd('SET', 'lock:foreign', 'someone-elses-token', 'PX', 60000);
var_dump(RedisMutexLock::release('foreign'));
var_dump($redis->cmd('GET', 'lock:foreign'));
$pttl = $redis->cmd('PTTL', 'lock:foreign');
echo "ttl kept: ", var_export($pttl > 55000 && $pttl <= 60000, true), "\n";

// Held by another PHP process (which keeps it past its end): our release() is false.
$r = PhpChild::run('<?php var_dump(RedisMutexLock::lock("shared", 0, 60));', [
    'redis_lock.server' => $redis->dsn(),
    'redis_lock.release_on_shutdown' => '0',
]);
echo $r['out'], $r['err'];
$theirs = $redis->cmd('GET', 'lock:shared');
var_dump(RedisMutexLock::release('shared'));
echo "their token kept: ", var_export(rl_is_token($theirs) && $redis->cmd('GET', 'lock:shared') === $theirs, true), "\n";
$pttl = $redis->cmd('PTTL', 'lock:shared');
echo "their ttl kept: ", var_export($pttl > 55000 && $pttl <= 60000, true), "\n";

// A process that holds a key cannot release it on behalf of another process either.
$r = PhpChild::run('<?php var_dump(RedisMutexLock::release("shared"));', ['redis_lock.server' => $redis->dsn()]);
echo $r['out'], $r['err'];
echo "their token still kept: ", var_export($redis->cmd('GET', 'lock:shared') === $theirs, true), "\n";

// Our own lock, released twice: true then false.
var_dump(RedisMutexLock::lock('own'));
var_dump(RedisMutexLock::release('own'));
var_dump(RedisMutexLock::release('own'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(false)
bool(false)
string(19) "someone-elses-token"
ttl kept: true
bool(true)
bool(false)
their token kept: true
their ttl kept: true
bool(false)
their token still kept: true
bool(true)
bool(true)
bool(false)
keys: ["lock:foreign","lock:shared"]
