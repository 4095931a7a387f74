--TEST--
redis_lock.auto_renew: a request stuck for 10 s in one blocking call keeps a lock taken for 2 s; another process sampling the key sees our token with a positive TTL throughout; release() is true at the end
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
echo "auto_renew off by default: ", var_export(!ini_get('redis_lock.auto_renew'), true), "\n";
ini_set('redis_lock.auto_renew', '1');

var_dump(RedisMutexLock::lock('w', 0, 2));
$token = $redis->cmd('GET', 'lock:w');
// Samples every 0.2 s for 9.5 s, from another process.
$sampler = rl_child(rl_sampler_code(), [], [$redis->socket, 'lock:w', $token, '9.5', '0.2'], false);
echo $sampler->readLine(10), "\n";

[, $secs] = rl_timed(fn () => rl_block(10));   // the critical section: one 10 s sleep call
echo "blocked for 10 s: ", var_export($secs >= 9.9, true), "\n";
$res = $sampler->wait(10);
$s = json_decode(trim($res['out']), true);
if (!is_array($s)) {
    echo "sampler failed: ", $res['out'], $res['err'], "\n";
}
echo "samples: ", var_export($s['n'] >= 20, true), ", all ours with a TTL: ", $s['ours'] === $s['n'] ? 'true' : 'false ' . json_encode($s['bad']),
    ", smallest PTTL > 0: ", var_export($s['min'] > 0, true), "\n";
$pttl = $redis->cmd('PTTL', 'lock:w');
echo "after 10 s still ours: ", var_export($redis->cmd('GET', 'lock:w') === $token, true), ", PTTL in (0, 2000]: ",
    var_export($pttl > 0 && $pttl <= 2000, true), "\n";
$i = RedisMutexLock::inspect('w');
echo "inspect: held ", var_export($i['held'], true), ", lost ", var_export($i['lost'], true), "\n";
var_dump(RedisMutexLock::release('w'));
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
auto_renew off by default: true
bool(true)
ready
blocked for 10 s: true
samples: true, all ours with a TTL: true, smallest PTTL > 0: true
after 10 s still ours: true, PTTL in (0, 2000]: true
inspect: held true, lost false
bool(true)
keys: []
