--TEST--
The extension's threads take no signals: with a renewed lock (the renewal thread running) and SIGHUP blocked by pcntl_sigprocmask() in PHP's thread, 20 SIGHUPs sent to the process stay pending instead of ending it from the renewal thread; unblocked, PHP's own handler gets it
--SKIPIF--
<?php if (!function_exists('pcntl_sigprocmask')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
$r = PhpChild::run(<<<'PHP'
<?php
ini_set('redis_lock.auto_renew', '1');
var_dump(RedisMutexLock::lock('hup', 0, 2));
// The thread names itself once it runs: look for up to 1 s.
for ($i = 0, $running = false; $i < 100 && !$running; $i++, $running || usleep(10000)) {
    $running = in_array('rl-renew', array_map(fn ($t) => trim((string) @file_get_contents("$t/comm")), glob('/proc/self/task/*')), true);
}
echo "renewal thread running: ", var_export($running, true), "\n";
pcntl_signal(SIGHUP, SIG_DFL); // the default action (ends the process), whatever the test runner left
pcntl_sigprocmask(SIG_BLOCK, [SIGHUP]);
// Sent to the process (kill(1)): the kernel gives it to any thread that does not block it.
for ($i = 0; $i < 20; $i++) {
    exec('kill -s HUP ' . getmypid());
}
echo "alive after 20 SIGHUPs\n";
$got = 0;
pcntl_async_signals(true);
pcntl_signal(SIGHUP, function () use (&$got) { $got++; });
pcntl_sigprocmask(SIG_UNBLOCK, [SIGHUP]);
echo "PHP's handler ran once unblocked: ", var_export($got >= 1, true), "\n";
var_dump(RedisMutexLock::release('hup'));
PHP, ['redis_lock.server' => $redis->dsn()], [], true, null, 20);
echo $r['out'], $r['err'], "exit ", $r['status'], "\n";
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
renewal thread running: true
alive after 20 SIGHUPs
PHP's handler ran once unblocked: true
bool(true)
exit 0
keys: []
