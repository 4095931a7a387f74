--TEST--
Audit, other clients: a mutex's lock key or queue keys deleted, PERSISTed or given a short TTL while the lock is held and a waiter waits: the queue recovers (the waiter gets the lock once released, in time), a holder whose key was deleted is told (release() false), no key of ours left without a TTL
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$attacks = [
    'DEL q' => [['q'], 'DEL'],
    'DEL t' => [['t'], 'DEL'],
    'DEL q t n' => [['q', 't', 'n'], 'DEL'],
    'PERSIST K' => [['K'], 'PERSIST'],
    'PERSIST q t' => [['q', 't'], 'PERSIST'],
    'PEXPIRE q t 1' => [['q', 't'], 'PEXPIRE'],
    'DEL K' => [['K'], 'DEL'],
    'PEXPIRE K 1' => [['K'], 'PEXPIRE'],
];
$i = 0;
foreach ($attacks as $name => [$parts, $cmd]) {
    $key = 'dp' . $i++;
    $keys = rl_audit_keys($key);
    $r = rl_audit_scenario($redis, $book, $key, 'm', 'm', function (RedisServer $redis) use ($parts, $cmd, $keys) {
        foreach ($parts as $p) {
            $cmd === 'PEXPIRE' ? $redis->cmd('PEXPIRE', $keys[$p], 1) : $redis->cmd($cmd, $keys[$p]);
        }
        return [];
    }, ['lost' => in_array('K', $parts, true) && $cmd !== 'PERSIST']);
    echo rl_audit_line($name, $r, true), "\n";
    // Once everybody is gone, nothing is left (PERSISTed keys included: our scripts set their TTL again or delete them).
    echo '  left: ', json_encode(rl_audit_keys_of($redis, $key)), "\n";
}
?>
--EXPECT--
DEL q: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
DEL t: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
DEL q t n: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
PERSIST K: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
PERSIST q t: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
PEXPIRE q t 1: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
DEL K: release false, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
PEXPIRE K 1: release false, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
