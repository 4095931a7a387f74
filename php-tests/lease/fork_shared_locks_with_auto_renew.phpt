--TEST--
Audit, PHP itself: pcntl_fork() in a process holding a RedisReadWriteLock read hold, a write lock and a RedisSemaphore permit with redis_lock.auto_renew=1 and a 1 s lease (its renewal thread running): the child holds none of them (release() and extend() false, inspect() not held, count 0), takes holds of its own beside them (a read hold, the second permit; the write lock is refused) that its own renewals keep past their 1 s lease, and its end (exit(5) with a hold still taken) releases only its own; the parent's holds are renewed throughout and after the child's end (over 4 s on a 1 s lease) and released by the parent; nothing left
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_php.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.auto_renew', '1');
$dir = rl_tmpdir('rl-fork');
$parent = getmypid();

var_dump(RedisReadWriteLock::lockRead('fr', 0, 1), RedisReadWriteLock::lockWrite('fw', 0, 1), RedisSemaphore::acquire('fs', 2, 0, 1));
$names = fn (int $child = 0) => [$parent => 'parent', $child => 'child'];
$held = fn (int $child = 0) => implode(', ', array_map(fn ($k) => "$k " . rl_php_holds($redis, "lock:$k", $names($child)), ['fr', 'fw', 'fs']));

$t0 = rl_now();
$pid = rl_fork(function () use ($redis, $dir, $parent): int {
    $me = getmypid();
    // A connection of its own: the helper's connection is the parent's.
    $c = new RespClient('unix://' . $redis->socket);
    $mine = function (string $k) use ($c, $me, $parent): string {
        $holds = [];
        $z = $c->cmd('ZRANGE', "lock:$k", 0, -1);
        foreach ($z as $m) {
            $pid = rl_token_parts(substr($m, strpos($m, '|') + 1))[2] ?? 0;
            $holds[] = $m[0] . ':' . ($pid === $me ? 'child' : ($pid === $parent ? 'parent' : "pid$pid"));
        }
        sort($holds);
        return implode(' ', $holds);
    };
    $out = [];
    $out['release the parent\'s'] = [RedisReadWriteLock::release('fr'), RedisReadWriteLock::release('fw'), RedisSemaphore::release('fs')];
    $out['extend the parent\'s'] = [RedisReadWriteLock::extend('fr', 30), RedisReadWriteLock::extend('fw', 30), RedisSemaphore::extend('fs', 30)];
    $out['inspect: held, count, mode'] = array_map(fn ($i) => [$i['held'], $i['count'], $i['mode'] ?? null],
        [RedisReadWriteLock::inspect('fr'), RedisReadWriteLock::inspect('fw'), RedisSemaphore::inspect('fs')]);
    $out['take its own: read, write, permit'] = [RedisReadWriteLock::lockRead('fr', 0, 1), RedisReadWriteLock::lockWrite('fw', 0, 1), RedisSemaphore::acquire('fs', 2, 0, 1)];
    $out['holds'] = [$mine('fr'), $mine('fw'), $mine('fs')];
    rl_sleep(2.5); // 2.5 leases: only renewals keep its own holds
    $out['after 2.5 s'] = [$mine('fr'), $mine('fw'), $mine('fs')];
    $i = RedisSemaphore::inspect('fs');
    $out['its permit: held, count, lost'] = [$i['held'], $i['count'], $i['lost']];
    $out['release its read hold'] = RedisReadWriteLock::release('fr');
    file_put_contents("$dir/child.json", json_encode($out));
    exit(5); // its permit still taken: its request end releases it
});
rl_sleep(1.5);
echo "while the child runs (1.5 s): ", $held($pid), "\n";
$code = rl_wait_bounded($pid, 15);
echo "child: exit $code, after ", rl_now() - $t0 < 8 ? '< 8 s' : sprintf('%.1f s', rl_now() - $t0), "\n";
foreach (json_decode((string) @file_get_contents("$dir/child.json"), true) ?? ['report' => 'none'] as $k => $v) {
    echo "child: $k: ", json_encode($v), "\n";
}
echo "after the child's end: ", $held($pid), "\n";
rl_sleep(1.5);
echo "1.5 s later: ", $held(), "; leases left in (0, 1000] ms: ";
$ttls = [];
foreach (['fr', 'fw', 'fs'] as $k) {
    [, $min, $max] = rl_php_holds($redis, "lock:$k", $names(), true);
    $ttls[] = $min !== null && $min > 0 && $max <= 1000 ? 'true' : "false ($min..$max)";
}
echo implode(' ', $ttls), "\n";
foreach ([RedisReadWriteLock::inspect('fr'), RedisReadWriteLock::inspect('fw'), RedisSemaphore::inspect('fs')] as $i) {
    echo "parent's inspect: held ", var_export($i['held'], true), ", count ", $i['count'], ", lost ", var_export($i['lost'], true), "\n";
}
var_dump(RedisReadWriteLock::release('fr'), RedisReadWriteLock::release('fw'), RedisSemaphore::release('fs'));
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
while the child runs (1.5 s): fr r:child r:parent, fw w:parent, fs s:child s:parent
child: exit 5, after < 8 s
child: release the parent's: [false,false,false]
child: extend the parent's: [false,false,false]
child: inspect: held, count, mode: [[false,0,null],[false,0,null],[false,0,null]]
child: take its own: read, write, permit: [true,false,true]
child: holds: ["r:child r:parent","w:parent","s:child s:parent"]
child: after 2.5 s: ["r:child r:parent","w:parent","s:child s:parent"]
child: its permit: held, count, lost: [true,1,false]
child: release its read hold: true
after the child's end: fr r:parent, fw w:parent, fs s:parent
1.5 s later: fr r:parent, fw w:parent, fs s:parent; leases left in (0, 1000] ms: true true true
parent's inspect: held true, count 1, lost false
parent's inspect: held true, count 1, lost false
parent's inspect: held true, count 1, lost false
bool(true)
bool(true)
bool(true)
keys: []
