--TEST--
RedisMutexLock::lock() with a timeout returns true soon after the holder (another process) releases
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

// The holder releases once this process waits in the queue (or after 5 s),
// and prints the moment just before its release (rl_now(): CLOCK_MONOTONIC,
// the same clock in every process).
$holder = new PhpChild("<?php\nrequire " . var_export(__DIR__ . '/../inc/redis_server.inc', true) . ";\n" . <<<'PHP'
var_dump(RedisMutexLock::lock('queue', 0, 30));
echo "held\n";
echo "waiter queued: ", json_encode(rl_eventually(fn () => RedisMutexLock::inspect('queue')['waiters'], 1, 5.0)), "\n";
$at = rl_now();
var_dump(RedisMutexLock::release('queue'));
printf("released at %.6f\n", $at);
PHP, ['redis_lock.server' => $redis->dsn()]);

echo $holder->readLine(), "\n", $holder->readLine(), "\n";
$theirs = $redis->cmd('GET', 'lock:queue');
$r = RedisMutexLock::lock('queue', 3);
$end = rl_now();
$res = $holder->wait();
$released = preg_match('/^released at ([0-9.]+)$/m', $res['out'], $m) ? (float) $m[1] : INF;
echo preg_replace('/^released at .*\n/m', '', $res['out']), $res['err'];
$since = $end - $released;
printf("waiter: %s, returned after the release, within 0.7 s of it: %s (%.3f)\n", rl_show($r), var_export($since > 0 && $since < 0.7, true), $since);
$mine = $redis->cmd('GET', 'lock:queue');
echo "new token: ", var_export(rl_is_token($mine) && $mine !== $theirs, true), "\n";
var_dump(RedisMutexLock::release('queue'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
bool(true)
held
waiter queued: 1
bool(true)
waiter: true, returned after the release, within 0.7 s of it: true (%f)
new token: true
bool(true)
keys: []
