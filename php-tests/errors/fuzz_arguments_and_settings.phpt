--TEST--
Fuzz (short run): random values of every type for every parameter of both classes and every redis_lock.* setting give the declared return type or exactly TypeError/ValueError/ArgumentCountError/RedisLockException, invalid input sends no command to Redis, PHP never crashes (make fuzz: the long run)
--FILE--
<?php
require_once __DIR__ . '/../inc/redis_server.inc';
// The checker itself: it sees the commands of a valid call.
require __DIR__ . '/../fuzz/child.inc';
$redis = RedisServer::start();
$client = new RespClient("tcp://127.0.0.1:{$redis->port}");
ini_set('redis_lock.server', $redis->dsn());
$before = fuzz_commands($client);
RedisMutexLock::lock('seen');
RedisMutexLock::release('seen');
echo "a valid lock and release are counted: ", var_export(array_sum(fuzz_settled($client)) - array_sum($before) >= 2, true), "\n";

$r = PhpChild::run('', [], [], false, [__DIR__ . '/../fuzz/fuzz.php', '--calls=5000'], 120);
echo $r['out'], $r['err'], "exit ", $r['status'], "\n";
// Loose: on a loaded 2-CPU machine (a matrix cell beside other tests) it took over 20 s.
echo "within 60 s: ", $r['seconds'] < 60 ? 'true' : sprintf('false (%.1f s)', $r['seconds']), "\n";
?>
--EXPECTF--
a valid lock and release are counted: true
fuzz: seed %d, calls 0 to 4999 (replay: php php-tests/fuzz/fuzz.php --seed=%d --from=I --calls=I+1)
fuzz: 5000 calls, 0 crashes, 0 wrong exception classes, 0 wrong return types, 0 invalid calls that reached Redis (seed %d)
exit 0
within 60 s: true
