--TEST--
Audit, other clients: a semaphore's key or queue keys ({H}:sq, :st, :sw:<token>, :sg) retyped, deleted, PERSISTed or expired while its one permit is held and a waiter waits: a readable RedisLockException or a recovery, never more holders than the limit the lock did not see taken away, no waiter past its timeout + 1.5 s, no key of ours left without a TTL
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
rl_audit_shared_attacks($redis, $book, 's', 's', 1, 'sem');
?>
--EXPECTF--
H as a string: release RedisLockException, again false, waiter RedisLockException, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the key is held as a mutex, not as a shared lock
  waiter: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the key is held as a mutex, not as a shared lock
  left: []
sq as a string: release RedisLockException, again true, waiter RedisLockException, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: error reply: WRONGTYPE %s
  waiter: Redis at 127.0.0.1:P1: error reply: WRONGTYPE %s
  left: []
st as a string: release RedisLockException, again true, waiter RedisLockException, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: error reply: WRONGTYPE its waiters' places is a string, not what the lock keeps there
  waiter: Redis at 127.0.0.1:P1: error reply: WRONGTYPE its waiters' places is a string, not what the lock keeps there
  left: []
sw:<waiter> as a string: release true, again -, waiter RedisLockException, late no, overlaps none, keys without TTL none
  waiter: Redis at 127.0.0.1:P1: error reply: WRONGTYPE its wake-up list is a string, not what the lock keeps there
  left: []
sg created: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
DEL sq st: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
PERSIST H sq st: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
PEXPIRE sq st 1: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
DEL H: release false, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
