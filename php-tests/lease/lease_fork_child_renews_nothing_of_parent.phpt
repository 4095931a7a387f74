--TEST--
redis_lock.auto_renew and pcntl_fork(): the child neither holds nor releases the parent's renewed lock (release() false, inspect() not held) and its end leaves it alone; the parent's renewals go on while and after the child runs; the child's own renewed lock is renewed in the child
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.auto_renew', '1');
$dir = rl_tmpdir('rl-fork');

var_dump(RedisMutexLock::lock('p', 0, 2));
$token = $redis->cmd('GET', 'lock:p');
$t0 = rl_now();
$pid = rl_fork(function () use ($redis, $dir): int {
    $out = [];
    $out['release parent'] = RedisMutexLock::release('p');
    $i = RedisMutexLock::inspect('p');
    $out['inspect parent'] = ['held' => $i['held'], 'count' => $i['count'], 'lost' => $i['lost']];
    $out['extend parent'] = RedisMutexLock::extend('p', 30);
    $out['own lock'] = RedisMutexLock::lock('c', 0, 1);
    $c = new RespClient('unix://' . $redis->socket);
    $mine = $c->cmd('GET', 'lock:c');
    rl_sleep(4.0);
    $out['own lock kept 4 s'] = $c->cmd('GET', 'lock:c') === $mine && rl_is_token($mine);
    $out['own release'] = RedisMutexLock::release('c');
    file_put_contents("$dir/child.json", json_encode($out));
    return 0;     // a normal exit: the child's request end runs
});
rl_sleep(2.5);
echo "parent's lock while the child runs: ", var_export($redis->cmd('GET', 'lock:p') === $token, true), "\n";
$code = rl_wait_bounded($pid, 20);
echo "child exit: $code, after ", (rl_now() - $t0 < 10 ? '< 10 s' : sprintf('%.1f s', rl_now() - $t0)), "\n";
foreach (json_decode((string) @file_get_contents("$dir/child.json"), true) ?? ['child' => 'no report'] as $k => $v) {
    echo "child: $k: ", json_encode($v), "\n";
}
$pttl = $redis->cmd('PTTL', 'lock:p');
echo "parent's lock after the child's end: ", var_export($redis->cmd('GET', 'lock:p') === $token, true), ", PTTL in (0, 2000]: ",
    var_export($pttl > 0 && $pttl <= 2000, true), "\n";
rl_sleep(2.5);
echo "and 2.5 s later: ", var_export($redis->cmd('GET', 'lock:p') === $token, true), "\n";
$i = RedisMutexLock::inspect('p');
echo "parent inspect: held ", var_export($i['held'], true), ", count ", $i['count'], ", lost ", var_export($i['lost'], true), "\n";
var_dump(RedisMutexLock::release('p'));
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
bool(true)
parent's lock while the child runs: true
child exit: 0, after < 10 s
child: release parent: false
child: inspect parent: {"held":false,"count":0,"lost":false}
child: extend parent: false
child: own lock: true
child: own lock kept 4 s: true
child: own release: true
parent's lock after the child's end: true, PTTL in (0, 2000]: true
and 2.5 s later: true
parent inspect: held true, count 1, lost false
bool(true)
keys: []
