--TEST--
RedisLock::locks() and describe(): every kind of lock under a pattern (a mutex with two queued waiters in order, a read/write lock with a writer waiting, a semaphore, a hand-rolled SET NX lock), each with its holders (host, pid, since, label, TTL, fence) and waiters (waited and place times); helper keys, other libraries' sorted sets and keys outside the pattern are not listed; the limit cuts the list; a prefix's glob characters match only themselves; bad arguments and a server that is down throw
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.label', 'web req#1'); // kept as tokens carry it: web_req_1

var_dump(RedisMutexLock::lock('orders:1', 0, 30));
$fence = RedisMutexLock::fence('orders:1');
$waiters = [];
foreach (['w-first', 'w-second'] as $label) {
    $waiters[$label] = rl_fork(function () use ($label): int {
        RedisLock::setLabel($label);
        return RedisMutexLock::lock('orders:1', 10, 5) && RedisMutexLock::release('orders:1') ? 0 : 1;
    });
    // Each in line before the next comes.
    rl_eventually(fn () => count(RedisLock::describe('orders:1')['waiters'] ?? []), count($waiters), 5.0);
}
var_dump(RedisReadWriteLock::lockRead('report', 0, 20));
$writer = rl_fork(fn (): int => RedisReadWriteLock::lockWrite('report', 10, 5) && RedisReadWriteLock::release('report') ? 0 : 1);
rl_eventually(fn () => count(RedisLock::describe('report')['waiters'] ?? []), 1, 5.0);
RedisLock::setLabel('batch-7');
var_dump(RedisSemaphore::acquire('pool', 3, 0, 20));
$redis->cmd('SET', 'lock:legacy', '1', 'PX', 60000);           // somebody's SET NX lock
$redis->cmd('ZADD', 'lock:foreign', 1, 'not-ours');              // another library's sorted set
$redis->cmd('SET', 'other:thing', 'x');                          // outside the prefix

$list = RedisLock::locks('*');
echo "keys: ", implode(' ', array_column($list, 'key')), "\n";
echo "kinds: ", implode(' ', array_column($list, 'kind')), "\n";
$by = array_column($list, null, 'key');
$m = $by['orders:1'];
$h = $m['holders'][0];
printf("mutex: redis_key %s, node is the server: %s, ttl in (25000, 30000]: %s, fence is ours: %s, queued %d\n",
    $m['redis_key'], var_export($m['node'] === "127.0.0.1:{$redis->port}", true), var_export($m['ttl_ms'] > 25000 && $m['ttl_ms'] <= 30000, true),
    var_export($m['fence'] === $fence, true), $m['queued']);
printf("holder: host %s, pid is us: %s, since within 10 s: %s, label %s, token is the key's value: %s\n",
    var_export($h['host'] === gethostname() || str_contains($h['token'], ":{$h['host']}:"), true), var_export($h['pid'] === getmypid(), true),
    var_export(abs(microtime(true) - $h['since']) < 10, true), $h['label'], var_export(str_starts_with($redis->cmd('GET', 'lock:orders:1'), $h['token']), true));
[$w1, $w2] = $m['waiters'];
printf("waiters in order: %s %s, pids: %s, waited first > second >= 0: %s, places alive: %s\n",
    $w1['label'], $w2['label'], var_export([$w1['pid'], $w2['pid']] === array_values($waiters), true),
    var_export($w1['waited_ms'] > $w2['waited_ms'] && $w2['waited_ms'] >= 0, true), var_export($w1['place_ms'] > 0 && $w2['place_ms'] > 0, true));
$rw = $by['report'];
printf("read-write: holder mode %s label %s, waiter mode %s, ttl %s\n", $rw['holders'][0]['mode'], $rw['holders'][0]['label'], $rw['waiters'][0]['mode'],
    var_export($rw['holders'][0]['ttl_ms'] > 15000, true));
$s = $by['pool'];
printf("semaphore: limit %d weight %d label %s\n", $s['holders'][0]['limit'], $s['holders'][0]['weight'], $s['holders'][0]['label']);
$l = $by['legacy'];
printf("legacy: kind %s, token %s, host %s, ttl %s\n", $l['kind'], $l['holders'][0]['token'], var_export($l['holders'][0]['host'], true), var_export($l['ttl_ms'] > 50000, true));

echo "pattern orders:*: ", implode(' ', array_column(RedisLock::locks('orders:*'), 'key')), "\n";
echo "limit 2: ", count(RedisLock::locks('*', 2)), "\n";
var_dump(RedisLock::describe('nothing-here'), RedisLock::describe('foreign'));
echo "describe = list entry (but for times): ", var_export(array_keys(RedisLock::describe('orders:1')) === array_keys($m), true), "\n";

foreach ([fn () => RedisLock::locks(''), fn () => RedisLock::locks('*', 0), fn () => RedisLock::describe('')] as $bad) {
    try { $bad(); } catch (Throwable $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
}
var_dump(RedisMutexLock::release('orders:1'), RedisReadWriteLock::release('report'), RedisSemaphore::release('pool'));
foreach ([...array_values($waiters), $writer] as $pid) {
    echo "child: ", rl_wait($pid), "\n";
}
echo "after: ", implode(' ', array_column(RedisLock::locks('*'), 'key')), "\n";
// The prefix matches only itself, its glob characters too.
ini_set('redis_lock.prefix', 'app[1]:');
RedisMutexLock::lock('x', 0, 10);
$redis->cmd('SET', 'app1:y', '1');
echo "a prefix with glob characters: ", implode(' ', array_column(RedisLock::locks('*'), 'redis_key')), "\n";
RedisMutexLock::release('x');
ini_restore('redis_lock.prefix');
$redis->kill();
try { RedisLock::locks('*'); } catch (RedisLockException $e) { echo get_class($e), ": ", preg_replace('/:\d+/', ':PORT', $e->getMessage()), "\n"; }
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
keys: legacy orders:1 pool report
kinds: mutex mutex semaphore read-write
mutex: redis_key lock:orders:1, node is the server: true, ttl in (25000, 30000]: true, fence is ours: true, queued 2
holder: host true, pid is us: true, since within 10 s: true, label web_req_1, token is the key's value: true
waiters in order: w-first w-second, pids: true, waited first > second >= 0: true, places alive: true
read-write: holder mode read label web_req_1, waiter mode write, ttl true
semaphore: limit 3 weight 1 label batch-7
legacy: kind mutex, token 1, host NULL, ttl true
pattern orders:*: orders:1
limit 2: 2
NULL
NULL
describe = list entry (but for times): true
ValueError: RedisLock::locks(): Argument #1 ($pattern) must not be empty
ValueError: RedisLock::locks(): Argument #2 ($limit) must be between 1 and 100000
ValueError: RedisLock::describe(): Argument #1 ($key) must not be empty
bool(true)
bool(true)
bool(true)
child: 0
child: 0
child: 0
after: legacy
a prefix with glob characters: app[1]:x
RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: Connection refused (os error 111)
