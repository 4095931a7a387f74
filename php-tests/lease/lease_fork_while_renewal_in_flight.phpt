--TEST--
pcntl_fork() while renewals are in flight: the parent's renewals go through a slow link (200 ms round trips: one is in flight much of the time); 12 children forked meanwhile each take and release their own lock, see the parent's as not theirs and exit promptly (no lock inherited in a locked state); the parent's locks stay renewed
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
$proxy = new RlDelayProxy($redis, 100);
ini_set('redis_lock.server', "redis://127.0.0.1:{$proxy->port}");
ini_set('redis_lock.auto_renew', '1');
$keys = ['p0', 'p1', 'p2'];
foreach ($keys as $k) {
    RedisMutexLock::lock($k, 0, 2) || print("lock $k failed\n");
}
$tokens = array_map(fn ($k) => $redis->cmd('GET', "lock:$k"), $keys);
$direct = $redis->dsn();
$dir = rl_tmpdir('rl-forks');

$pids = [];
for ($n = 0; $n < 12; $n++) {
    rl_sleep(0.09);
    $pids[$n] = rl_fork(function () use ($n, $direct, $dir): int {
        ini_set('redis_lock.server', $direct);
        $r = [
            RedisMutexLock::lock("child-$n", 0, 5),
            RedisMutexLock::release("child-$n"),
            RedisMutexLock::inspect('p0')['held'],
            RedisMutexLock::release('p1'),
        ];
        file_put_contents("$dir/$n", json_encode($r));
        return 0;
    });
}
$codes = [];
$reports = [];
$t = rl_now();
foreach ($pids as $n => $pid) {
    $codes[] = rl_wait_bounded($pid, max(1.0, 15 - (rl_now() - $t)));
    $reports[] = (string) @file_get_contents("$dir/$n");
}
echo "children's exit codes: ", json_encode($codes), ", all done within 15 s: ", var_export(rl_now() - $t < 15, true), "\n";
echo "children saw: ", json_encode(array_count_values($reports)), "\n";
rl_sleep(1.0);
echo "parent's locks renewed throughout: ", var_export(array_map(fn ($k) => $redis->cmd('GET', "lock:$k"), $keys) === $tokens, true), "\n";
foreach ($keys as $k) {
    echo "release $k: ", rl_show(RedisMutexLock::release($k)), "\n";
}
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
children's exit codes: [0,0,0,0,0,0,0,0,0,0,0,0], all done within 15 s: true
children saw: {"[true,true,false,false]":12}
parent's locks renewed throughout: true
release p0: true
release p1: true
release p2: true
keys: []
