--TEST--
RedisMutexLock: a lock this process took for an owner token (acquire(), as the adapters do) is the owner's, as with the shared locks: inspect() does not call it held by this process, release() and extend() leave it alone (false), releaseOwner() gives it back; a lock() afterwards is the process' own again
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$r = RedisServer::start();
ini_set('redis_lock.server', $r->dsn());
$o = RedisMutexLock::newOwner();
echo 'acquire: ', json_encode(RedisMutexLock::acquire('k', $o, 5000)), "\n";
$i = RedisMutexLock::inspect('k');
echo 'inspect: ', json_encode(['held' => $i['held'], 'count' => $i['count'], 'holder' => $i['holder'] !== null]), "\n";
echo 'release: ', json_encode(RedisMutexLock::release('k')), ', extend: ', json_encode(RedisMutexLock::extend('k', 9)), "\n";
echo 'owner still: ', json_encode(RedisMutexLock::owner('k') === $o), ', TTL unchanged: ', json_encode($r->cmd('PTTL', 'lock:k') <= 5000), "\n";
echo 'releaseOwner: ', json_encode(RedisMutexLock::releaseOwner('k', $o)), "\n";
echo 'lock: ', json_encode(RedisMutexLock::lock('k')), "\n";
$i = RedisMutexLock::inspect('k');
echo 'inspect: ', json_encode(['held' => $i['held'], 'count' => $i['count']]), "\n";
echo 'release: ', json_encode(RedisMutexLock::release('k')), ', keys: ', json_encode($r->keys()), "\n";
?>
--EXPECT--
acquire: true
inspect: {"held":false,"count":0,"holder":true}
release: false, extend: false
owner still: true, TTL unchanged: true
releaseOwner: true
lock: true
inspect: {"held":true,"count":1}
release: true, keys: []
