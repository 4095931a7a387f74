--TEST--
RedisMutexLock: A's lock expires, B takes it; A's release() is false and B's key, token and TTL survive
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

var_dump(RedisMutexLock::lock('report', 0, 1));        // A: this process, 1 s
$a = $redis->cmd('GET', 'lock:report');
usleep(1150000);
echo "expired: ", json_encode($redis->keys()), "\n";

// B: another process takes the expired lock and keeps it after it ends.
$r = PhpChild::run('<?php var_dump(RedisMutexLock::lock("report", 0, 30));', [
    'redis_lock.server' => $redis->dsn(),
    'redis_lock.release_on_shutdown' => '0',
]);
echo $r['out'], $r['err'];
$b = $redis->cmd('GET', 'lock:report');
echo "B has a new token: ", var_export(rl_is_token($b) && $b !== $a, true), "\n";

var_dump(RedisMutexLock::release('report'));           // A, too late
echo "B's token kept: ", var_export($redis->cmd('GET', 'lock:report') === $b, true), "\n";
$pttl = $redis->cmd('PTTL', 'lock:report');
echo "B's ttl kept: ", var_export($pttl > 28000 && $pttl <= 30000, true), "\n";
// And A cannot take it back while B holds it.
var_dump(RedisMutexLock::lock('report'));
echo "B's token still kept: ", var_export($redis->cmd('GET', 'lock:report') === $b, true), "\n";
?>
--EXPECT--
bool(true)
expired: []
bool(true)
B has a new token: true
bool(false)
B's token kept: true
B's ttl kept: true
bool(false)
B's token still kept: true
