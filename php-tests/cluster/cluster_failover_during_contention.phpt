--TEST--
Redis Cluster failover (CLUSTER FAILOVER on the replica of the key's master) while 4 processes contend for one lock with lock($key, 10) and increment a counter on another server inside it: no update is lost, no call fails, the lock ends up on the new master and nothing is left; a lock renewed across the failover is still held after it (renewals follow MOVED), and a fence taken after the failover is greater than one taken before
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$c = RlCluster::start();
$book = RedisServer::start(); // the counter the lock protects, and the workers' reports
[$m1] = $c->masters();
$replica = $c->replicaOf($m1);
ini_set('redis_lock.server', $c->dsn());
$key = substr($c->keyOn($m1, 'lock:counter'), 5);
$renewed = substr($c->keyOn($m1, 'lock:renewed'), 5);
$fenced = substr($c->keyOn($m1, 'lock:fenced'), 5);

// Before: a fence, and a lock renewed every third of its 3 s TTL (a renewal sent in the
// failover waits out the old master's pause and then follows MOVED: a 1 s TTL left it ~0.6 s).
RedisMutexLock::lock($fenced);
$before = RedisMutexLock::fence($fenced);
RedisMutexLock::release($fenced);
ini_set('redis_lock.auto_renew', '1');
var_dump(RedisMutexLock::lock($renewed, 0, 3));
ini_set('redis_lock.auto_renew', '0');

const WORKERS = 4;
const ROUNDS = 150;
$pids = [];
for ($w = 0; $w < WORKERS; $w++) {
    $pids[] = rl_fork(function () use ($book, $key): int {
        $b = new RespClient('unix://' . $book->socket);
        for ($i = 0; $i < ROUNDS; $i++) {
            try {
                if (!RedisMutexLock::lock($key, 10, 5)) {
                    $b->cmd('RPUSH', 'errors', 'lock() false');
                    continue;
                }
                $v = (int) $b->cmd('GET', 'counter');
                rl_sleep(0.0002);
                $b->cmd('SET', 'counter', $v + 1);
                $b->cmd('INCR', 'done');
                if (!RedisMutexLock::release($key)) {
                    $b->cmd('RPUSH', 'errors', 'release() false');
                }
            } catch (Throwable $e) {
                $b->cmd('RPUSH', 'errors', get_class($e) . ': ' . $e->getMessage());
            }
        }
        return 0;
    });
}
// The failover once a third of the work is done.
rl_eventually(fn () => (int) $book->cmd('GET', 'done') >= WORKERS * ROUNDS / 3, true, 30.0);
$during = (int) $book->cmd('GET', 'done');
$c->failover($replica);
echo "failover while contended: ", var_export($during < WORKERS * ROUNDS, true), ", the replica is master now: ", var_export($replica->cmd('ROLE')[0] === 'master', true), "\n";
foreach ($pids as $pid) {
    rl_wait($pid);
}
$done = (int) $book->cmd('GET', 'done');
echo "sections: $done of ", WORKERS * ROUNDS, ", counter: ", $book->cmd('GET', 'counter'), ", lost updates: ", $done - (int) $book->cmd('GET', 'counter'), "\n";
echo "errors: ", json_encode($book->cmd('LRANGE', 'errors', 0, -1)), "\n";

rl_sleep(3.2); // more than its TTL: held only if renewed on the new master
echo "renewed lock after the failover: held ", var_export(RedisMutexLock::inspect($renewed)['held'], true), ", PTTL on the new master > 0: ", var_export($replica->cmd('PTTL', "lock:$renewed") > 0, true), "\n";
var_dump(RedisMutexLock::release($renewed));
RedisMutexLock::lock($fenced);
echo "fence after > before: ", var_export(RedisMutexLock::fence($fenced) > $before, true), "\n";
RedisMutexLock::release($fenced);
$left = [];
foreach ($c->masters() as $m) {
    $left = array_merge($left, preg_grep('/:f$/', $m->keys(), PREG_GREP_INVERT));
}
echo "keys: ", json_encode($left), "\n";
?>
--EXPECT--
bool(true)
failover while contended: true, the replica is master now: true
sections: 600 of 600, counter: 600, lost updates: 0
errors: []
renewed lock after the failover: held true, PTTL on the new master > 0: true
bool(true)
fence after > before: true
keys: []
