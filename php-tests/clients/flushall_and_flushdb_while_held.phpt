--TEST--
Audit, other clients: FLUSHALL / FLUSHDB / FLUSHALL ASYNC while a lock is held and waited on (mutex, read/write lock, semaphore), and on RedLock's nodes: the holder is told (release()/unlock()/extend() false, or RedisLockLostException once a renewal saw it), the waiter takes the lock within its timeout, no key left without a TTL
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

foreach ([
    'mutex, FLUSHALL' => ['m', 'm', ['FLUSHALL']],
    'mutex, FLUSHDB' => ['m', 'm', ['FLUSHDB']],
    'rwlock, FLUSHALL' => ['w', 'r', ['FLUSHALL']],
    'rwlock, FLUSHDB' => ['w', 'w', ['FLUSHDB']],
    'semaphore, FLUSHALL ASYNC' => ['s', 's', ['FLUSHALL', 'ASYNC']],
] as $name => [$hk, $wk, $cmd]) {
    $key = 'fl' . $hk . $cmd[0][5];
    $r = rl_audit_scenario($redis, $book, $key, $hk, $wk, function (RedisServer $redis) use ($cmd): array { $redis->cmd(...$cmd); return []; }, ['lost' => true, 'timeout' => 2.0]);
    echo rl_audit_line($name, $r, true), "\n";
    echo '  left: ', json_encode(rl_audit_keys_of($redis, $key)), "\n";
}

// A renewed lock: its next renewal finds it gone, release() says it was lost.
ini_set('redis_lock.auto_renew', '1');
var_dump(RedisMutexLock::lock('renewed', 0, 1));
$redis->cmd('FLUSHALL');
rl_eventually(fn () => RedisMutexLock::inspect('renewed')['lost'], true, 3.0); // a renewal every 333 ms
echo 'inspect lost: ', var_export(RedisMutexLock::inspect('renewed')['lost'], true), "\n";
echo rl_lost(rl_timed(fn () => RedisMutexLock::release('renewed'))[0], 'RedisMutexLock::release()', 'renewed', 'another owner took it or it expired'), "\n";
var_dump(RedisReadWriteLock::lockRead('renewed-rw', 0, 1));
$redis->cmd('FLUSHALL');
rl_eventually(fn () => RedisReadWriteLock::inspect('renewed-rw')['lost'], true, 3.0);
echo rl_lost(rl_timed(fn () => RedisReadWriteLock::release('renewed-rw'))[0], 'RedisReadWriteLock::release()', 'renewed-rw', 'another owner took it or it expired'), "\n";
ini_set('redis_lock.auto_renew', '0');
echo 'keys: ', json_encode($redis->keys()), "\n";

// RedLock over 3 nodes.
$nodes = rl_start_servers(3);
$rl = new RedLock(rl_redlock_list($nodes), 50, 1);
$flush = fn (array $which) => array_map(fn ($s) => $s->cmd('FLUSHALL'), $which);
$lock = $rl->lock('res', 10000);
$flush($nodes);
echo 'all flushed: extend ', rl_audit_msg(rl_timed(fn () => $rl->extend($lock, 10000))[0], $nodes), ', unlock ', rl_audit_msg(rl_timed(fn () => $rl->unlock($lock))[0], $nodes), "\n";
$lock = $rl->lock('res', 10000);
$flush([$nodes[0], $nodes[1]]);
echo 'a majority flushed: extend ', rl_audit_msg(rl_timed(fn () => $rl->extend($lock, 10000))[0], $nodes), ', unlock ', rl_audit_msg(rl_timed(fn () => $rl->unlock($lock))[0], $nodes), "\n";
$lock = $rl->lock('res', 10000);
$flush([$nodes[2]]);
$ext = rl_timed(fn () => $rl->extend($lock, 10000))[0];
echo 'one flushed: extend ', is_array($ext) ? 'array' : rl_audit_msg($ext, $nodes), ', unlock ', rl_audit_msg(rl_timed(fn () => $rl->unlock(is_array($ext) ? $ext : $lock))[0], $nodes), "\n";
$lock = $rl->lock('res', 10000);
echo 'lock again: ', is_array($lock) ? 'array' : var_export($lock, true), ', unlock ', var_export($rl->unlock($lock), true), "\n";
echo 'nodes: ', rl_eventually(fn () => rl_all_keys($nodes), '[] [] []'), "\n";
?>
--EXPECT--
mutex, FLUSHALL: release false, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
mutex, FLUSHDB: release false, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
rwlock, FLUSHALL: release false, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
rwlock, FLUSHDB: release false, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
semaphore, FLUSHALL ASYNC: release false, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
bool(true)
inspect lost: true
RedisLockLostException: RedisMutexLock::release(): the lock on "renewed" was lost: …another owner took it or it expired…
bool(true)
RedisLockLostException: RedisReadWriteLock::release(): the lock on "renewed-rw" was lost: …another owner took it or it expired…
keys: []
all flushed: extend false, unlock false
a majority flushed: extend false, unlock false
one flushed: extend array, unlock true
lock again: array, unlock true
nodes: [] [] []
