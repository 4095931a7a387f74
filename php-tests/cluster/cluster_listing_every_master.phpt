--TEST--
Redis Cluster (6 real nodes, 3 masters): RedisLock::locks() finds the locks on every master (SCAN on each, never on a replica), each entry naming the master that answered, a waiter on one of them in line; describe() of a key follows it to its master; with a redis-cluster:// DSN naming one seed; a process that ends holding locks in two slots of one master has both released at its request end
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$c = RlCluster::start();
$masters = $c->masters();
ini_set('redis_lock.server', $c->dsn([$masters[0]]));
// A process that ends holding locks in two slots of one master: request end
// releases both (one pipeline per slot, both to the same server).
$m = $masters[1];
$a = substr($c->keyOn($m, 'lock:a'), 5);
$b = substr($c->keyOn($m, 'lock:b'), 5);
while ($c->slot("lock:$b") === $c->slot("lock:$a")) {
    $b = substr($c->keyOn($m, 'lock:b' . mt_rand()), 5);
}
$child = rl_fork(fn (): int => RedisMutexLock::lock($a, 0, 30) && RedisMutexLock::lock($b, 0, 30) ? 0 : 1);
echo "child that kept two slots' locks: ", rl_wait($child), ", left: ", $m->cmd('EXISTS', "lock:$a") + $m->cmd('EXISTS', "lock:$b"), "\n";

$want = [];
foreach ($masters as $i => $m) {
    $key = substr($c->keyOn($m, 'lock:job'), strlen('lock:'));
    RedisMutexLock::lock($key, 0, 30);
    $want[$key] = "127.0.0.1:{$m->port}";
}
RedisSemaphore::acquire('pool', 2, 0, 30);
$want['pool'] = '127.0.0.1:' . $c->masterOfKey('lock:pool')->port;
$first = array_key_first($want);
$waiter = rl_fork(fn (): int => RedisMutexLock::lock($first, 10, 5) && RedisMutexLock::release($first) ? 0 : 1);
rl_eventually(fn () => count(RedisLock::describe($first)['waiters'] ?? []), 1, 5.0);

$list = RedisLock::locks('*');
$got = array_column($list, 'node', 'key');
ksort($want);
echo "every lock, each on its master: ", var_export($got === $want, true), " (", count($got), " locks on ", count(array_unique($got)), " masters)\n";
echo "waiter in line: ", count(array_column($list, null, 'key')[$first]['waiters']), "\n";
echo "describe follows the key: ", var_export(RedisLock::describe('pool')['node'] === $want['pool'], true), "\n";
var_dump(RedisMutexLock::release($first));
echo "waiter: ", rl_wait($waiter), "\n";
foreach (array_keys($want) as $key) {
    $key === 'pool' ? RedisSemaphore::release($key) : RedisMutexLock::release($key);
}
echo "after: ", count(RedisLock::locks('*')), "\n";

?>
--EXPECT--
child that kept two slots' locks: 0, left: 0
every lock, each on its master: true (4 locks on 3 masters)
waiter in line: 1
describe follows the key: true
bool(true)
waiter: 0
after: 0
