--TEST--
A hand-written worker loop (RoadRunner style: one unit per "request", RedisLock::beginScope()/endScope() around each) over many units, each taking locks on distinct keys of every class (RedisMutexLock, RedisSemaphore, a new RedLock object), some released, some left behind for the unit's end: every leftover is released at its unit's end (the next unit finds them free), and memory and open file descriptors stay flat; RL_CYCLES=1000000 runs the long version (scripts/soak-workers.sh)
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$units = (int) (getenv('RL_CYCLES') ?: 3000);
$fds = fn () => count(scandir('/proc/self/fd')) - 2;
$measure = [];
$leftBehind = 0;
for ($i = 0; $i < $units; $i++) {
    $scope = RedisLock::beginScope();
    $k = "job:$i";
    RedisMutexLock::lock($k, 0, 30) || throw new RuntimeException("$k busy");
    RedisSemaphore::acquire("sem:$i", 2, 0, 30) || throw new RuntimeException("sem:$i busy");
    $redlock = new RedLock([$redis->dsn()]);
    $lock = $redlock->lock("rl:$i", 30000) ?: throw new RuntimeException("rl:$i busy");
    if ($i % 2 === 0) { // half the units tidy up, half leave everything to the end of the unit
        RedisMutexLock::release($k);
        RedisSemaphore::release("sem:$i");
        $redlock->unlock($lock);
    }
    $left = RedisLock::endScope($scope);
    $leftBehind += count($left['keys']);
    if ($left['failed'] !== 0) {
        throw new RuntimeException("unit $i: a release failed");
    }
    if ($i === (int) ($units / 10) || $i === $units - 1) {
        gc_collect_cycles();
        $measure[] = [memory_get_usage(), $fds()];
    }
}
[[$mem0, $fd0], [$mem1, $fd1]] = $measure;
printf("units: %d, locks left behind and released at their unit's end: %s\n", $units, $leftBehind === intdiv($units, 2) * 3 ? 'every one' : $leftBehind);
printf("memory after 10%% and at the end: %s (%d -> %d bytes)\n", $mem1 - $mem0 < 256 * 1024 ? 'flat' : 'GROWING', $mem0, $mem1);
printf("open file descriptors: %s (%d -> %d)\n", $fd1 === $fd0 ? 'flat' : 'GROWING', $fd0, $fd1);
echo "keys left in Redis: ", $redis->cmd('DBSIZE'), "\n";
?>
--EXPECTF--
units: %d, locks left behind and released at their unit's end: every one
memory after 10% and at the end: flat (%d -> %d bytes)
open file descriptors: flat (%d -> %d)
keys left in Redis: 0
