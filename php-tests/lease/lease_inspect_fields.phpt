--TEST--
inspect(): exactly held/count/lost/holder/ttl/fence/waiters; for a free key, our hold (host, pid, since of the token stored in the key), a nested hold, queued waiters, another process looking at our lock, a key set by another library, a key without expiry
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:i';

$free = RedisMutexLock::inspect('i');
echo "keys: ", json_encode(array_keys($free)), "\n";
echo "free: ", json_encode($free), "\n";

$before = rl_unix_time();
var_dump(RedisMutexLock::lock('i', 0, 30));
$after = rl_unix_time();
$token = $redis->cmd('GET', $K);
$parts = rl_token_parts($token);
echo "token: ", $parts === null ? 'not a token: ' . var_export($token, true) : 'ok', "\n";
echo "token host is the sanitized host name: ", var_export($parts[1] === rl_lease_host(), true), ", pid: ", var_export($parts[2] === getmypid(), true),
    ", since (ms) when lock() began: ", var_export($parts[3] >= floor($before * 1000) - 5 && $parts[3] <= ceil($after * 1000), true), "\n";
$i = RedisMutexLock::inspect('i');
echo "held: ", json_encode(['held' => $i['held'], 'count' => $i['count'], 'lost' => $i['lost'], 'fence' => $i['fence'], 'waiters' => $i['waiters']]), "\n";
echo "holder: keys ", json_encode(array_keys($i['holder'])), ", host ", var_export($i['holder']['host'] === rl_lease_host(), true),
    ", pid ", var_export($i['holder']['pid'] === getmypid(), true),
    ", since is the token's in seconds: ", var_export(is_float($i['holder']['since']) && abs($i['holder']['since'] - $parts[3] / 1000) < 0.0015, true),
    ", ttl in (28000, 30000]: ", var_export(is_int($i['ttl']) && $i['ttl'] > 28000 && $i['ttl'] <= 30000, true), "\n";
$fence = RedisMutexLock::fence('i');
var_dump(RedisMutexLock::lock('i', 0, 30));
$i = RedisMutexLock::inspect('i');
echo "nested, after fence(): count ", $i['count'], ", fence ", var_export($i['fence'] === $fence && is_int($fence), true), "\n";

// Two waiters queued (other processes, lock() with a timeout).
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [
    ['key' => 'i', 'i' => 'a', 'timeout' => 20, 'hold' => 0.05],
    ['key' => 'i', 'i' => 'b', 'timeout' => 20, 'hold' => 0.05],
]);
echo "waiters: ", RedisMutexLock::inspect('i')['waiters'], "\n";

// Another process looks at our lock.
$seen = PhpChild::run("<?php\necho json_encode(RedisMutexLock::inspect('i'));\n", ['redis_lock.server' => $redis->dsn()]);
$o = json_decode($seen['out'], true);
if (!is_array($o)) {
    echo "other process: ", $seen['out'], $seen['err'], "\n";
}
echo "other process: held ", var_export($o['held'], true), ", count ", $o['count'], ", lost ", var_export($o['lost'], true),
    ", holder pid is ours: ", var_export($o['holder']['pid'] === getmypid(), true), ", fence ours: ", var_export($o['fence'] === $fence, true),
    ", waiters ", $o['waiters'], ", ttl > 0: ", var_export($o['ttl'] > 0, true), "\n";

var_dump(RedisMutexLock::release('i'), RedisMutexLock::release('i'));
foreach ($waiters as $name => $w) {
    $r = $w->result(10);
    echo "waiter $name: ", var_export($r['r'], true), "\n";
    $w->finish(5);
}
echo "after them: ", json_encode(RedisMutexLock::inspect('i')), "\n";

// Keys this library did not write.
$redis->cmd('SET', 'lock:raw', 'hello');
echo "raw value without expiry: ", json_encode(RedisMutexLock::inspect('raw')), "\n";
$redis->cmd('SET', 'lock:raw2', 'x:y:z:w', 'PX', 5000);
$r = RedisMutexLock::inspect('raw2');
echo "four fields, not ours: holder ", json_encode($r['holder']), ", ttl in (0, 5000]: ", var_export($r['ttl'] > 0 && $r['ttl'] <= 5000, true), "\n";
$redis->cmd('SET', 'lock:far', str_repeat('ab', 16) . ':other-host.example:42:1700000000123', 'PX', 5000);
$r = RedisMutexLock::inspect('far');
echo "another host's token: ", json_encode($r['holder']), ", held ", var_export($r['held'], true), "\n";
?>
--EXPECT--
keys: ["held","count","lost","holder","ttl","fence","waiters"]
free: {"held":false,"count":0,"lost":false,"holder":null,"ttl":null,"fence":null,"waiters":0}
bool(true)
token: ok
token host is the sanitized host name: true, pid: true, since (ms) when lock() began: true
held: {"held":true,"count":1,"lost":false,"fence":null,"waiters":0}
holder: keys ["host","pid","since"], host true, pid true, since is the token's in seconds: true, ttl in (28000, 30000]: true
bool(true)
nested, after fence(): count 2, fence true
waiters: 2
other process: held false, count 0, lost false, holder pid is ours: true, fence ours: true, waiters 2, ttl > 0: true
bool(true)
bool(true)
waiter a: true
waiter b: true
after them: {"held":false,"count":0,"lost":false,"holder":null,"ttl":null,"fence":null,"waiters":0}
raw value without expiry: {"held":false,"count":0,"lost":false,"holder":{"host":null,"pid":null,"since":null},"ttl":-1,"fence":null,"waiters":0}
four fields, not ours: holder {"host":null,"pid":null,"since":null}, ttl in (0, 5000]: true
another host's token: {"host":"other-host.example","pid":42,"since":1700000000.123}, held false
