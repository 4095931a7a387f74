--TEST--
pcntl_fork(): the child's end (release_on_shutdown on) does not release the parent's locks; the parent still can
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
echo "release_on_shutdown: ", ini_get('redis_lock.release_on_shutdown'), "\n";

var_dump(RedisMutexLock::lock('batch', 0, 30));
$token = $redis->cmd('GET', 'lock:batch');

// A child that does nothing with locks, one that takes (and leaves) its own lock,
// and one that ends with an uncaught exception.
$pids = [
    rl_fork(fn () => 0),
    rl_fork(fn () => RedisMutexLock::lock('child-own', 0, 30) ? 0 : 1),
    rl_fork(function () {
        ini_set('display_errors', '0');
        ini_set('log_errors', '0');
        RedisMutexLock::lock('child-own-2', 0, 30);
        throw new LogicException('child dies');
    }, catch: false),
];
echo "children's exit codes: ", json_encode(array_map('rl_wait', $pids)), "\n";
echo "parent's key: ", var_export($redis->cmd('GET', 'lock:batch') === $token, true), "\n";
$pttl = $redis->cmd('PTTL', 'lock:batch');
echo "parent's ttl: ", var_export($pttl > 25000 && $pttl <= 30000, true), "\n";
// Each child released its own lock at its end.
echo "keys: ", json_encode($redis->keys()), "\n";
var_dump(RedisMutexLock::release('batch'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
release_on_shutdown: 1
bool(true)
children's exit codes: [0,0,255]
parent's key: true
parent's ttl: true
keys: ["lock:batch"]
bool(true)
keys: []
