--TEST--
A unix-socket server that went away while its connection sat in the pool: the next call gets a RedisLockException (or a fresh connection), never a SIGPIPE that kills a worker which does not ignore the signal
--SKIPIF--
<?php if (!function_exists('pcntl_signal')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
// The child restores the default SIGPIPE action (PHP-FPM workers may not
// ignore it as the CLI does), pools a unix-socket connection, waits while
// the server is killed, then calls again.
$child = new PhpChild(<<<'PHP'
<?php
pcntl_signal(SIGPIPE, SIG_DFL);
ini_set('redis_lock.server', $argv[1]);
var_dump(RedisMutexLock::lock('k'));
echo "pooled\n";
fgets(STDIN);
foreach (['lock', 'release'] as $call) {
    try {
        var_dump(RedisMutexLock::$call('k'));
    } catch (RedisLockException $e) {
        echo "RedisLockException\n";
    }
}
echo "alive\n";
PHP, [], [$redis->unixDsn()]);
echo $child->readLine(), "\n";
echo $child->readLine(), "\n";
$redis->kill();
$child->writeLine('go');
$r = $child->wait();
echo $r['out'], "exit status: ", $r['status'], "\n";
?>
--EXPECT--
bool(true)
pooled
RedisLockException
RedisLockException
alive
exit status: 0
