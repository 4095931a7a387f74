--TEST--
RedisMutexLock: another process cannot take a held lock (false at once with timeout 0), and can after release
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

// The other process: tries once, reports the result, the time taken and what it saw.
$other = <<<'PHP'
<?php
$t = hrtime(true);
$r = RedisMutexLock::lock('job', 0, 5);
printf("%s %.3f\n", var_export($r, true), (hrtime(true) - $t) / 1e9);
if ($r) {
    var_dump(RedisMutexLock::release('job'));
}
PHP;
$ini = ['redis_lock.server' => $redis->dsn()];

var_dump(RedisMutexLock::lock('job', 0, 30));
$mine = $redis->cmd('GET', 'lock:job');

$r = PhpChild::run($other, $ini);
[$got, $secs] = explode(' ', trim($r['out']));
echo "other: $got, quick: ", var_export($secs < 0.5, true), ", exit ", $r['status'], $r['err'], "\n";
echo "still mine: ", var_export($redis->cmd('GET', 'lock:job') === $mine, true), "\n";

var_dump(RedisMutexLock::release('job'));
$r = PhpChild::run($other, $ini);
echo $r['out'] === '' ? 'no output' : preg_replace('/^(true) [\d.]+/', '$1', $r['out']), $r['err'];
echo "end: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
other: false, quick: true, exit 0
still mine: true
bool(true)
true
bool(true)
end: []
