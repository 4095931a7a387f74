--TEST--
max_execution_time (CPU time on Linux) does not end a queued wait: RedisMutexLock::lock($key, 2.5, 20, 0) ($sleep 0 is raised to 10 ms) and RedisSemaphore::acquire($key, 1, 2.5) block in BLPOP for their whole timeout with max_execution_time=1, using little CPU, and the script goes on after them; waits are bounded by $timeout
--SKIPIF--
<?php if (PHP_OS_FAMILY !== 'Linux') die('skip PHP counts CPU time only on Linux'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
$redis->cmd('SET', 'lock:m', 'another-process', 'PX', 60000);
$redis->cmd('ZADD', 'lock:s', '99999999999999', 's1:1|another-process');

$r = PhpChild::run(<<<'PHP'
<?php
$cpu = fn () => (getrusage()['ru_utime.tv_sec'] + getrusage()['ru_utime.tv_usec'] / 1e6 + getrusage()['ru_stime.tv_sec'] + getrusage()['ru_stime.tv_usec'] / 1e6);
foreach (['mutex' => fn () => RedisMutexLock::lock('m', 2.5, 20, 0), 'semaphore' => fn () => RedisSemaphore::acquire('s', 1, 2.5)] as $what => $call) {
    [$t, $c] = [hrtime(true), $cpu()];
    $ok = $call();
    printf("%s: %s after %s, CPU %s\n", $what, json_encode($ok), (hrtime(true) - $t) / 1e9 >= 2.4 ? 'the whole timeout' : 'too little', $cpu() - $c < 0.5 ? '< 0.5 s' : 'too much');
}
echo "still running\n";
PHP, ['redis_lock.server' => $redis->dsn(), 'max_execution_time' => '1']);
echo $r['out'], "exit ", $r['status'], "\n";
?>
--EXPECT--
mutex: false after the whole timeout, CPU < 0.5 s
semaphore: false after the whole timeout, CPU < 0.5 s
still running
exit 0
