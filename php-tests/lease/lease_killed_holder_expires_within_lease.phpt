--TEST--
redis_lock.auto_renew: a holder SIGKILLed after holding past its 2 s lease (renewed) stops renewing with it: the key is gone within the lease (+ margin) after the kill and another process can take it
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$child = rl_child(<<<'PHP'
<?php
$ok = RedisMutexLock::lock('k', 0, 2);
echo ($ok ? 'locked ' : 'refused '), getmypid(), "\n";
fgets(STDIN);          // holds until killed
PHP, ['redis_lock.server' => $redis->dsn(), 'redis_lock.auto_renew' => '1']);
$line = $child->readLine(10);
[$what, $pid] = explode(' ', $line) + [1 => '0'];
echo "child: $what\n";
$token = $redis->cmd('GET', 'lock:k');
$parts = rl_token_parts($token);
echo "its token names its pid: ", var_export($parts !== null && $parts[2] === (int) $pid, true), "\n";

rl_sleep(3.0);
echo "after 3 s (renewed past its lease): ", var_export($redis->cmd('GET', 'lock:k') === $token, true), "\n";
echo "we cannot take it: ", rl_show(RedisMutexLock::lock('k', 0, 5)), "\n";

rl_signal((int) $pid, SIGKILL);
$killed = rl_now();
$left = rl_eventually(fn () => $redis->cmd('EXISTS', 'lock:k'), 0, 6.0);
$secs = rl_now() - $killed;
echo "gone after the kill: ", var_export($left === 0, true), ", within 3.5 s: ", $secs < 3.5 ? 'true' : sprintf('false (%.2f s)', $secs), "\n";
$res = $child->wait(5);
echo "child status: ", $res['status'], "\n";
echo "we take it: ", rl_show(RedisMutexLock::lock('k', 0, 5)), "\n";
var_dump(RedisMutexLock::release('k'));
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
child: locked
its token names its pid: true
after 3 s (renewed past its lease): true
we cannot take it: false
gone after the kill: true, within 3.5 s: true
child status: 137
we take it: true
bool(true)
keys: []
