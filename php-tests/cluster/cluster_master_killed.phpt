--TEST--
Redis Cluster, unplanned failover: a master killed (SIGKILL) or stopped (SIGSTOP) makes locks on its slots fail with a RedisLockException naming it, within the timeouts, while keys on the other masters keep working; once its replica has taken over (the cluster's own failover), the same call locks on the new master without any other change
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$c = RlCluster::start();
[$m1, $m2, $m3] = $c->masters();
ini_set('redis_lock.server', $c->dsn());
ini_set('redis_lock.connect_timeout', '0.3');
ini_set('redis_lock.read_timeout', '0.3');

foreach (['kill' => $m1, 'pause' => $m2] as $how => $m) {
    $replica = $c->replicaOf($m);
    $key = substr($c->keyOn($m, "lock:$how"), 5);
    $other = substr($c->keyOn($m3, "lock:$how"), 5);
    echo "$how: before, lock ", var_export(RedisMutexLock::lock($key) && RedisMutexLock::release($key), true), "\n";
    $how === 'kill' ? $m->kill() : $m->pause();
    [$r, $secs] = rl_timed(fn () => RedisMutexLock::lock($key));
    echo "$how: lock on its slot: ", preg_replace('/127\.0\.0\.1:\d+/', 'ADDR', rl_show($r)), ", < 2 s: ", var_export($secs < 2, true), "\n";
    echo "$how: a key on another master meanwhile: ", var_export(RedisMutexLock::lock($other) && RedisMutexLock::release($other), true), "\n";
    // The cluster fails over by itself (cluster-node-timeout 1 s).
    $promoted = rl_eventually(fn () => $replica->cmd('ROLE')[0], 'master', 20.0);
    echo "$how: its replica took over: ", var_export($promoted === 'master', true), "\n";
    $ok = rl_eventually(function () use ($key) {
        try {
            return RedisMutexLock::lock($key);
        } catch (RedisLockException) {
            return false;
        }
    }, true, 10.0);
    echo "$how: lock afterwards: ", var_export($ok, true), ", on the new master: ", var_export(rl_is_token($replica->cmd('GET', "lock:$key")), true),
        ", release: ", var_export(RedisMutexLock::release($key), true), "\n";
    if ($how === 'pause') {
        $m->resume();
    }
}
?>
--EXPECTF--
kill: before, lock true
kill: lock on its slot: RedisLockException: Redis at ADDR: %s, < 2 s: true
kill: a key on another master meanwhile: true
kill: its replica took over: true
kill: lock afterwards: true, on the new master: true, release: true
pause: before, lock true
pause: lock on its slot: RedisLockException: Redis at ADDR: no reply within 0.3 s, < 2 s: true
pause: a key on another master meanwhile: true
pause: its replica took over: true
pause: lock afterwards: true, on the new master: true, release: true
