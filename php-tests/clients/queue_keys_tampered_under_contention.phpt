--TEST--
Audit, other clients: under contention (a mutex, a read/write lock and a semaphore of 2, 3 processes each), another client keeps deleting, PERSISTing and expiring every queue key ({K}:q :t :n :w:*, {H}:sq :st :sw:*) and PERSISTing the lock keys: never two holders (a semaphore: never more than 2), every call true within its timeout, no exception, and once it stops nothing without a TTL
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$o = ['timeout' => 4.0, 'lease' => 10, 'sleep' => 200000, 'hold' => 0.01];
$procs = array_merge(
    rl_audit_workers($book, 'cm', 'm', 3, $o + ['kind' => 'm']),
    rl_audit_workers($book, 'crw', 'rw', 3, ['kind' => 'w'] + $o),
    rl_audit_workers($book, 'csem', 's', 3, ['kind' => 's', 'limit' => 2] + $o),
);
// The three kinds' other keys: the read/write workers also read.
$procs[] = new RlSharedProc('rd', fn () => rl_audit_worker($book, 'crw', 'rd', ['kind' => 'r'] + $o));

$aux = function (RedisServer $redis): array {
    $keys = [];
    foreach (['cm', 'crw', 'csem'] as $k) {
        foreach ($redis->cmd('KEYS', '{lock:' . $k . '}:*') as $x) {
            $keys[] = $x;
        }
    }
    return $keys;
};
rl_sleep(0.5);
$phases = [
    'DEL' => fn ($r, $k) => $r->cmd('DEL', $k),
    'PERSIST' => fn ($r, $k) => $r->cmd('PERSIST', $k),
    'PEXPIRE 1' => fn ($r, $k) => $r->cmd('PEXPIRE', $k, 1),
];
$touched = [];
foreach ($phases as $phase => $how) {
    $end = rl_now() + 1.2;
    $n = 0;
    while (rl_now() < $end) {
        foreach ($aux($redis) as $k) {
            $how($redis, $k);
            $n++;
        }
        if ($phase === 'PERSIST') {
            foreach (['lock:cm', 'lock:crw', 'lock:csem'] as $k) {
                $redis->cmd('PERSIST', $k);
            }
        }
        rl_sleep(0.01);
    }
    $touched[$phase] = $n;
}
// Calm again: the locks go on by themselves, more than 10 sections within 5 s.
$before = (int) $book->cmd('GET', 'sections');
rl_audit_until(fn () => (int) $book->cmd('GET', 'sections') - $before > 10, 5.0);
$after = (int) $book->cmd('GET', 'sections');
echo 'exit codes: ', rl_audit_stop($book, $procs), "\n";
foreach ($touched as $phase => $n) {
    echo "$phase: keys touched ", $n > 10 ? 'many' : "only $n", "\n";
}
$rep = rl_audit_calls_report($book, [$redis]);
echo 'overlaps: ', rl_audit_overlaps($book, ['csem' => 2]), "\n";
echo 'sections: ', (int) $book->cmd('GET', 'sections') > 100 ? 'many' : 'only ' . $book->cmd('GET', 'sections'), "\n";
echo 'sections after the attacks stopped: ', $after - $before > 10 ? 'many' : 'only ' . ($after - $before), "\n";
echo 'takes other than true: ', rl_audit_unexpected($rep['takes']), "\n";
echo 'releases other than true: ', rl_audit_unexpected($rep['releases']), "\n";
echo 'late: ', json_encode($rep['late']), "\n";
echo 'messages: ', json_encode($rep['msgs']), "\n";
echo 'keys without TTL: ', rl_audit_no_ttl($redis), "\n";
?>
--EXPECT--
exit codes: 0 0 0 0 0 0 0 0 0 0
DEL: keys touched many
PERSIST: keys touched many
PEXPIRE 1: keys touched many
overlaps: none
sections: many
sections after the attacks stopped: many
takes other than true: none
releases other than true: none
late: []
messages: []
keys without TTL: none
