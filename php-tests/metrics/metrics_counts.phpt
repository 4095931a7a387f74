--TEST--
redis_lock_metrics_array(): exact counts per kind and key pattern after locks, releases, a wait behind a foreign holder, a hand-off from another process, a timeout, a busy try, an extension, a lost lock, a connect error; the pool's counts equal this process' (nothing forked)
--INI--
redis_lock.metrics_patterns="orders:*, users:*"
--FILE--
<?php
require __DIR__ . '/../inc/actor.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$ok = fn (bool $b) => $b ? 'ok' : 'FAILED';
echo "before any lock: ", json_encode(redis_lock_metrics_array()['pool']), "\n";

// Uncontended: one per pattern and one for "other".
foreach (['orders:1', 'users:1', 'carts:1'] as $k) {
    echo "$k: ", $ok(RedisMutexLock::lock($k, 0) && RedisMutexLock::release($k)), "\n";
}
// Waits behind a foreign holder until its key expires: contended, no hand-off.
$redis->cmd('SET', 'lock:orders:2', 'foreign', 'PX', 300);
echo "orders:2 after a wait: ", $ok(RedisMutexLock::lock('orders:2', 5) && RedisMutexLock::release('orders:2')), "\n";
// Another process holds orders:4 and releases it 200 ms from now: handed to us.
$actor = new RlActor($redis);
echo "actor holds orders:4: ", var_export($actor->result('RedisMutexLock::lock', 'orders:4', 0), true), "\n";
$actor->send('usleep', 200000);
$actor->send('RedisMutexLock::release', 'orders:4');
echo "orders:4 handed over: ", $ok(RedisMutexLock::lock('orders:4', 5) && RedisMutexLock::release('orders:4')), "\n";
// Held by someone else for 10 s: a wait that gives up, and a try without a wait.
$redis->cmd('SET', 'lock:orders:3', 'foreign', 'PX', 10000);
echo "orders:3 timeout: ", var_export(RedisMutexLock::lock('orders:3', 0.2), true), ", busy: ", var_export(RedisMutexLock::lock('orders:3', 0), true), "\n";
// An extension, then a lock deleted behind our back: its release finds it lost.
echo "users:2 extended: ", $ok(RedisMutexLock::lock('users:2', 0) && RedisMutexLock::extend('users:2', 30)), "\n";
$redis->cmd('DEL', 'lock:users:2');
echo "users:2 release after DEL: ", var_export(RedisMutexLock::release('users:2'), true), "\n";
// RedLock and the shared locks count under their kinds.
$red = new RedLock([$redis->dsn()]);
$l = $red->lock('orders:9', 1000);
echo "redlock: ", $ok(is_array($l) && $red->unlock($l)), "\n";
echo "read-write: ", $ok(RedisReadWriteLock::lockRead('users:3', 0) && RedisReadWriteLock::release('users:3')), "\n";
echo "semaphore: ", $ok(RedisSemaphore::acquire('carts:2', 2, 0) && RedisSemaphore::release('carts:2')), "\n";
// A server that is not there: a connect error, under its key's pattern.
ini_set('redis_lock.server', 'redis://127.0.0.1:' . rl_free_port());
try {
    RedisMutexLock::lock('users:9', 0);
} catch (RedisLockException $e) {
    echo "dead server: ", get_class($e), "\n";
}

$m = redis_lock_metrics_array();
echo "shared: ", var_export($m['shared'], true), ", buckets_ms: ", implode(',', $m['buckets_ms']), "\n";
foreach ($m['pool'] as $s) {
    printf("%s %s: acq=%d contended=%d handoffs=%d timeouts=%d busy=%d renewals=%d lost=%d errors=%s waits=%d holds=%d\n",
        $s['kind'], $s['pattern'], $s['acquisitions'], $s['contended'], $s['handoffs'], $s['timeouts'], $s['busy'],
        $s['renewals'], $s['lost_leases'], json_encode($s['errors']), $s['wait']['count'], $s['hold']['count']);
}
$o2 = array_values(array_filter($m['pool'], fn ($s) => $s['kind'] === 'mutex' && $s['pattern'] === 'orders:*'))[0];
// The waits: 3 near 0, one ~300 ms (expiry), one ~200 ms (hand-off): 2 over 100 ms, none over 1 s.
$cum = 0;
$le = [];
foreach ($o2['wait']['buckets'] as $i => $n) {
    $cum += $n;
    $le[$m['buckets_ms'][$i] ?? 'inf'] = $cum;
}
echo "orders waits <=100ms: ", $le[100], ", <=1000ms: ", $le[1000], ", sum >= 450 ms: ", var_export($o2["wait"]["sum_ms"] >= 450, true), "\n";
echo "process == pool: ", var_export($m['process'] === $m['pool'], true), "\n";
$actor->finish();
?>
--EXPECT--
before any lock: []
orders:1: ok
users:1: ok
carts:1: ok
orders:2 after a wait: ok
actor holds orders:4: true
orders:4 handed over: ok
orders:3 timeout: false, busy: false
users:2 extended: ok
users:2 release after DEL: false
redlock: ok
read-write: ok
semaphore: ok
dead server: RedisLockException
shared: true, buckets_ms: 1,5,10,25,50,100,250,500,1000,2500,5000,10000
mutex orders:*: acq=3 contended=2 handoffs=1 timeouts=1 busy=1 renewals=0 lost=0 errors=[] waits=3 holds=3
mutex users:*: acq=2 contended=0 handoffs=0 timeouts=0 busy=0 renewals=1 lost=1 errors={"connect":1} waits=2 holds=1
mutex other: acq=1 contended=0 handoffs=0 timeouts=0 busy=0 renewals=0 lost=0 errors=[] waits=1 holds=1
redlock orders:*: acq=1 contended=0 handoffs=0 timeouts=0 busy=0 renewals=0 lost=0 errors=[] waits=1 holds=1
read-write users:*: acq=1 contended=0 handoffs=0 timeouts=0 busy=0 renewals=0 lost=0 errors=[] waits=1 holds=1
semaphore other: acq=1 contended=0 handoffs=0 timeouts=0 busy=0 renewals=0 lost=0 errors=[] waits=1 holds=1
orders waits <=100ms: 1, <=1000ms: 3, sum >= 450 ms: true
process == pool: true
