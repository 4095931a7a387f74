--TEST--
Server limits: maxmemory-policy volatile-ttl, memory filled with the application's data with a long TTL. The wait queues' keys (TTLs of under a second) are evicted first while waiters wait on a mutex, a read/write lock and a semaphore: no waiter is stuck, each gets the lock soon after the holder's release. Then the held lock keys themselves are evicted: a second process takes each of them beside its holder (two mutex holders, a writer beside a reader, two permits of a semaphore of 1), the first holder learns it only at its release (false), or at once with renewals on (RedisLockLostException); and a RedLock whose majority evicted its key is taken twice. This is what the README has to warn about: no client can prevent it
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_limits.inc';
$policy = ['--maxmemory-policy', 'volatile-ttl', '--maxmemory-samples', '10'];
$redis = RedisServer::start($policy);
ini_set('redis_lock.server', $redis->dsn());

// 1. The queues' keys evicted while waiters wait.
$holder = new RlActor($redis);
echo "holds: ", json_encode([$holder->result('RedisMutexLock::lock', 'm', 0, 20), $holder->result('RedisReadWriteLock::lockWrite', 'rw', 0, 20),
    $holder->result('RedisSemaphore::acquire', 'sem', 1, 0, 20)]), "\n";
$waiters = ['m' => new RlActor($redis), 'rw' => new RlActor($redis), 'sem' => new RlActor($redis)];
$waiters['m']->send('RedisMutexLock::lock', 'm', 8.0, 20, 200000);
$waiters['rw']->send('RedisReadWriteLock::lockRead', 'rw', 8.0, 20);
$waiters['sem']->send('RedisSemaphore::acquire', 'sem', 1, 8.0, 20);
echo "waiters queued: ", var_export(rl_eventually(fn () => RedisMutexLock::inspect('m')['waiters'] === 1 && RedisReadWriteLock::inspect('rw')['waiters'] === 1
    && RedisSemaphore::inspect('sem')['waiters'] === 1, true, 5.0), true), "\n";
$queueKeys = ['{lock:m}:q', '{lock:m}:t', '{lock:rw}:sq', '{lock:rw}:st', '{lock:sem}:sq', '{lock:sem}:st'];
$lockKeys = ['lock:m', 'lock:rw', 'lock:sem'];
// The application's data expires in 5 s here, after the queues' keys (under a second) and before the locks (20 s).
$n = rl_limits_fill_until($redis, fn () => array_intersect($queueKeys, rl_limits_our_keys($redis)) === [], 5);
echo "queue keys evicted: true, lock keys still there: ", json_encode(array_values(array_intersect($lockKeys, rl_limits_our_keys($redis)))), "\n";
$evicted = (int) (preg_match('/evicted_keys:(\d+)/', (string) $redis->cmd('INFO', 'stats'), $m) ? $m[1] : 0);
echo "the server evicted keys: ", var_export($evicted >= count($queueKeys), true), "\n";
// The holder releases while the pressure is still on.
$relAt = rl_now();
foreach ([['RedisMutexLock::release', 'm'], ['RedisReadWriteLock::release', 'rw'], ['RedisSemaphore::release', 'sem']] as [$method, $k]) {
    echo "release $k: ", rl_limits_answer($holder->call($method, $k)), "\n";
}
foreach ($waiters as $k => $w) {
    $a = $w->answer(12);
    echo "waiter on $k: ", rl_limits_answer($a, [$redis]), ", within 1.5 s of the release: ", rl_within($a['end'] - $relAt, 0, 1.5), "\n";
}
echo "holders now: ", json_encode([rl_holder($redis->cmd('GET', 'lock:m')) !== null, RedisReadWriteLock::inspect('rw')['readers'], RedisSemaphore::inspect('sem')['used']]), "\n";

// 2. The held lock keys evicted (the application's data now living for an hour): another process gets each of them beside its holder.
$n = rl_limits_fill_until($redis, fn () => array_intersect($lockKeys, rl_limits_our_keys($redis)) === []);
echo "lock keys evicted: true\n";
rl_limits_release_pressure($redis);
echo "second holder while the first holds: mutex ", rl_limits_outcome(fn () => RedisMutexLock::lock('m', 0)),
    ", writer beside a reader ", rl_limits_outcome(fn () => RedisReadWriteLock::lockWrite('rw', 0)),
    ", second permit of 1 ", rl_limits_outcome(fn () => RedisSemaphore::acquire('sem', 1, 0)), "\n";
echo "the first holders think they hold: ", json_encode([$waiters['m']->result('RedisMutexLock::inspect', 'm')['count'],
    $waiters['rw']->result('RedisReadWriteLock::inspect', 'rw')['count'], $waiters['sem']->result('RedisSemaphore::inspect', 'sem')['count']]), "\n";
echo "their releases: ", json_encode([$waiters['m']->result('RedisMutexLock::release', 'm'), $waiters['rw']->result('RedisReadWriteLock::release', 'rw'),
    $waiters['sem']->result('RedisSemaphore::release', 'sem')]), "\n";
echo "ours still held: ", json_encode([RedisMutexLock::inspect('m')['held'], RedisReadWriteLock::inspect('rw')['mode'], RedisSemaphore::inspect('sem')['held']]), "\n";
RedisMutexLock::release('m');
RedisReadWriteLock::release('rw');
RedisSemaphore::release('sem');

// 3. With renewals on, the holder learns it at the next renewal (a third of its TTL).
$renewed = new RlActor($redis, ['redis_lock.auto_renew' => '1']);
echo "renewed hold: ", $renewed->result('RedisMutexLock::lock', 'r', 0, 3), "\n";
rl_limits_fill_until($redis, fn () => $redis->cmd('EXISTS', 'lock:r') === 0);
rl_limits_release_pressure($redis);
echo "another process takes it: ", rl_limits_outcome(fn () => RedisMutexLock::lock('r', 0)), "\n";
rl_eventually(fn () => $renewed->result('RedisMutexLock::inspect', 'r')['lost'], true, 5.0);
echo "the renewed holder's inspect: lost ", var_export($renewed->result('RedisMutexLock::inspect', 'r')['lost'], true),
    ", release: ", rl_limits_answer($renewed->call('RedisMutexLock::release', 'r'), [$redis]), "\n";
RedisMutexLock::release('r');

// 4. RedLock over three masters with this policy: evicted on two of them, it is taken twice.
$nodes = rl_start_servers(3, $policy);
$a = new RedLock(rl_redlock_list($nodes, 0.5), 10, 1);
$lock = $a->lock('rl', 20000);
echo "RedLock: ", is_array($lock) ? 'locked' : rl_show($lock), "\n";
foreach ([$nodes[0], $nodes[1]] as $node) {
    rl_limits_fill_until($node, fn () => $node->cmd('EXISTS', 'rl') === 0);
    rl_limits_release_pressure($node);
}
$other = PhpChild::run('<?php $b = new RedLock(' . var_export(rl_redlock_list($nodes, 0.5), true) . ', 10, 1); $l = $b->lock("rl", 20000); echo is_array($l) ? "locked" : var_export($l, true); $b->unlock($l);');
echo "another process, two of three nodes evicted: ", $other['out'], $other['err'], "\n";
echo "unlock of the first: ", rl_limits_outcome(fn () => $a->unlock($lock)), "\n";
foreach (array_merge($waiters, [$holder, $renewed]) as $w) {
    $w->finish();
}
echo "keys of ours left: ", json_encode(rl_eventually(fn () => rl_limits_ours($redis), [], 2.0)), "\n";
?>
--EXPECTF--
holds: [true,true,true]
waiters queued: true
queue keys evicted: true, lock keys still there: ["lock:m","lock:rw","lock:sem"]
the server evicted keys: true
release m: true
release rw: true
release sem: true
waiter on m: true, within 1.5 s of the release: true
waiter on rw: true, within 1.5 s of the release: true
waiter on sem: true, within 1.5 s of the release: true
holders now: [true,1,1]
lock keys evicted: true
second holder while the first holds: mutex true, writer beside a reader true, second permit of 1 true
the first holders think they hold: [1,1,1]
their releases: [false,false,false]
ours still held: [true,"write",true]
renewed hold: 1
another process takes it: true
the renewed holder's inspect: lost true, release: RedisLockLostException: RedisMutexLock::release(): the lock on "r" was lost: another owner took it or it expired (found at a renewal %s)
RedLock: locked
another process, two of three nodes evicted: locked
unlock of the first: false
keys of ours left: []
