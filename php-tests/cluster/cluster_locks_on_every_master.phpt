--TEST--
Redis Cluster (6 real nodes, 3 masters): with a redis-cluster:// DSN naming one seed, RedisMutexLock takes, inspects, fences, extends and releases locks whose keys live on every master (each on its slot's master, nothing on the others); waiters queue FIFO on a cluster key with every queue key on the lock key's master; renewals, owner-level calls and RedLock with a cluster entry work; wait_replicas=1 waits for each master's replica; a process that ends holding locks on all three masters releases each; nothing is left behind
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
require __DIR__ . '/../inc/queue.inc';
$c = RlCluster::start();
$masters = $c->masters();
$name = fn (RedisServer $m) => 'M' . (array_search($m, $masters, true) + 1);
// One seed only: the slot map is learned from it.
ini_set('redis_lock.server', $c->dsn([$masters[1]]));
// Keys left, but the fence records (they outlive a hold by design, for the lock's TTL).
$keysOn = fn () => implode(' ', array_map(fn (RedisServer $m) => $name($m) . '=' . json_encode(array_values(preg_grep('/\}:f$/', $m->keys(), PREG_GREP_INVERT))), $masters));
$fences = [];

foreach ($masters as $m) {
    $key = substr($c->keyOn($m, 'lock:job'), strlen('lock:'));
    $ok = RedisMutexLock::lock($key, 0, 30);
    $token = $m->cmd('GET', "lock:$key");
    $inspect = RedisMutexLock::inspect($key);
    $fence = RedisMutexLock::fence($key);
    $extend = RedisMutexLock::extend($key, 60);
    printf("%s: lock %s, token on %s: %s, keys elsewhere: %d, held: %s, waiters: %d, fence: %s, extend: %s (PTTL > 59000: %s), ",
        $key, var_export($ok, true), $name($m), var_export(rl_is_token($token), true),
        array_sum(array_map(fn (RedisServer $o) => $o === $m ? 0 : count(preg_grep('/' . $key . '\b/', $o->keys())), $masters)),
        var_export($inspect['held'], true), $inspect['waiters'], gettype($fence), var_export($extend, true),
        var_export($m->cmd('PTTL', "lock:$key") > 59000, true));
    echo "release: ", var_export(RedisMutexLock::release($key), true), "\n";
    $fences[] = $name($m) . ': ' . var_export($m->cmd('EXISTS', "{lock:$key}:f"), true);
}
echo "keys: ", $keysOn(), ", fence records on their keys' masters: ", implode(', ', $fences), "\n";

// Hash tags: two keys of one tag share a master.
$a = RedisMutexLock::lock('user:{42}:cart');
$b = RedisMutexLock::lock('user:{42}:order');
$m = $c->masterOfKey('lock:user:{42}:cart');
echo "tagged: ", var_export($a && $b, true), ", both on ", $name($m), ": ", json_encode(array_values(preg_grep('/user/', $m->keys()))), "\n";
var_dump(RedisMutexLock::release('user:{42}:cart'), RedisMutexLock::release('user:{42}:order'));

// The queue: waiters wait in order on a key of M3; every queue key is on M3.
$m = $masters[2];
$key = substr($c->keyOn($m, 'lock:fifo'), strlen('lock:'));
$K = "lock:$key";
$book = RedisServer::start();
var_dump(RedisMutexLock::lock($key, 0, 30));
$opts = [];
for ($i = 0; $i < 4; $i++) {
    $opts[] = ['key' => $key, 'i' => $i, 'timeout' => 30, 'hold' => 0.02, 'dsn' => $c->dsn([$masters[0]])];
}
[$waiters, $tokens] = rl_queue_waiters($m, $book, $K, $opts);
$q = rl_queue_keys($K);
echo "queued on ", $name($m), ": ", count(rl_queue_tokens($m, $K)), ", places: ", $m->cmd('ZCARD', $q['t']),
    ", inspect waiters: ", RedisMutexLock::inspect($key)['waiters'], ", keys elsewhere: ", count(preg_grep('/fifo/', array_merge($masters[0]->keys(), $masters[1]->keys()))), "\n";
var_dump(RedisMutexLock::release($key));
foreach ($waiters as $i => $w) {
    $r = $w->result(15);
    echo "waiter $i: ", var_export($r['r'], true), ", released: ", var_export($r['rel'], true), "\n";
    $w->finish(5);
}
echo "order: ", implode(' ', $book->cmd('LRANGE', 'order', 0, -1)), ", two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
echo "keys: ", $keysOn(), "\n";

// Renewals: a 1 s lock renewed on its master outlives its TTL.
ini_set('redis_lock.auto_renew', '1');
$key = substr($c->keyOn($masters[0], 'lock:renewed'), strlen('lock:'));
var_dump(RedisMutexLock::lock($key, 0, 1));
rl_sleep(1.6);
echo "renewed after 1.6 s: ", var_export(RedisMutexLock::inspect($key)['held'], true), ", PTTL > 0: ", var_export($masters[0]->cmd('PTTL', "lock:$key") > 0, true), "\n";
var_dump(RedisMutexLock::release($key));
ini_set('redis_lock.auto_renew', '0');

// Owner-level calls.
$owner = RedisMutexLock::newOwner();
$key = substr($c->keyOn($masters[1], 'lock:owned'), strlen('lock:'));
echo "acquire: ", var_export(RedisMutexLock::acquire($key, $owner, 5000), true), ", owner: ", var_export(RedisMutexLock::owner($key) === $owner, true),
    ", on M2: ", var_export($masters[1]->cmd('EXISTS', "lock:$key") === 1, true), ", releaseOwner: ", var_export(RedisMutexLock::releaseOwner($key, $owner), true), "\n";

// RedLock with a cluster as one of its entries (its key lands on the slot's master).
[$solo1, $solo2] = rl_start_servers(2);
$rl = new RedLock([$c->dsn([$masters[0]]), $solo1->dsn(), $solo2->dsn()], 0, 1);
$lock = $rl->lock('resource', 5000);
$m = $c->masterOfKey('resource');
echo "RedLock: ", is_array($lock) ? 'locked' : rl_show($lock), ", on ", $name($m), ": ", var_export($m->cmd('GET', 'resource') === $lock['token'], true),
    ", extend: ", var_export(is_array($rl->extend($lock, 8000)), true), ", unlock: ", var_export($rl->unlock($lock), true), "\n";
echo "keys: ", $keysOn(), "\n";

// wait_replicas=1: the lock is on its master's replica when lock() returns.
ini_set('redis_lock.server', $c->dsn([$masters[0]], 'wait_replicas=1'));
$acked = [];
foreach ($masters as $m) {
    $key = substr($c->keyOn($m, 'lock:acked'), 5);
    $ok = RedisMutexLock::lock($key);
    $replica = $c->replicaOf($m);
    $replica->cmd('READONLY'); // a cluster replica serves reads only after READONLY
    $acked[] = $name($m) . ': ' . var_export($ok && rl_is_token($replica->cmd('GET', "lock:$key")), true);
    RedisMutexLock::release($key);
}
echo "wait_replicas=1, on the replica at once: ", implode(', ', $acked), "\n";

// Request end: a process that exits holding locks on all three masters releases each on its own.
$keys = array_map(fn (RedisServer $m) => substr($c->keyOn($m, 'lock:forgotten'), 5), $masters);
$r = PhpChild::run('<?php ini_set("redis_lock.server", $argv[1]);
foreach (array_slice($argv, 2) as $k) { echo RedisMutexLock::lock($k, 1, 60) ? "held " : "not held "; }', [], [$c->dsn([$masters[0]]), ...$keys]);
echo "child: ", trim($r['out']), ", exit ", $r['status'], "; keys after it ended: ", $keysOn(), "\n";
?>
--EXPECTF--
job-%d: lock true, token on M1: true, keys elsewhere: 0, held: true, waiters: 0, fence: integer, extend: true (PTTL > 59000: true), release: true
job-%d: lock true, token on M2: true, keys elsewhere: 0, held: true, waiters: 0, fence: integer, extend: true (PTTL > 59000: true), release: true
job-%d: lock true, token on M3: true, keys elsewhere: 0, held: true, waiters: 0, fence: integer, extend: true (PTTL > 59000: true), release: true
keys: M1=[] M2=[] M3=[], fence records on their keys' masters: M1: 1, M2: 1, M3: 1
tagged: true, both on M%d: ["lock:user:{42}:cart","lock:user:{42}:order"]
bool(true)
bool(true)
bool(true)
queued on M3: 4, places: 4, inspect waiters: 4, keys elsewhere: 0
bool(true)
waiter 0: true, released: true
waiter 1: true, released: true
waiter 2: true, released: true
waiter 3: true, released: true
order: 0 1 2 3, two holders at once: []
keys: M1=[] M2=[] M3=[]
bool(true)
renewed after 1.6 s: true, PTTL > 0: true
bool(true)
acquire: true, owner: true, on M2: true, releaseOwner: true
RedLock: locked, on M%d: true, extend: true, unlock: true
keys: M1=[] M2=[] M3=[]
wait_replicas=1, on the replica at once: M1: true, M2: true, M3: true
child: held held held, exit 0; keys after it ended: M1=[] M2=[] M3=[]
