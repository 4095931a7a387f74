--TEST--
Audit, other clients: a mutex's lock key or queue keys ({K}:q, :t, :n, :w:<token>) overwritten with a value of the wrong type while the lock is held and a waiter waits: a readable RedisLockException or a recovery (a lock key of another type is another client's lock: the holder's release is false, the waiter times out), never two holders, no waiter past its timeout + 1.5 s, no key of ours left without a TTL
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$attacks = [
    // name => [key part, how]
    'q as a string' => ['q', fn ($r, $k) => $r->cmd('SET', $k, 'attacker')],
    't as a string' => ['t', fn ($r, $k) => $r->cmd('SET', $k, 'attacker')],
    'n as a hash' => ['n', fn ($r, $k) => $r->cmd('HSET', $k, 'f', 'attacker')],
    'w:<waiter> as a string' => ['w', fn ($r, $k) => $r->cmd('SET', $k, 'attacker')],
    'K as a hash' => ['K', fn ($r, $k) => [$r->cmd('DEL', $k), $r->cmd('HSET', $k, 'f', 'attacker')]],
    'K as another value' => ['K', fn ($r, $k) => $r->cmd('SET', $k, 'attacker-owner')],
];
$i = 0;
foreach ($attacks as $name => [$part, $how]) {
    $key = 'wt' . $i++;
    $keys = rl_audit_keys($key);
    $target = null;
    $r = rl_audit_scenario($redis, $book, $key, 'm', 'm', function (RedisServer $redis) use ($part, $how, $keys, $key, &$target) {
        $target = $part === 'w' ? $keys['w'] . rl_queue_tokens($redis, $keys['K'])[0] : $keys[$part];
        $how($redis, $target);
        return [$target];
    }, ['cleanup' => function (RedisServer $redis) use (&$target) { $redis->cmd('DEL', $target); }]);
    echo rl_audit_line($name, $r, true), "\n";
    // Once the attacker's value is gone and everybody is done, nothing of ours holds the lock.
    echo '  left: ', json_encode($r['keys']), "\n";
}
?>
--EXPECTF--
q as a string: release RedisLockException, again true, waiter RedisLockException, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: error reply: %r(WRONGTYPE [^;]*|ERR Key should be of string type if conditions are specified)%r
  waiter: Redis at 127.0.0.1:P1: error reply: %r(WRONGTYPE [^;]*|ERR Key should be of string type if conditions are specified)%r
  left: []
t as a string: release RedisLockException, again true, waiter RedisLockException, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: error reply: %r(WRONGTYPE [^;]*|ERR Key should be of string type if conditions are specified)%r
  waiter: Redis at 127.0.0.1:P1: error reply: %r(WRONGTYPE [^;]*|ERR Key should be of string type if conditions are specified)%r
  left: []
n as a hash: release RedisLockException, again %r(true|false)%r, waiter RedisLockException, late no, overlaps none, keys without TTL none
  release: RedisLockException: Redis at 127.0.0.1:P1: error reply: %r(WRONGTYPE [^;]*|ERR Key should be of string type if conditions are specified)%r
  waiter: Redis at 127.0.0.1:P1: error reply: %r(WRONGTYPE [^;]*|ERR Key should be of string type if conditions are specified)%r
  left: []
w:<waiter> as a string: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
K as a hash: release false, again -, waiter false, late no, overlaps none, keys without TTL none
  left: []
K as another value: release false, again -, waiter false, late no, overlaps none, keys without TTL none
  left: []
