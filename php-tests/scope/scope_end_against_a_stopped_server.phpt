--TEST--
RedisLock::endScope() against a frozen server (SIGSTOP) returns within one read timeout and reports the lock it could not release as failed (never an exception: a worker's unit of work ends whatever Redis does); the scope is closed all the same and the process forgets the lock: it ends with its TTL, or with the release the frozen server may still run when it resumes (owner-checked: never anybody else's), and the next endScope() ends nothing
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--INI--
redis_lock.read_timeout=0.5
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$s = RedisLock::beginScope();
var_dump(RedisMutexLock::lock('k', 0, 30));
$token = $redis->cmd('GET', 'lock:k');
$redis->pause();
$t = rl_now();
$r = RedisLock::endScope($s);
$took = rl_now() - $t;
$redis->resume();
echo "ended: ", json_encode($r), "\n";
printf("returned within the read timeout (0.5 s, + 1 s): %s\n", var_export($took < 1.5, true));
// The release sent before the timeout may run when the server resumes: the key
// is then gone; else it still holds our token, with its TTL.
$value = $redis->cmd('GET', 'lock:k');
$ttl = $redis->cmd('PTTL', 'lock:k');
echo "the lock ends with its TTL or the late release: ", var_export($value === null || ($value === $token && ($ttl === -2 || ($ttl > 0 && $ttl <= 30000))), true), "\n";
echo "not ours to release any more: ", rl_show(RedisMutexLock::release('k')), "\n";
echo "again: ", json_encode(RedisLock::endScope()), "\n";
?>
--EXPECT--
bool(true)
ended: {"keys":["lock:k"],"failed":1,"owner_locks":0}
returned within the read timeout (0.5 s, + 1 s): true
the lock ends with its TTL or the late release: true
not ours to release any more: false
again: {"keys":[],"failed":0,"owner_locks":0}
