--TEST--
RedisMutexLock::lock() with a timeout returns true soon after the holder (another process) releases
--FILE--
<?php
require __DIR__ . '/inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$holder = new PhpChild(<<<'PHP'
<?php
var_dump(RedisMutexLock::lock('queue', 0, 30));
echo "held\n";
usleep(800000);
var_dump(RedisMutexLock::release('queue'));
PHP, ['redis_lock.server' => $redis->dsn()]);

echo $holder->readLine(), "\n", $holder->readLine(), "\n";
$theirs = $redis->cmd('GET', 'lock:queue');
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('queue', 3));
$res = $holder->wait();
echo $res['out'], $res['err'];
printf("waiter: %s after 0.5..1.5 s: %s (%.3f)\n", rl_show($r), var_export($secs > 0.5 && $secs < 1.5, true), $secs);
$mine = $redis->cmd('GET', 'lock:queue');
echo "new token: ", var_export(rl_is_token($mine) && $mine !== $theirs, true), "\n";
var_dump(RedisMutexLock::release('queue'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
bool(true)
held
bool(true)
waiter: true after 0.5..1.5 s: true (%f)
new token: true
bool(true)
keys: []
