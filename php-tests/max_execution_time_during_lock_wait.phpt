--TEST--
max_execution_time fires during RedisMutexLock::lock()'s wait (busy, $sleep = 0): PHP raises its own "Maximum execution time" fatal error (not the hard "(terminated)" kill), and the request-end release still runs
--FILE--
<?php
require __DIR__ . '/inc/fake_server.inc';
$redis = RedisServer::start();
$redis->cmd('SET', 'lock:b', 'the-parent', 'PX', 60000); // another process holds 'b'

$r = PhpChild::run(<<<'PHP'
<?php
var_dump(RedisMutexLock::lock('a', 0, 60));
echo "waiting for b\n";
var_dump(RedisMutexLock::lock('b', 30, 20, 0));
echo "not reached\n";
PHP, ['redis_lock.server' => $redis->dsn(), 'max_execution_time' => '1'], [], true, null, 20);
echo $r['out'] === '' ? "(no output)\n" : preg_replace('/ in \S+ on line \d+/', ' in FILE on line N', trim($r['out'])), "\n";
echo "exit ", $r['status'], ", within 15 s: ", $r['seconds'] < 15 ? 'true' : sprintf('false (%.1f s)', $r['seconds']), "\n";
echo "hard kill: ", var_export(str_contains($r['out'] . $r['err'], '(terminated)'), true), "\n";
echo "lock:a: ", var_export($redis->cmd('GET', 'lock:a'), true) === 'NULL' ? 'gone' : 'still held', "\n";
echo "lock:b: ", $redis->cmd('GET', 'lock:b'), "\n";
?>
--EXPECT--
bool(true)
waiting for b

Fatal error: Maximum execution time of 1 second exceeded in FILE on line N
exit 255, within 15 s: true
hard kill: false
lock:a: gone
lock:b: the-parent
