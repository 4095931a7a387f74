--TEST--
Shared locks on Redis Cluster (3 masters): a read/write lock and a semaphore on keys of every master keep all their keys (holds, queue, leases, wake-up lists) on the lock key's master; waiters queue and are handed holds there; hash-tagged keys too; a process that ends holding shared locks on all three masters releases each
--SKIPIF--
<?php if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/inc/cluster.inc';
require __DIR__ . '/inc/actor.inc';
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
    printf("%s: read %s, permit %s, writer queued %d, keys on it %d (hold, queue, leases, wake-up list: %s), elsewhere %d; release %s, writer gets it %s, releases %s\n",
        $name($m), json_encode($read), json_encode($permit), $queued, count($onM),
        json_encode(count(preg_grep('/:sq$/', $onM)) === 1 && count(preg_grep('/:st$/', $onM)) === 1 && count(preg_grep('/:sw:/', $onM)) <= 1),
        $elsewhere, json_encode($released), json_encode($got['r']), json_encode($actor->result('RedisReadWriteLock::release', $rw)));
    RedisSemaphore::release($sem);
}
echo "tagged: ", json_encode([RedisSemaphore::acquire('user:{7}:a', 1), RedisReadWriteLock::lockWrite('user:{7}:b')]), ", both on ", $name($c->masterOfKey('lock:user:{7}:a')), ": ",
    json_encode(array_values(preg_grep('/user/', $c->masterOfKey('lock:user:{7}:a')->keys()))), "\n";
RedisSemaphore::release('user:{7}:a');
RedisReadWriteLock::release('user:{7}:b');

// A process ending with holds on every master: each is released at its request end.
foreach ($masters as $m) {
    $actor->call('RedisSemaphore::acquire', substr($c->keyOn($m, 'lock:end'), strlen('lock:')), 3, 0, 60);
}
echo "held on every master: ", implode(' ', array_map(fn (RedisServer $m) => $name($m) . '=' . $m->cmd('ZCARD', $c->keyOn($m, 'lock:end')), $masters)), "\n";
$actor->finish();
echo "after its exit: ", implode(' ', array_map(fn (RedisServer $m) => $name($m) . '=' . json_encode($m->keys()), $masters)), "\n";
?>
--EXPECT--
M1: read true, permit true, writer queued 1, keys on it 4 (hold, queue, leases, wake-up list: true), elsewhere 0; release true, writer gets it true, releases true
M2: read true, permit true, writer queued 1, keys on it 4 (hold, queue, leases, wake-up list: true), elsewhere 0; release true, writer gets it true, releases true
M3: read true, permit true, writer queued 1, keys on it 4 (hold, queue, leases, wake-up list: true), elsewhere 0; release true, writer gets it true, releases true
tagged: [true,true], both on M1: ["lock:user:{7}:a","lock:user:{7}:b"]
held on every master: M1=1 M2=1 M3=1
after its exit: M1=[] M2=[] M3=[]
