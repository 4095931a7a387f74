--TEST--
Scopes keep the rules of fork and nested holds: a pcntl_fork() child starts with no scope open (its endScope() ends nothing and never releases its parent's locks) and its own scopes release only its own locks; a lock taken before a scope and taken again inside it is not the scope's (it stays held, with both holds); a lock re-taken after a scope released it belongs to the scope open then
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$scope = RedisLock::beginScope();
var_dump(RedisMutexLock::lock('parent', 0, 30));
$pid = pcntl_fork();
if ($pid === 0) {
    $r = RedisLock::endScope();
    $mine = RedisLock::beginScope();
    $got = RedisMutexLock::lock('child', 0, 30);
    $ended = RedisLock::endScope($mine);
    echo json_encode(['child ended nothing of its parent' => $r, 'child took its own' => $got, 'child ended its own' => $ended]), "\n";
    exit(0);
}
pcntl_waitpid($pid, $status);
echo "child exit: ", pcntl_wexitstatus($status), "\n";
echo "parent's lock still held: ", json_encode(RedisMutexLock::inspect('parent')['held']), "\n";
echo "child's lock gone: ", json_encode($redis->cmd('EXISTS', 'lock:child')), "\n";
echo "parent ends its scope: ", json_encode(RedisLock::endScope($scope)), "\n";

// Nested holds: the lock belongs to the scope it was first taken in.
var_dump(RedisMutexLock::lock('outer', 0, 30));
$s = RedisLock::beginScope();
var_dump(RedisMutexLock::lock('outer', 0, 30));
echo "ended: ", json_encode(RedisLock::endScope($s)), "\n";
$seen = RedisMutexLock::inspect('outer');
echo "still held: ", json_encode($seen['held']), ", holds: ", $seen['count'], "\n";
var_dump(RedisMutexLock::release('outer'), RedisMutexLock::release('outer'));

$s = RedisLock::beginScope();
var_dump(RedisMutexLock::lock('again', 0, 30), RedisMutexLock::release('again'), RedisMutexLock::lock('again', 0, 30));
echo "ended: ", json_encode(RedisLock::endScope($s)), "\n";
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
{"child ended nothing of its parent":{"keys":[],"failed":0,"owner_locks":0},"child took its own":true,"child ended its own":{"keys":["lock:child"],"failed":0,"owner_locks":0}}
child exit: 0
parent's lock still held: true
child's lock gone: 0
parent ends its scope: {"keys":["lock:parent"],"failed":0,"owner_locks":0}
bool(true)
bool(true)
ended: {"keys":[],"failed":0,"owner_locks":0}
still held: true, holds: 2
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
ended: {"keys":["lock:again"],"failed":0,"owner_locks":0}
keys: []
