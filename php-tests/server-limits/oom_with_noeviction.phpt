--TEST--
Server limits: maxmemory with noeviction (every write that may grow memory refused with OOM). Every call of every class (mutex with and without its queue, owner-level acquire, RedLock, read/write lock, semaphore) either takes the lock for real or throws a RedisLockException that names OOM, never false for a free name and never a half-taken lock; a RedLock with one OOM node of three still locks; holders release under OOM; waiters queued before it either get the lock handed over or fail with OOM, before their timeout; once memory is back, nothing of ours is left and every name can be taken at once by another process
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_limits.inc';
$redis = RedisServer::start(['--maxmemory-policy', 'noeviction']);
$n2 = RedisServer::start();
$n3 = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$servers = [$redis, $n2, $n3];

// Before the limit: a holder of each kind, and a waiter queued behind each.
$holder = new RlActor($redis);
echo "holds: ", json_encode([$holder->result('RedisMutexLock::lock', 'm', 0, 20), $holder->result('RedisReadWriteLock::lockWrite', 'rw', 0, 20),
    $holder->result('RedisSemaphore::acquire', 'sem', 1, 0, 20)]), "\n";
$waiters = ['m' => new RlActor($redis), 'rw' => new RlActor($redis), 'sem' => new RlActor($redis)];
$waiters['m']->send('RedisMutexLock::lock', 'm', 6.0, 20, 100000);
$waiters['rw']->send('RedisReadWriteLock::lockRead', 'rw', 6.0, 20);
$waiters['sem']->send('RedisSemaphore::acquire', 'sem', 1, 6.0, 20);
$queued = rl_eventually(fn () => RedisMutexLock::inspect('m')['waiters'] === 1 && RedisReadWriteLock::inspect('rw')['waiters'] === 1
    && RedisSemaphore::inspect('sem')['waiters'] === 1, true, 5.0);
echo "waiters queued: ", var_export($queued, true), "\n";

rl_limits_oom($redis);
$oomAt = rl_now();

/**
 * A call under OOM: "OOM" when it threw a RedisLockException naming OOM and
 * nothing of $names is ours afterwards; "taken" when it returned true and
 * this process holds it; anything else as it is (a bug).
 */
function under_oom(callable $call, callable $held): string
{
    try {
        $r = $call();
    } catch (RedisLockException $e) {
        $ok = str_contains($e->getMessage(), "OOM command not allowed when used memory > 'maxmemory'");
        return ($ok ? 'OOM' : 'unclear: ' . $e->getMessage()) . ($held() ? ' (BUT HELD)' : '');
    } catch (Throwable $e) {
        return 'unexpected ' . rl_show($e);
    }
    if ($r === true || is_array($r)) {
        return $held() ? 'taken' : 'true but not held';
    }
    return rl_show($r);
}

// timeout 0: a plain SET NX is refused by Redis before anything else.
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('free-0', 0));
echo "mutex, timeout 0: ", rl_mask_ports(rl_show($r), $servers), ", key: ", $redis->cmd('EXISTS', 'lock:free-0'), ", at once: ", var_export($secs < 0.5, true), "\n";
echo "mutex, timeout 0, held name: ", rl_mask_ports(rl_limits_outcome(fn () => RedisMutexLock::lock('m', 0)), $servers), "\n";
$owner = RedisMutexLock::newOwner();
echo "owner acquire: ", under_oom(fn () => RedisMutexLock::acquire('own', $owner, 5000), fn () => RedisMutexLock::owner('own') === $owner), "\n";
// The others go by script: Redis lets a script on that has already written (a
// cleanup), so they may take the lock: either is fine, a half-taken one is not.
$checks = [
    'mutex queued, free name' => [fn () => RedisMutexLock::lock('free-q', 1.0), fn () => RedisMutexLock::inspect('free-q')['held']],
    'read lock, free name' => [fn () => RedisReadWriteLock::lockRead('rw-free', 0), fn () => RedisReadWriteLock::inspect('rw-free')['held']],
    'write lock, free name' => [fn () => RedisReadWriteLock::lockWrite('rw-free2', 0.5), fn () => RedisReadWriteLock::inspect('rw-free2')['held']],
    'semaphore, free name' => [fn () => RedisSemaphore::acquire('sem-free', 2, 0.5), fn () => RedisSemaphore::inspect('sem-free')['held']],
];
foreach ($checks as $name => [$call, $held]) {
    [$r, $secs] = rl_timed(fn () => under_oom($call, $held));
    echo "$name: ", in_array($r, ['OOM', 'taken'], true) ? 'OOM or taken' : $r, ", within 2 s: ", var_export($secs < 2, true), "\n";
}
// A held name, queued under OOM: false at its timeout, or OOM; never held.
foreach ([
    'mutex' => [fn () => RedisMutexLock::lock('m', 0.5), fn () => RedisMutexLock::inspect('m')['held']],
    'write lock' => [fn () => RedisReadWriteLock::lockWrite('rw', 0.5), fn () => RedisReadWriteLock::inspect('rw')['held']],
    'semaphore' => [fn () => RedisSemaphore::acquire('sem', 1, 0.5), fn () => RedisSemaphore::inspect('sem')['held']],
] as $name => [$call, $held]) {
    $r = under_oom($call, $held);
    echo "$name, held name, queued: ", in_array($r, ['OOM', 'false'], true) ? 'OOM or false' : $r, "\n";
}

// RedLock: all three nodes OOM is an outage naming OOM; one OOM node of three is one failed vote.
rl_limits_oom($n2);
rl_limits_oom($n3);
$rl = new RedLock(rl_redlock_list($servers, 0.5), 10, 2);
[$r, $secs] = rl_timed(fn () => $rl->lock('rl', 5000));
$msg = rl_mask_ports(rl_show($r), $servers);
echo "RedLock, every node OOM: ", strstr($msg, ' Redis at', true), " names OOM for each node it lists (it stops at 2 failures of 3): ",
    substr_count($msg, 'OOM command not allowed') >= 2 && substr_count($msg, 'OOM command not allowed') === substr_count($msg, 'Redis at ') ? 'true' : "false ($msg)", ", keys: ", json_encode(array_map(fn ($s) => $s->cmd('EXISTS', 'rl'), $servers)), "\n";
rl_limits_no_oom($n2);
rl_limits_no_oom($n3);
$lock = $rl->lock('rl', 5000);
echo "RedLock, one OOM node of three: ", is_array($lock) ? 'locked' : rl_show($lock), ", on the other two: ", $n2->cmd('EXISTS', 'rl') + $n3->cmd('EXISTS', 'rl'),
    ", unlock: ", rl_limits_outcome(fn () => $rl->unlock($lock)), "\n";

// The holder releases under OOM (a release frees memory): the waiters get the lock or fail with OOM, before their timeout.
foreach ([['RedisMutexLock::release', 'm'], ['RedisReadWriteLock::release', 'rw'], ['RedisSemaphore::release', 'sem']] as [$m, $k]) {
    echo "holder's release of $k under OOM: ", rl_mask_ports(rl_limits_answer($holder->call($m, $k), $servers), $servers), "\n";
}
$relAt = rl_now();
foreach ($waiters as $k => $w) {
    $a = $w->answer(15);
    $out = rl_limits_answer($a, $servers);
    $ok = $out === 'true' || str_contains($out, "RedisLockException: Redis at 127.0.0.1:P1: error reply: OOM command not allowed");
    printf("waiter on %s: %s, before its timeout: %s\n", $k, $ok ? 'true or OOM' : $out, var_export($a['end'] - $a['start'] < 6.0, true));
}
foreach ($waiters as $k => $w) {
    $w->finish();
}
$holder->finish();

// Memory back: nothing of ours is left once everybody released, and another process takes every name at once.
rl_limits_no_oom($redis);
foreach (['free-q', 'own'] as $k) {
    RedisMutexLock::inspect($k)['held'] && RedisMutexLock::release($k);
}
RedisMutexLock::releaseOwner('own', $owner);
RedisReadWriteLock::inspect('rw-free')['held'] && RedisReadWriteLock::release('rw-free');
RedisReadWriteLock::inspect('rw-free2')['held'] && RedisReadWriteLock::release('rw-free2');
RedisSemaphore::inspect('sem-free')['held'] && RedisSemaphore::release('sem-free');
echo "keys of ours left: ", json_encode(rl_eventually(fn () => rl_limits_ours($redis), [], 2.0)), "\n";
$late = new RlActor($redis);
$took = [];
foreach (['free-0', 'free-q', 'm', 'own'] as $k) {
    $took[] = $late->result('RedisMutexLock::lock', $k, 0, 5);
}
foreach (['rw', 'rw-free', 'rw-free2'] as $k) {
    $took[] = $late->result('RedisReadWriteLock::lockWrite', $k, 0, 5);
}
foreach (['sem', 'sem-free'] as $k) {
    $took[] = $late->result('RedisSemaphore::acquire', $k, 1, 0, 5);
}
echo "another process takes every name at once: ", json_encode($took), "\n";
$late->finish();
echo "keys of ours left after it: ", json_encode(rl_eventually(fn () => rl_limits_ours($redis), [], 2.0)), "\n";
?>
--EXPECT--
holds: [true,true,true]
waiters queued: true
mutex, timeout 0: RedisLockException: Redis at 127.0.0.1:P1: error reply: OOM command not allowed when used memory > 'maxmemory'., key: 0, at once: true
mutex, timeout 0, held name: RedisLockException: Redis at 127.0.0.1:P1: error reply: OOM command not allowed when used memory > 'maxmemory'.
owner acquire: OOM
mutex queued, free name: OOM or taken, within 2 s: true
read lock, free name: OOM or taken, within 2 s: true
write lock, free name: OOM or taken, within 2 s: true
semaphore, free name: OOM or taken, within 2 s: true
mutex, held name, queued: OOM or false
write lock, held name, queued: OOM or false
semaphore, held name, queued: OOM or false
RedLock, every node OOM: RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: names OOM for each node it lists (it stops at 2 failures of 3): true, keys: [0,0,0]
RedLock, one OOM node of three: locked, on the other two: 2, unlock: true
holder's release of m under OOM: true
holder's release of rw under OOM: true
holder's release of sem under OOM: true
waiter on m: true or OOM, before its timeout: true
waiter on rw: true or OOM, before its timeout: true
waiter on sem: true or OOM, before its timeout: true
keys of ours left: []
another process takes every name at once: [true,true,true,true,true,true,true,true,true]
keys of ours left after it: []
