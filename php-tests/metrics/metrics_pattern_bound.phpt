--TEST--
redis_lock.metrics_patterns: at most 16 patterns (the 17th and 18th are ignored, and php --ri says so), a key counts under the first pattern it matches, without the prefix; a key matching none, or only an ignored pattern, counts as "other"; the setting is php.ini-only
--INI--
redis_lock.metrics_patterns="p1:*,p2:*,p3:*,p4:*,p5:*,p6:*,p7:*,p8:*,p9:*,p10:*,p11:*,p12:*,p13:*,p14:*,p15:*,p16:*,p17:*,p18:*"
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

ob_start();
(new ReflectionExtension('redis_lock'))->info();
$info = ob_get_clean();
preg_match('/^Metrics patterns => (.*)$/m', $info, $m);
echo "php --ri: ", $m[1] ?? '(missing)', "\n";
preg_match('/^Metrics counters => (.*)$/m', $info, $m);
echo "counters: ", $m[1] ?? '(missing)', "\n";
echo "ini_set at run time: ", var_export(ini_set('redis_lock.metrics_patterns', 'x:*'), true), "\n";

foreach (['p1:a', 'p16:a', 'p17:a', 'p18:a', 'zzz', 'p2:b:p1:c'] as $key) {
    RedisMutexLock::lock($key, 0);
    RedisMutexLock::release($key);
}
foreach (redis_lock_metrics_array()['pool'] as $s) {
    echo $s['kind'], ' ', $s['pattern'], ': ', $s['acquisitions'], "\n";
}
?>
--EXPECT--
php --ri: p1:*, p2:*, p3:*, p4:*, p5:*, p6:*, p7:*, p8:*, p9:*, p10:*, p11:*, p12:*, p13:*, p14:*, p15:*, p16:* (2 more ignored: at most 16 patterns)
counters: shared by every process forked after startup (25 KiB)
ini_set at run time: false
mutex p1:*: 1
mutex p2:*: 1
mutex p16:*: 1
mutex other: 3
