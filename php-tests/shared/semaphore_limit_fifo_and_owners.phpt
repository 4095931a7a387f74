--TEST--
RedisSemaphore: at most $limit permits, FIFO hand-off to waiters (as a release returns, the lock key's hold set already has the first waiter's permit, and it returns within 2 s), each caller let in only below its own limit, weighted owner permits (framework adapters), inspect fields, ValueErrors
--SKIPIF--
<?php if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/actor.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$S = 'RedisSemaphore::';
[$a, $b, $c, $d] = array_map(fn () => new RlActor($redis), range(1, 4));
$names = rl_actor_pids(['A' => $a, 'B' => $b, 'C' => $c, 'D' => $d]);
$show = fn ($i) => sprintf('held %s, used %d, limit %s, free %s, holders %d, waiters %d', json_encode($i['held']), $i['used'], json_encode($i['limit']), json_encode($i['free']), count($i['holders']), $i['waiters']);

echo "A: ", json_encode($a->result("{$S}acquire", 's', 2)), ", B: ", json_encode($b->result("{$S}acquire", 's', 2)), "\n";
echo "C, no wait: ", json_encode($c->result("{$S}acquire", 's', 2)), "\n";
$c->send("{$S}acquire", 's', 2, 20);
rl_eventually(fn () => RedisSemaphore::inspect('s')['waiters'], 1, 5);
$d->send("{$S}acquire", 's', 2, 20);
rl_eventually(fn () => RedisSemaphore::inspect('s')['waiters'], 2, 5);
echo $show(RedisSemaphore::inspect('s')), "\n";
echo "this process, no wait: ", json_encode(RedisSemaphore::acquire('s', 2)), "\n";
$rel = $a->call("{$S}release", 's');
// Read at once: the release itself hands C its permit (a waiter's own look comes only every 100 ms).
$held = rl_holds_named($redis, 'lock:s', $names);
$got = $c->answer();
printf("A release %s; holds as it returned: %s; C (first in line) gets it %s, %s; D still waits: %s\n", json_encode($rel['r']), $held, json_encode($got['r']),
    $got['end'] - $rel['end'] < 2 ? '< 2 s after' : sprintf('%.3f s after', $got['end'] - $rel['end']), json_encode($d->poll(0.2) === null));
$b->call("{$S}release", 's');
echo "B release; D gets it: ", json_encode($d->answer()['r']), "\n";
$holder = RedisSemaphore::inspect('s')['holders'][0];
echo "a holder: ", json_encode(['host' => is_string($holder['host']), 'pid' => is_int($holder['pid']), 'ttl' => $holder['ttl'] > 19000, 'limit' => $holder['limit'], 'weight' => $holder['weight']]), "\n";
$c->call("{$S}release", 's');
$d->call("{$S}release", 's');
echo "free: ", $show(RedisSemaphore::inspect('s')), "\n";

// Different limits on one key: each is let in only below its own.
echo "limit 1: ", json_encode($a->result("{$S}acquire", 'm', 1)), ", limit 2 beside it: ", json_encode($b->result("{$S}acquire", 'm', 2)),
    ", limit 1 now: ", json_encode($c->result("{$S}acquire", 'm', 1)), ", limit 3: ", json_encode($c->result("{$S}acquire", 'm', 3)), "\n";
echo $show(RedisSemaphore::inspect('m')), "\n";
foreach ([$a, $b, $c] as $x) {
    $x->call("{$S}release", 'm');
}

// Owners (symfony/semaphore keys): weights, any process releases.
$o1 = RedisMutexLock::newOwner();
$o2 = RedisMutexLock::newOwner();
echo "o1 weight 2 of 3: ", json_encode(RedisSemaphore::acquireOwner('w', $o1, 3, 5000, 0, 2)), "\n";
echo "o2 weight 2 of 3: ", json_encode(RedisSemaphore::acquireOwner('w', $o2, 3, 5000, 0, 2)), ", o2 weight 1: ", json_encode(RedisSemaphore::acquireOwner('w', $o2, 3, 5000)), "\n";
echo "used ", RedisSemaphore::inspect('w')['used'], "; held by this process' static API: ", json_encode(RedisSemaphore::inspect('w')['held']), "\n";
echo "holds o1: ", json_encode(RedisSemaphore::holds('w', $o1)), ", from another process: ", json_encode($a->result("{$S}holds", 'w', $o1)), "\n";
echo "o1 again (refresh): ", json_encode(RedisSemaphore::acquireOwner('w', $o1, 3, 9000, 0, 2)), ", used ", RedisSemaphore::inspect('w')['used'], "\n";
echo "o1 with weight 3 beside o2's 1 (4 > 3): ", json_encode(RedisSemaphore::acquireOwner('w', $o1, 3, 9000, 0, 3)), ", used ", RedisSemaphore::inspect('w')['used'], ", o1 holds: ", json_encode(RedisSemaphore::holds('w', $o1)), "\n";
echo "extend o1: ", json_encode($a->result("{$S}extendOwner", 'w', $o1, 60000)), "\n";
echo "released by another process: ", json_encode($a->result("{$S}releaseOwner", 'w', $o1)), ", again: ", json_encode($a->result("{$S}releaseOwner", 'w', $o1)), "\n";
echo "holds o1: ", json_encode(RedisSemaphore::holds('w', $o1)), ", extend o1: ", json_encode(RedisSemaphore::extendOwner('w', $o1, 1000)), "\n";
RedisSemaphore::releaseOwner('w', $o2);

foreach ([
    fn () => RedisSemaphore::acquire('', 1),
    fn () => RedisSemaphore::acquire('s', 0),
    fn () => RedisSemaphore::acquire('s', -3),
    fn () => RedisSemaphore::acquire('s', 1 << 40),
    fn () => RedisSemaphore::acquire('s', 2, -0.5),
    fn () => RedisSemaphore::acquire('s', 2, 1, 0),
    fn () => RedisSemaphore::acquireOwner('s', 'o', 2, 1000, 0, 3),
    fn () => RedisSemaphore::acquireOwner('s', 'o', 2, 1000, 0, 0),
    fn () => RedisSemaphore::holds('s', ''),
] as $call) {
    try {
        $call();
        echo "no error\n";
    } catch (ValueError $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
foreach ([$a, $b, $c, $d] as $x) {
    $x->finish();
}
echo "keys left: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
A: true, B: true
C, no wait: false
held false, used 2, limit 2, free 0, holders 2, waiters 2
this process, no wait: false
A release true; holds as it returned: B+C; C (first in line) gets it true, < 2 s after; D still waits: true
B release; D gets it: true
a holder: {"host":true,"pid":true,"ttl":true,"limit":2,"weight":1}
free: held false, used 0, limit null, free null, holders 0, waiters 0
limit 1: true, limit 2 beside it: true, limit 1 now: false, limit 3: true
held false, used 3, limit 3, free 0, holders 3, waiters 0
o1 weight 2 of 3: true
o2 weight 2 of 3: false, o2 weight 1: true
used 3; held by this process' static API: false
holds o1: true, from another process: true
o1 again (refresh): true, used 3
o1 with weight 3 beside o2's 1 (4 > 3): false, used 3, o1 holds: true
extend o1: true
released by another process: true, again: false
holds o1: false, extend o1: false
ValueError: RedisSemaphore::acquire(): Argument #1 ($key) must not be empty
ValueError: RedisSemaphore::acquire(): Argument #2 ($limit) must be greater than 0
ValueError: RedisSemaphore::acquire(): Argument #2 ($limit) must be greater than 0
ValueError: RedisSemaphore::acquire(): Argument #2 ($limit) must be less than or equal to 4294967295
ValueError: RedisSemaphore::acquire(): Argument #3 ($timeout) must be greater than or equal to 0
ValueError: RedisSemaphore::acquire(): Argument #4 ($lockSecond) must be between 1 and 4611686018427387
ValueError: RedisSemaphore::acquireOwner(): Argument #6 ($weight) must be less than or equal to argument #3 ($limit) (2)
ValueError: RedisSemaphore::acquireOwner(): Argument #6 ($weight) must be greater than 0
ValueError: RedisSemaphore::holds(): Argument #2 ($owner) must not be empty
keys left: []
