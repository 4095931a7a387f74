--TEST--
Redis Cluster seeds that cannot answer (a black-holed host, a killed server) are passed over within the connect timeout; slot migration (real nodes, CLUSTER SETSLOT step by step): a lock held while its slot moves is extended and released on the new master after MOVED, and the next call goes there at once (the map was learned again); during a migration a new lock follows ASK to the importing node, a held key still on the source is served there, and after its key moved it follows ASK; a release or a queued lock() whose queue scripts (multi-key) are told TRYAGAIN succeeds at once, during the migration, the single-key way; release never lies (another owner's key is untouched)
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$c = RlCluster::start(3, 0);
[$m1, $m2, $m3] = $c->masters();
$names = [$m1->port => 'M1', $m2->port => 'M2', $m3->port => 'M3'];
// Seeds that cannot answer come first: a host that never answers its SYN and a killed server.
$hole = RlBlackHole::tcp();
$dead = RedisServer::start();
$dead->kill();
// (A connect timeout of 1 s: a call that tries the black hole again takes
// twice as long as the bound of a call that does not.)
ini_set('redis_lock.connect_timeout', '1');
ini_set('redis_lock.server', "redis-cluster://127.0.0.1:{$hole->port},127.0.0.1:{$dead->port},127.0.0.1:{$m2->port}");
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('seeds') && RedisMutexLock::release('seeds'));
echo "a black-holed and a killed seed first: ", rl_show($r), ", within 1..2.5 s: ", var_export($secs > 0.99 && $secs < 2.5, true);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('seeds') && RedisMutexLock::release('seeds'));
echo "; again (the map is known): ", rl_show($r), ", < 0.5 s: ", var_export($secs < 0.5, true), "\n";
ini_set('redis_lock.server', $c->dsn([$m1]));
$where = function (string $K) use ($c, $names): string {
    $on = [];
    foreach ($c->masters() as $m) {
        $m->cmd('ASKING'); // an importing node shows the slot's keys only after ASKING
        if ($m->cmd('EXISTS', $K) === 1) {
            $on[] = $names[$m->port];
        }
    }
    return $on ? implode(',', $on) : 'nowhere';
};
// Commands a node ran since the last CONFIG RESETSTAT (all kinds).
$calls = function (RedisServer $m): int {
    preg_match_all('/^cmdstat_(\w+):calls=(\d+)/m', $m->cmd('INFO', 'commandstats'), $all, PREG_SET_ORDER);
    return array_sum(array_map(fn ($x) => in_array($x[1], ['info', 'config', 'exists', 'cluster'], true) ? 0 : (int) $x[2], $all));
};

// 1. MOVED: a lock held on M1 while its slot moves to M2 (key and TTL with it).
$key = substr($c->keyOn($m1, 'lock:moved'), 5);
$K = "lock:$key";
$slot = $c->slot($K);
var_dump(RedisMutexLock::lock($key, 0, 30));
$c->migrateSlot($slot, $m2);
echo "after the migration, the key is on: ", $where($K), "\n";
echo "extend (MOVED to M2): ", var_export(RedisMutexLock::extend($key, 40), true), ", PTTL on M2 > 39000: ", var_export($m2->cmd('PTTL', $K) > 39000, true), "\n";
echo "release: ", var_export(RedisMutexLock::release($key), true), ", key on: ", $where($K), "\n";
$m1->cmd('CONFIG', 'RESETSTAT');
echo "lock + release again: ", var_export(RedisMutexLock::lock($key) && RedisMutexLock::release($key), true), ", commands M1 ran: ", $calls($m1), "\n";

// Another owner's key in a moved slot: release() is false and leaves it alone.
$m2->cmd('SET', $K, 'someone else', 'PX', 60000);
echo "release of another owner's lock: ", var_export(RedisMutexLock::release($key), true), ", value kept: ", $m2->cmd('GET', $K), "\n";
$m2->cmd('DEL', $K);

// 2. ASK: the slot of three keys is migrating from M1 to M3.
$held = substr($c->keyOn($m1, 'lock:ask'), 5);
$slot = $c->slot("lock:$held");
// Another key of the same slot.
$fresh = null;
for ($n = 0; $fresh === null; $n++) {
    if ($c->slot("lock:ask-new-$n") === $slot) {
        $fresh = "ask-new-$n";
    }
}
var_dump(RedisMutexLock::lock($held, 0, 30));
$c->beginMigration($slot, $m3);
echo "held key, still on the source: extend ", var_export(RedisMutexLock::extend($held, 30), true), ", on: ", $where("lock:$held"), "\n";
echo "a new lock (ASK to M3): ", var_export(RedisMutexLock::lock($fresh, 0, 30), true), ", on: ", $where("lock:$fresh"), "\n";
echo "its extend (ASK again): ", var_export(RedisMutexLock::extend($fresh, 20), true), "\n";
$c->migrateKeys($slot);
echo "held key moved with MIGRATE, now on: ", $where("lock:$held"), ", extend (ASK to M3): ", var_export(RedisMutexLock::extend($held, 30), true), "\n";

// 3. A release is a multi-key script (it hands the lock to a waiter): while
//    the slot migrates, a node that has only some of its keys answers
//    TRYAGAIN until the migration ends; a forked child ends it 3 s later.
//    The same for a queued lock() while the slot migrates back to M1.
// (The child only sends CLUSTER SETSLOT … NODE to every master; the parent's
// finishMigration() then waits until all nodes agree.) A call that waited
// for the end of the migration would take 3 s and find it ended: each call
// must return within 1 s, with the slot still MIGRATING on the source and
// IMPORTING on the target (CLUSTER NODES, asked after the call returned).
$finishLater = function (RedisServer $to) use ($c, $slot): int {
    $id = $to->cmd('CLUSTER', 'MYID');
    $masters = $c->masters();
    return rl_fork(function () use ($masters, $to, $slot, $id): int {
        rl_sleep(3.0);
        foreach ([$to, ...array_filter($masters, fn ($m) => $m !== $to)] as $m) {
            $m->reconnect(); // a connection of its own, not the parent's
            if ($m->cmd('CLUSTER', 'SETSLOT', $slot, 'NODE', $id) !== 'OK') {
                return 1;
            }
        }
        return 0;
    });
};
$migrating = function () use ($c, $slot): string {
    $states = [];
    foreach ($c->masters() as $m) {
        // Only the "myself" line of CLUSTER NODES shows [slot->-id] / [slot-<-id].
        $nodes = (string) $m->cmd('CLUSTER', 'NODES');
        $states[] = str_contains($nodes, "[$slot->-") ? 'migrating' : (str_contains($nodes, "[$slot-<-") ? 'importing' : null);
    }
    $states = array_values(array_filter($states));
    sort($states);
    return $states === ['importing', 'migrating'] ? 'yes' : 'no (' . json_encode($states) . ')';
};
$pid = $finishLater($m3);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::release($fresh));
// (The child ends the migration 3 s from now: these two succeed before that.)
echo "release during the migration: ", rl_show($r), ", took < 1 s: ", var_export($secs < 1.0, true), ", still migrating: ", $migrating(),
    ", on: ", $where("lock:$fresh"), ", child: ", rl_wait($pid), "\n";
$c->finishMigration($slot);
echo "release of the held key (MOVED to M3): ", var_export(RedisMutexLock::release($held), true), ", on: ", $where("lock:$held"), "\n";
$c->beginMigration($slot, $m1);
$pid = $finishLater($m1);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock($fresh, 5, 30));
echo "queued lock during the migration: ", rl_show($r), ", took < 1 s: ", var_export($secs < 1.0, true), ", still migrating: ", $migrating(),
    ", on: ", $where("lock:$fresh"), ", child: ", rl_wait($pid), "\n";
$c->finishMigration($slot);
echo "release: ", var_export(RedisMutexLock::release($fresh), true), "\n";
echo "keys: ", json_encode(array_merge(...array_map(fn ($m) => preg_grep('/:f$/', $m->keys(), PREG_GREP_INVERT), $c->masters()))), "\n";
?>
--EXPECT--
a black-holed and a killed seed first: true, within 1..2.5 s: true; again (the map is known): true, < 0.5 s: true
bool(true)
after the migration, the key is on: M2
extend (MOVED to M2): true, PTTL on M2 > 39000: true
release: true, key on: nowhere
lock + release again: true, commands M1 ran: 0
release of another owner's lock: false, value kept: someone else
bool(true)
held key, still on the source: extend true, on: M1
a new lock (ASK to M3): true, on: M3
its extend (ASK again): true
held key moved with MIGRATE, now on: M3, extend (ASK to M3): true
release during the migration: true, took < 1 s: true, still migrating: yes, on: nowhere, child: 0
release of the held key (MOVED to M3): true, on: nowhere
queued lock during the migration: true, took < 1 s: true, still migrating: yes, on: M1, child: 0
release: true
keys: []
