--TEST--
Redis Cluster: a request ends holding a queued mutex and a semaphore (each with a waiter queued behind it) while their slot is being migrated and only the lock keys have moved (the source keeps the queues' keys, so the releases, scripts that name both, are told TRYAGAIN): the request end sends them again the single-key way, so the holder's hold is gone from both keys when its process ends (not after their 60 s TTL), and each waiter gets its lock at its next look, during the migration; nothing is left once the migration ends
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
require __DIR__ . '/../inc/actor.inc';
$c = RlCluster::start(3, 0);
[$m1, $m2] = $c->masters();
$dsn = $c->dsn();
$mutex = substr($c->keyOn($m1, 'lock:mig-end'), 5);
$slot = $c->slot("lock:$mutex");
// A semaphore's key in the same slot.
$sem = null;
for ($n = 0; $sem === null; $n++) {
    if ($c->slot("lock:mig-sem-$n") === $slot) {
        $sem = "mig-sem-$n";
    }
}
// What each master holds of the slot's key $K (an importing node shows it only after ASKING).
$value = function (string $K) use ($c): array {
    $on = [];
    foreach ($c->masters() as $i => $m) {
        $m->cmd('ASKING');
        $type = $m->cmd('TYPE', $K);
        if (is_string($type) && $type !== 'none') { // (not a redirection)
            $on['M' . ($i + 1)] = $type;
        }
    }
    return $on;
};
$flag = rl_tmpdir() . '/end';

$holder = new PhpChild(<<<'PHP'
<?php
echo json_encode([RedisMutexLock::lock($argv[1], 0, 60), RedisSemaphore::acquire($argv[2], 1, 0, 60)]), "\n";
while (!file_exists($argv[3])) {
    usleep(10000);
}
// The request ends here, holding both.
PHP, ['redis_lock.server' => $dsn], [$mutex, $sem, $flag]);
echo "held: ", json_encode(rl_eventually(fn () => [$value("lock:$mutex"), $value("lock:$sem")], [['M1' => 'string'], ['M1' => 'zset']], 10.0)), "\n";

// A waiter queues on each (looking every 200 ms).
$a = new RlActor($m1, ['redis_lock.server' => $dsn]);
$a->send('RedisMutexLock::lock', $mutex, 15, 20, 200000);
$b = new RlActor($m1, ['redis_lock.server' => $dsn]);
$b->send('RedisSemaphore::acquire', $sem, 1, 15, 20);
echo "both waiters queued: ", var_export(rl_eventually(fn () => str_ends_with((string) $m1->cmd('GET', "lock:$mutex"), "\0q")
    && count(preg_grep('/^\{lock:(mig-end|mig-sem)[^}]*\}:/', $m1->keys())) >= 4, true, 5.0), true), "\n";

// The slot starts to move to M2, and only the two lock keys go.
$c->beginMigration($slot, $m2);
$m1->cmd('MIGRATE', '127.0.0.1', $m2->port, '', 0, 5000, 'KEYS', "lock:$mutex", "lock:$sem");
echo "lock keys on: ", json_encode([$value("lock:$mutex"), $value("lock:$sem")]), ", queues' keys left on M1: ",
    var_export(count(preg_grep('/^\{lock:/', $m1->keys())) >= 4, true), "\n";

touch($flag);
$ended = $holder->wait(10);
$t = rl_now();
echo "holder: exit ", $ended['status'], ", ", trim($ended['out']), "\n";
$ra = $a->answer(20);
$rb = $b->answer(20);
echo "mutex waiter: ", json_encode($ra['r'] ?? $ra['e']), ", within 1.5 s of the holder's end: ", var_export($ra['end'] - $t < 1.5, true), "\n";
echo "semaphore waiter: ", json_encode($rb['r'] ?? $rb['e']), ", within 1.5 s of the holder's end: ", var_export($rb['end'] - $t < 1.5, true), "\n";
echo "still migrating: ", var_export(str_contains((string) $m1->cmd('CLUSTER', 'NODES'), "[$slot->-"), true), "\n";
echo "their releases: ", json_encode([$a->result('RedisMutexLock::release', $mutex), $b->result('RedisSemaphore::release', $sem)]), "\n";
$c->migrateKeys($slot);
$c->finishMigration($slot);
$a->finish();
$b->finish();
// (A waiter's place and wake-up list end with their own TTL of a few seconds.)
echo "keys left: ", json_encode(rl_eventually(fn () => array_merge(...array_map(fn ($m) => $m->keys(), $c->masters())), [], 10.0)), "\n";
?>
--EXPECT--
held: [{"M1":"string"},{"M1":"zset"}]
both waiters queued: true
lock keys on: [{"M2":"string"},{"M2":"zset"}], queues' keys left on M1: true
holder: exit 0, [true,true]
mutex waiter: true, within 1.5 s of the holder's end: true
semaphore waiter: true, within 1.5 s of the holder's end: true
still migrating: true
their releases: [true,true]
keys left: []
