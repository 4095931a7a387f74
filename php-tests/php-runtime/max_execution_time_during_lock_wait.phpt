--TEST--
max_execution_time fires inside a busy wait of the extension (RedLock::lock() retrying without pause on a held resource): PHP raises its own "Maximum execution time" fatal error (not the hard "(terminated)" kill), and the request-end release still runs
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$redis = RedisServer::start();
$redis->cmd('SET', 'b', 'the-parent', 'PX', 60000); // another process holds 'b'

$r = PhpChild::run(<<<'PHP'
<?php
var_dump(RedisMutexLock::lock('a', 0, 60));
echo "waiting for b\n";
// PHP's timer counts CPU time: a wait that sleeps would never reach it, a
// retry loop without pause does (every attempt is a round trip).
var_dump((new RedLock([$argv[1]], 0, 4294967295))->lock('b', 20000));
echo "not reached\n";
PHP, ['redis_lock.server' => $redis->dsn(), 'max_execution_time' => '1'], [$redis->dsn()], true, null, 20);
// PHP 8.5 follows a fatal error with its backtrace (fatal_error_backtraces).
$out = preg_replace('/^(Stack trace:|#\d+ .*)\n/m', '', $r['out']);
echo $out === '' ? "(no output)\n" : preg_replace('/ in \S+ on line \d+/', ' in FILE on line N', trim($out)), "\n";
echo "exit ", $r['status'], ", within 15 s: ", $r['seconds'] < 15 ? 'true' : sprintf('false (%.1f s)', $r['seconds']), "\n";
echo "hard kill: ", var_export(str_contains($r['out'] . $r['err'], '(terminated)'), true), "\n";
echo "lock:a: ", var_export($redis->cmd('GET', 'lock:a'), true) === 'NULL' ? 'gone' : 'still held', "\n";
echo "b: ", $redis->cmd('GET', 'b'), "\n";
?>
--EXPECT--
bool(true)
waiting for b

Fatal error: Maximum execution time of 1 second exceeded in FILE on line N
exit 255, within 15 s: true
hard kill: false
lock:a: gone
b: the-parent
