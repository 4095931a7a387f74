--TEST--
Shared locks on Redis Cluster (3 masters): a read/write lock and a semaphore on keys of every master keep all their keys (holds, queue, places, wake-up lists) on the lock key's master; waiters queue and are handed holds there; hash-tagged keys too; a process that ends holding shared locks on all three masters releases each
--SKIPIF--
<?php if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
require __DIR__ . '/../inc/actor.inc';
$c = RlCluster::start();
$masters = $c->masters();
$name = fn (RedisServer $m) => 'M' . (array_search($m, $masters, true) + 1);
ini_set('redis_lock.server', $c->dsn([$masters[0]]));
$actor = new RlActor($masters[0], ['redis_lock.server' => $c->dsn([$masters[2]])]);

foreach ($masters as $m) {
    $rw = substr($c->keyOn($m, 'lock:rw'), strlen('lock:'));
    $sem = substr($c->keyOn($m, 'lock:sem'), strlen('lock:'));
    $read = RedisReadWriteLock::lockRead($rw);
    $permit = RedisSemaphore::acquire($sem, 1);
    $actor->send('RedisReadWriteLock::lockWrite', $rw, 20);
    $queued = rl_eventually(fn () => RedisReadWriteLock::inspect($rw)['waiters'], 1, 5);
    $onM = array_values(array_filter($m->keys(), fn ($k) => str_contains($k, $rw) || str_contains($k, $sem)));
    $elsewhere = array_sum(array_map(fn (RedisServer $o) => $o === $m ? 0 : count(array_filter($o->keys(), fn ($k) => str_contains($k, $rw) || str_contains($k, $sem))), $masters));
    $released = RedisReadWriteLock::release($rw);
    $got = $actor->answer();
    printf("%s: read %s, permit %s, writer queued %d, keys on it %d (hold, queue, places, wake-up list: %s), elsewhere %d; release %s, writer gets it %s, releases %s\n",
        $name($m), json_encode($read), json_encode($permit), $queued, count($onM),
        json_encode(count(preg_grep('/:sq$/', $onM)) === 1 && count(preg_grep('/:st$/', $onM)) === 1 && count(preg_grep('/:sw:/', $onM)) <= 1),
        $elsewhere, json_encode($released), json_encode($got['r']), json_encode($actor->result('RedisReadWriteLock::release', $rw)));
    RedisSemaphore::release($sem);
}
echo "tagged: ", json_encode([RedisSemaphore::acquire('user:{7}:a', 1), RedisReadWriteLock::lockWrite('user:{7}:b')]), ", both on ", $name($c->masterOfKey('lock:user:{7}:a')), ": ",
    json_encode(array_values(preg_grep('/user/', $c->masterOfKey('lock:user:{7}:a')->keys()))), "\n";
RedisSemaphore::release('user:{7}:a');
RedisReadWriteLock::release('user:{7}:b');

// While the slot migrates (keys still on the source), takes without a timeout and
// releases work the single-key way, at once.
$m1 = $masters[0];
$tag = $c->keyOn($m1, 'x');
$slot = $c->slot($tag);
$mk = '{' . $tag . '}:mig';
echo "before: permit ", json_encode(RedisSemaphore::acquire($mk, 2)), ", read ", json_encode(RedisReadWriteLock::lockRead($mk . 'rw')), ", queued writer: ";
$actor->send('RedisReadWriteLock::lockWrite', $mk . 'rw', 20);
echo rl_eventually(fn () => RedisReadWriteLock::inspect($mk . 'rw')['waiters'], 1, 5), "\n";
$c->beginMigration($slot, $masters[1]);
$t = rl_now();
$calls = [RedisSemaphore::acquire($mk . 'b', 1), RedisSemaphore::release($mk), RedisReadWriteLock::release($mk . 'rw'), RedisSemaphore::release($mk . 'b')];
echo "migrating: permit, releases: ", json_encode($calls), rl_now() - $t < 1 ? ' within 1 s' : ' too slow', "\n";
echo "the queued writer gets it (at its next look): ", json_encode($actor->answer(10)['r']), ", releases: ", json_encode($actor->result('RedisReadWriteLock::release', $mk . 'rw')), "\n";
$c->migrateKeys($slot);
$c->finishMigration($slot);
echo "after: ", json_encode([RedisSemaphore::acquire($mk, 2), RedisSemaphore::release($mk)]), "\n";
// The writer took the lock the single-key way: its place in the queue lapses by itself.
$left = fn () => array_sum(array_map(fn (RedisServer $m) => count(preg_grep('/mig/', $m->keys())), $masters));
echo "the slot's queue keys expire: ", json_encode(rl_eventually($left, 0, 3.0) === 0), "\n";

// A process ending with holds on every master: each is released at its request end.
foreach ($masters as $m) {
    $actor->call('RedisSemaphore::acquire', substr($c->keyOn($m, 'lock:end'), strlen('lock:')), 3, 0, 60);
}
echo "held on every master: ", implode(' ', array_map(fn (RedisServer $m) => $name($m) . '=' . $m->cmd('ZCARD', $c->keyOn($m, 'lock:end')), $masters)), "\n";
$actor->finish();
echo "after its exit: ", implode(' ', array_map(fn (RedisServer $m) => $name($m) . '=' . json_encode($m->keys()), $masters)), "\n";
?>
--EXPECT--
M1: read true, permit true, writer queued 1, keys on it 4 (hold, queue, places, wake-up list: true), elsewhere 0; release true, writer gets it true, releases true
M2: read true, permit true, writer queued 1, keys on it 4 (hold, queue, places, wake-up list: true), elsewhere 0; release true, writer gets it true, releases true
M3: read true, permit true, writer queued 1, keys on it 4 (hold, queue, places, wake-up list: true), elsewhere 0; release true, writer gets it true, releases true
tagged: [true,true], both on M1: ["lock:user:{7}:a","lock:user:{7}:b"]
before: permit true, read true, queued writer: 1
migrating: permit, releases: [true,true,true,true] within 1 s
the queued writer gets it (at its next look): true, releases: true
after: [true,true]
the slot's queue keys expire: true
held on every master: M1=1 M2=1 M3=1
after its exit: M1=[] M2=[] M3=[]
