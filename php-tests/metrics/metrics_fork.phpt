--TEST--
redis_lock_metrics_array() across pcntl_fork(): a child's locks add to the table the parent sees ('pool'), a child's own counts ('process') start at zero, the parent's own counts never include the child's
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$acq = fn (string $which) => array_sum(array_column(redis_lock_metrics_array()[$which], 'acquisitions'));
RedisMutexLock::lock('parent:1', 0);
RedisMutexLock::release('parent:1');
$pipe = tempnam(sys_get_temp_dir(), 'rlm');
$pid = pcntl_fork();
if ($pid === 0) {
    $before = $acq('process');
    for ($i = 0; $i < 3; $i++) {
        RedisMutexLock::lock("child:$i", 0);
        RedisMutexLock::release("child:$i");
    }
    file_put_contents($pipe, json_encode([$before, $acq('process'), $acq('pool')]));
    exit(0);
}
pcntl_waitpid($pid, $status);
[$childBefore, $childOwn, $childPool] = json_decode(file_get_contents($pipe), true);
unlink($pipe);
echo "child's own at its start: $childBefore, after its 3 locks: $childOwn; the pool it saw: $childPool\n";
echo "parent's own: ", $acq('process'), ", the pool: ", $acq('pool'), "\n";
?>
--EXPECT--
child's own at its start: 0, after its 3 locks: 3; the pool it saw: 4
parent's own: 1, the pool: 4
