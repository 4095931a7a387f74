--TEST--
Audit, other clients: CLIENT PAUSE 1500 WRITE while a holder releases and a waiter waits (mutex, read/write lock, semaphore). With redis_lock.read_timeout 3 the release waits the pause out and hands the lock on; with the default 1 s it throws a readable RedisLockException ("no reply within 1 s"), the lock stays registered, and a second release after the pause answers true (it had not run) or false (it ran once the pause ended: the waiter got the lock). Never two holders, no waiter past its timeout + 1.5 s, no key left without a TTL
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$pause = function (RedisServer $redis): array {
    $redis->cmd('CLIENT', 'PAUSE', 1500, 'WRITE');
    return [];
};
$i = 0;
foreach (['3', '1'] as $readTimeout) {
    ini_set('redis_lock.read_timeout', $readTimeout);
    foreach (['mutex' => ['m', 'm'], 'rwlock' => ['w', 'r'], 'semaphore' => ['s', 's']] as $kind => [$hk, $wk]) {
        $key = 'pw' . $i++;
        $r = rl_audit_scenario($redis, $book, $key, $hk, $wk, $pause, ['timeout' => 2.5, 'settle' => 0.1]);
        echo rl_audit_line("read_timeout $readTimeout, $kind", $r, true), "\n";
        echo '  left: ', json_encode(rl_audit_keys_of($redis, $key)), "\n";
        $redis->cmd('CLIENT', 'UNPAUSE');
    }
}
?>
--EXPECTF--
read_timeout 3, mutex: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
read_timeout 3, rwlock: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
read_timeout 3, semaphore: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
read_timeout 1, mutex: release RedisLockException, again %r(true|false)%r, waiter %r(true|false)%r, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: no reply within 1 s
  left: []
read_timeout 1, rwlock: release RedisLockException, again %r(true|false)%r, waiter %r(true|false)%r, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: no reply within 1 s
  left: []
read_timeout 1, semaphore: release RedisLockException, again %r(true|false)%r, waiter %r(true|false)%r, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: no reply within 1 s
  left: []
