--TEST--
Audit, other clients: SCRIPT FLUSH every few ms while a mutex (with its FIFO hand-offs), a read/write lock and a semaphore are contended and RedLock locks and unlocks on 3 nodes: every NOSCRIPT falls back to EVAL, nobody waits past its timeout, never two holders, no exception, no key left
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
$nodes = rl_start_servers(3);
ini_set('redis_lock.server', $redis->dsn());

$o = ['timeout' => 4.0, 'lease' => 10, 'sleep' => 300000, 'hold' => 0.005];
$procs = array_merge(
    rl_audit_workers($book, 'sm', 'm', 3, ['kind' => 'm'] + $o),
    rl_audit_workers($book, 'srw', 'w', 2, ['kind' => 'w'] + $o),
    rl_audit_workers($book, 'srw', 'r', 2, ['kind' => 'r'] + $o),
    rl_audit_workers($book, 'ssem', 's', 3, ['kind' => 's', 'limit' => 2] + $o),
);
// RedLock in a process of its own, on the book's counter.
$procs[] = new RlSharedProc('redlock', function () use ($book, $nodes): int {
    $rl = new RedLock(rl_redlock_list($nodes, 0.5), 20, 5);
    $b = new RlBook($book);
    for ($n = 0; $b->cmd('EXISTS', 'stop') === 0; $n++) {
        $t0 = rl_now();
        [$r, $secs] = rl_timed(fn () => $rl->lock('res', 5000));
        $b->cmd('RPUSH', 'calls', json_encode(['who' => "redlock.$n", 'op' => 'take', 'out' => is_array($r) ? 'true' : rl_audit_outcome($r),
            'msg' => $r instanceof Throwable ? $r->getMessage() : null, 'secs' => $secs, 'timeout' => 2.0]));
        if (!is_array($r)) {
            continue;
        }
        $b->enter('res', "redlock.$n", 'w', 1, $t0, rl_now());
        $b->leave('res', "redlock.$n", 'w');
        [$u, $secs] = rl_timed(fn () => $rl->unlock($r));
        $b->cmd('RPUSH', 'calls', json_encode(['who' => "redlock.$n", 'op' => 'release', 'out' => rl_audit_outcome($u),
            'msg' => $u instanceof Throwable ? $u->getMessage() : null, 'secs' => $secs, 'timeout' => 0]));
    }
    return 0;
});
$end = rl_now() + 3.0;
$flushes = 0;
while (rl_now() < $end) {
    foreach ([$redis, ...$nodes] as $s) {
        $s->cmd('SCRIPT', 'FLUSH');
    }
    $flushes++;
    rl_sleep(0.003);
}
echo 'exit codes: ', rl_audit_stop($book, $procs), "\n";
echo 'flushes: ', $flushes > 100 ? 'many' : "only $flushes", "\n";
$rep = rl_audit_calls_report($book, [$redis, ...$nodes]);
echo 'overlaps: ', rl_audit_overlaps($book, ['ssem' => 2]), "\n";
echo 'sections: ', (int) $book->cmd('GET', 'sections') > 100 ? 'many' : 'only ' . $book->cmd('GET', 'sections'), "\n";
echo 'NOSCRIPT seen by the server: ', $redis->calls('eval') > 20 ? 'many EVALs' : 'only ' . $redis->calls('eval') . ' EVALs', "\n";
echo 'takes other than true: ', rl_audit_unexpected($rep['takes']), "\n";
echo 'releases other than true: ', rl_audit_unexpected($rep['releases']), "\n";
echo 'late: ', json_encode($rep['late']), "\n";
echo 'messages: ', json_encode($rep['msgs']), "\n";
echo 'keys: ', json_encode(rl_keys_with_ttl($redis)), ' ', rl_eventually(fn () => rl_all_keys($nodes), '[] [] []'), "\n";
?>
--EXPECT--
exit codes: 0 0 0 0 0 0 0 0 0 0 0
flushes: many
overlaps: none
sections: many
NOSCRIPT seen by the server: many EVALs
takes other than true: none
releases other than true: none
late: []
messages: []
keys: [] [] [] []
