--TEST--
Shared locks on Sentinel and with redis_lock.wait_replicas, as the mutex: holds go to the master the sentinels name (and to the new one after a failover); with WAIT a hold counts only once a replica has it, and one too few replicas acknowledge is released and reported
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$s = RlSentinels::start();
$master = $s->master();
$replica = $s->replica();
ini_set('redis_lock.server', $s->dsn());
$on = fn (RedisServer $r, string $key) => (new RespClient('unix://' . $r->socket))->cmd('ZCARD', $key);

echo "read ", json_encode(RedisReadWriteLock::lockRead('rw')), ", permit ", json_encode(RedisSemaphore::acquire('sem', 2)),
    "; on the master: ", $on($master, 'lock:rw'), " ", $on($master, 'lock:sem'), "\n";

ini_set('redis_lock.wait_replicas', '1');
ini_set('redis_lock.wait_timeout', '0.5');
echo "WAIT 1: write ", json_encode(RedisReadWriteLock::lockWrite('acked', 5)), ", on the replica when it returned: ", $on($replica, 'lock:acked'), "\n";
ini_set('redis_lock.wait_replicas', '2');
try {
    RedisSemaphore::acquire('two', 2, 5);
    echo "no error\n";
} catch (RedisLockException $e) {
    echo get_class($e), ": ", preg_match('/reached 1 of the 2 replicas .* so it was released/', $e->getMessage()) ? 'too few replicas' : $e->getMessage(), "; left on the master: ", $on($master, 'lock:two'), ", held: ", json_encode(RedisSemaphore::inspect('two')['held']), "\n";
}
ini_set('redis_lock.wait_replicas', '0');
echo "releases: ", json_encode([RedisReadWriteLock::release('rw'), RedisSemaphore::release('sem'), RedisReadWriteLock::release('acked')]), "\n";

echo "SENTINEL FAILOVER: ", $s->sentinelCmd(0, 'SENTINEL', 'FAILOVER', 'mymaster'), "\n";
$named = rl_eventually(fn () => (int) ($s->sentinelCmd(0, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'mymaster')[1] ?? 0), $replica->port, 20.0);
echo "the sentinels name the former replica: ", json_encode($named === $replica->port), "\n";
rl_sleep(1.2);
echo "permit after the failover: ", json_encode(RedisSemaphore::acquire('after', 1)), ", on the new master: ", $on($replica, 'lock:after'), "\n";
echo "release: ", json_encode(RedisSemaphore::release('after')), "\n";
?>
--EXPECT--
read true, permit true; on the master: 1 1
WAIT 1: write true, on the replica when it returned: 1
RedisLockException: too few replicas; left on the master: 0, held: false
releases: [true,true,true]
SENTINEL FAILOVER: OK
the sentinels name the former replica: true
permit after the failover: true, on the new master: 1
release: true
