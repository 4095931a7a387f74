--TEST--
Shared locks: holds left at request end are released at once (waiters let in), renewed while held with redis_lock.auto_renew, and a renewed hold lost to another client is a RedisLockLostException at release()
--SKIPIF--
<?php if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/actor.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

// A process ends without releasing: its request end gives both holds back.
$quitter = new RlActor($redis);
echo "read: ", json_encode($quitter->result('RedisReadWriteLock::lockRead', 'rw', 0, 60)), ", permit: ", json_encode($quitter->result('RedisSemaphore::acquire', 'sem', 1, 0, 60)), "\n";
$writer = new RlActor($redis);
$writer->send('RedisReadWriteLock::lockWrite', 'rw', 20);
rl_eventually(fn () => RedisReadWriteLock::inspect('rw')['waiters'], 1, 5);
echo "permit taken: ", json_encode(RedisSemaphore::acquire('sem', 1)), "\n";
$quitter->finish();
$got = $writer->answer();
echo "after the holder's exit, the queued writer gets it: ", json_encode($got['r']), "; the permit is free: ", json_encode(RedisSemaphore::acquire('sem', 1)), "\n";
RedisSemaphore::release('sem');
$writer->call('RedisReadWriteLock::release', 'rw');

// Renewed: held past its lease; others wait.
$renewed = new RlActor($redis, ['redis_lock.auto_renew' => '1']);
echo "renewed permit, lease 1 s: ", json_encode($renewed->result('RedisSemaphore::acquire', 'ren', 1, 0, 1)), "\n";
echo "renewed write lock, lease 1 s: ", json_encode($renewed->result('RedisReadWriteLock::lockWrite', 'renw', 0, 1)), "\n";
$t = rl_now();
$sem = RedisSemaphore::acquire('ren', 1, 2.5);
$rw = RedisReadWriteLock::lockRead('renw', 0.5);
printf("others, after 3 s (three leases): permit %s, read %s\n", json_encode($sem), json_encode($rw));
echo "still held: ", json_encode($renewed->result('RedisSemaphore::inspect', 'ren')['held']), ", released: ", json_encode($renewed->result('RedisSemaphore::release', 'ren')), "\n";

// Lost: another client deletes the key; the next renewal finds it gone.
$redis->cmd('DEL', 'lock:renw');
rl_eventually(fn () => $renewed->result('RedisReadWriteLock::inspect', 'renw')['lost'], true, 3.0); // a renewal every 333 ms
echo "release after the key was deleted: ", $renewed->result('RedisReadWriteLock::release', 'renw'), "\n";
echo "release again: ", json_encode($renewed->result('RedisReadWriteLock::release', 'renw')), "\n";
$renewed->finish();
echo "keys left: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
read: true, permit: true
permit taken: false
after the holder's exit, the queued writer gets it: true; the permit is free: true
renewed permit, lease 1 s: true
renewed write lock, lease 1 s: true
others, after 3 s (three leases): permit false, read false
still held: true, released: true
release after the key was deleted: RedisLockLostException: RedisReadWriteLock::release(): the lock on "renw" was lost: another owner took it or it expired (found at a renewal %f s after it was taken)
release again: false
keys left: []
