--TEST--
Audit, other clients: CLIENT KILL of our connections (TYPE normal: the idle holder's and the blocked waiter's; ADDR: the blocked waiter's) for a mutex, a read/write lock and a semaphore; CLIENT KILL storms under contention; RedLock's connections killed between lock and unlock: the connection is replaced, the waiter still gets the lock in time, never two holders, any exception readable, no key left without a TTL
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$killNormal = function (RedisServer $redis): array {
    $redis->cmd('CLIENT', 'KILL', 'TYPE', 'normal'); // SKIPME yes: not the attacker's own connection
    return [];
};
$killBlocked = function (RedisServer $redis): array {
    $n = 0;
    foreach (explode("\n", trim($redis->cmd('CLIENT', 'LIST'))) as $line) {
        if (preg_match('/\baddr=(\S+).*\bcmd=blpop\b/', $line, $m)) {
            $n += (int) $redis->cmd('CLIENT', 'KILL', 'ADDR', $m[1]); // the number of connections killed
        }
    }
    if ($n !== 1) {
        echo "  (killed $n blocked connections, expected 1)\n";
    }
    return [];
};
$i = 0;
foreach (['mutex' => ['m', 'm'], 'rwlock' => ['w', 'r'], 'semaphore' => ['s', 's']] as $kind => [$hk, $wk]) {
    foreach (['TYPE normal' => $killNormal, 'ADDR of the blocked waiter' => $killBlocked] as $how => $attack) {
        $key = 'ck' . $i++;
        $r = rl_audit_scenario($redis, $book, $key, $hk, $wk, $attack, ['timeout' => 2.0]);
        echo rl_audit_line("$kind, $how", $r, true), "\n";
        echo '  left: ', json_encode(rl_audit_keys_of($redis, $key)), "\n";
    }
}

// A storm: every normal connection killed every 20 ms for 2.5 s while 3 processes contend for each kind.
$book->cmd('FLUSHALL');
$o = ['timeout' => 4.0, 'lease' => 10, 'sleep' => 200000, 'hold' => 0.01];
$procs = array_merge(
    rl_audit_workers($book, 'km', 'm', 3, ['kind' => 'm'] + $o),
    rl_audit_workers($book, 'krw', 'w', 2, ['kind' => 'w'] + $o),
    rl_audit_workers($book, 'krw', 'r', 1, ['kind' => 'r'] + $o),
    rl_audit_workers($book, 'ksem', 's', 3, ['kind' => 's', 'limit' => 2] + $o),
);
rl_sleep(0.3);
$end = rl_now() + 2.5;
$kills = 0;
while (rl_now() < $end) {
    $kills += (int) $redis->cmd('CLIENT', 'KILL', 'TYPE', 'normal');
    rl_sleep(0.02);
}
// After the storm the locks go on: more than 10 sections within 5 s.
$before = (int) $book->cmd('GET', 'sections');
rl_audit_until(fn () => (int) $book->cmd('GET', 'sections') - $before > 10, 5.0);
$after = (int) $book->cmd('GET', 'sections');
echo 'storm: exit codes ', rl_audit_stop($book, $procs), ', connections killed: ', $kills > 50 ? 'many' : "only $kills", "\n";
$rep = rl_audit_calls_report($book, [$redis]);
echo 'overlaps: ', rl_audit_overlaps($book, ['ksem' => 2]), "\n";
echo 'sections after the storm: ', $after - $before > 10 ? 'many' : 'only ' . ($after - $before), "\n";
$classes = array_unique(array_merge(array_keys($rep['takes']), array_keys($rep['releases'])));
echo 'outcomes other than true, false, RedisLockException: ', json_encode(array_values(array_diff($classes, ['true', 'false', 'RedisLockException']))), "\n";
echo 'late: ', json_encode($rep['late']), "\n";
echo 'keys without TTL: ', rl_audit_no_ttl($redis), "\n";
if (getenv('RL_AUDIT_SHOW')) {
    echo json_encode($rep, JSON_PRETTY_PRINT), "\n";
}

// RedLock: every connection of every node killed between lock and extend, and between extend and unlock.
$nodes = rl_start_servers(3);
$rl = new RedLock(rl_redlock_list($nodes), 50, 1);
$kill = fn () => array_map(fn ($s) => $s->cmd('CLIENT', 'KILL', 'TYPE', 'normal'), $nodes);
$lock = $rl->lock('res', 10000);
$kill();
$ext = rl_timed(fn () => $rl->extend($lock, 10000))[0];
echo 'redlock extend: ', is_array($ext) ? 'array' : rl_audit_msg($ext, $nodes), "\n";
$kill();
echo 'redlock unlock: ', rl_audit_msg(rl_timed(fn () => $rl->unlock(is_array($ext) ? $ext : $lock))[0], $nodes), "\n";
echo 'nodes: ', rl_eventually(fn () => rl_all_keys($nodes), '[] [] []'), "\n";
?>
--EXPECT--
mutex, TYPE normal: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
mutex, ADDR of the blocked waiter: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
rwlock, TYPE normal: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
rwlock, ADDR of the blocked waiter: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
semaphore, TYPE normal: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
semaphore, ADDR of the blocked waiter: release true, again -, waiter true, late no, overlaps none, keys without TTL none
  left: []
storm: exit codes 0 0 0 0 0 0 0 0 0, connections killed: many
overlaps: none
sections after the storm: many
outcomes other than true, false, RedisLockException: []
late: []
keys without TTL: none
redlock extend: array
redlock unlock: true
nodes: [] [] []
