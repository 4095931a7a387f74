--TEST--
Audit, other clients: CLIENT PAUSE 1500 WRITE: a lock() without timeout of each kind throws a readable RedisLockException after the read timeout and leaves no lock behind once the pause ends; a RedLock node paused is a failed vote within its timeout and keeps nothing after the pause; contention through a pause: never two holders, nobody past its timeout + 1.5 s, no key without a TTL
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
RedisMutexLock::lock('warm', 0, 5) && RedisMutexLock::release('warm');

// One attempt during a pause: an exception after the read timeout (1 s), and nothing left behind once the pause ends.
foreach (['m' => 'mutex', 'w' => 'rwlock', 's' => 'semaphore'] as $k => $kind) {
    $redis->cmd('CLIENT', 'PAUSE', 1500, 'WRITE');
    [$out, $r, $secs] = rl_audit_call(fn () => rl_audit_take($k, "p0$k", 0, 10, 100000, 1));
    echo "$kind lock(timeout 0) during the pause: $out, ", rl_within($secs, 0.9, 2.1), "\n";
    if ($r instanceof Throwable) {
        echo '  ', rl_audit_msg($r, [$redis]), "\n";
    }
    rl_audit_until(fn () => $redis->cmd('SET', 'probe', '1') === 'OK', 3.0); // blocks until the pause ends
    $redis->cmd('DEL', 'probe');
    rl_sleep(0.2);
    echo '  after the pause: ', json_encode(rl_keys_with_ttl($redis)), ', held by us: ',
        rl_audit_call(fn () => $k === 'm' ? RedisMutexLock::inspect("p0$k")['held'] : rl_shared_inspect($k, "p0$k")['held'])[0], "\n";
}

// RedLock: one node of 3 paused.
$nodes = rl_start_servers(3);
$rl = new RedLock(rl_redlock_list($nodes), 50, 1);
rl_warm_up($nodes);
$nodes[0]->cmd('CLIENT', 'PAUSE', 1500, 'WRITE');
[$lock, $secs] = rl_timed(fn () => $rl->lock('res', 2000));
echo 'redlock with a paused node: ', is_array($lock) ? 'array' : rl_audit_msg($lock, $nodes), ', ', rl_within($secs, 0.0, 0.8), "\n";
echo 'unlock: ', rl_audit_msg(rl_timed(fn () => $rl->unlock($lock))[0], $nodes), "\n";
rl_audit_until(fn () => $nodes[0]->cmd('SET', 'probe', '1') === 'OK', 3.0);
$nodes[0]->cmd('DEL', 'probe');
rl_sleep(0.3);
echo 'nodes after the pause: ', rl_all_keys($nodes), "\n";

// Contention through a pause.
$o = ['timeout' => 3.0, 'lease' => 10, 'sleep' => 200000, 'hold' => 0.01];
$procs = array_merge(
    rl_audit_workers($book, 'cpm', 'm', 3, ['kind' => 'm'] + $o),
    rl_audit_workers($book, 'cprw', 'w', 2, ['kind' => 'w'] + $o),
    rl_audit_workers($book, 'cpsem', 's', 3, ['kind' => 's', 'limit' => 2] + $o),
);
rl_sleep(0.5);
$redis->cmd('CLIENT', 'PAUSE', 1500, 'WRITE');
rl_sleep(2.3);
// After the pause the locks go on: more than 10 sections within 5 s.
$before = (int) $book->cmd('GET', 'sections');
rl_audit_until(fn () => (int) $book->cmd('GET', 'sections') - $before > 10, 5.0);
$after = (int) $book->cmd('GET', 'sections');
echo 'contention: exit codes ', rl_audit_stop($book, $procs), "\n";
$rep = rl_audit_calls_report($book, [$redis]);
echo 'overlaps: ', rl_audit_overlaps($book, ['cpsem' => 2]), "\n";
echo 'sections after the pause: ', $after - $before > 10 ? 'many' : 'only ' . ($after - $before), "\n";
$classes = array_unique(array_merge(array_keys($rep['takes']), array_keys($rep['releases'])));
echo 'outcomes other than true, false, RedisLockException: ', json_encode(array_values(array_diff($classes, ['true', 'false', 'RedisLockException']))), "\n";
echo 'late: ', json_encode($rep['late']), "\n";
echo 'keys without TTL: ', rl_audit_no_ttl($redis), "\n";
if (getenv('RL_AUDIT_SHOW')) {
    echo json_encode($rep, JSON_PRETTY_PRINT), "\n";
}
?>
--EXPECT--
mutex lock(timeout 0) during the pause: RedisLockException, true
  RedisLockException: Redis at 127.0.0.1:P1: no reply within 1 s
  after the pause: [], held by us: false
rwlock lock(timeout 0) during the pause: RedisLockException, true
  RedisLockException: Redis at 127.0.0.1:P1: no reply within 1 s
  after the pause: [], held by us: false
semaphore lock(timeout 0) during the pause: RedisLockException, true
  RedisLockException: Redis at 127.0.0.1:P1: no reply within 1 s
  after the pause: [], held by us: false
redlock with a paused node: array, true
unlock: true
nodes after the pause: [] [] []
contention: exit codes 0 0 0 0 0 0 0 0
overlaps: none
sections after the pause: many
outcomes other than true, false, RedisLockException: []
late: []
keys without TTL: none
