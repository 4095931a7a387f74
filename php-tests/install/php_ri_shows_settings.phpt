--TEST--
php --ri redis_lock shows the version, the classes the extension registered (the same list as ReflectionExtension::getClassNames()) and every redis_lock.* setting (local and master values), the metrics functions and how their counters are set up
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$r = PhpChild::run('', [], [], true, ['--ri', 'redis_lock']);
echo $r['out'], $r['err'], "exit ", $r['status'], "\n";
$r = PhpChild::run('', ['redis_lock.prefix' => 'app:', 'redis_lock.server' => 'redis://10.0.0.1:7000/2', 'redis_lock.read_timeout' => '0.25'], [], true, ['--ri', 'redis_lock']);
echo implode("\n", preg_grep('/^redis_lock\./', explode("\n", $r['out']))), "\n";
// The same settings, as this process sees them.
foreach (ini_get_all('redis_lock') as $name => $entry) {
    printf("%s: %s (access %d)\n", $name, json_encode($entry['global_value']), $entry['access']);
}
echo "version: ", phpversion('redis_lock'), "\n";
// Built for the PHP that runs it, with that PHP's API number.
$info = PhpChild::run('', [], [], true, ['-i'])['out'];
preg_match('/^Built for PHP => (.*)$/m', $r['out'], $built);
preg_match('/^PHP API => (\d+)$/m', $r['out'], $api);
preg_match('/^PHP API => (\d+)$/m', $info, $phpApi);
var_dump($built[1] === PHP_VERSION, $api[1] === $phpApi[1]);
preg_match('/^Classes => (.*)$/m', $r['out'], $classes);
$registered = (new ReflectionExtension('redis_lock'))->getClassNames();
echo "classes: ", $classes[1], "\n";
echo "as Reflection lists them: ", json_encode($classes[1] === implode(', ', $registered)), "\n";
?>
--EXPECTF--

redis_lock

redis_lock support => enabled
Version => %d.%d.%d
Built for PHP => %d.%d.%d
PHP API => %d
Classes => RedisLockException, RedisLockLostException, RedisMutexLock, RedLock, RedisReadWriteLock, RedisSemaphore, RedisLock
Functions => redis_lock_metrics, redis_lock_metrics_array
Metrics counters => shared by every process forked after startup (25 KiB)
Metrics patterns => none (every key: other)

Directive => Local Value => Master Value
redis_lock.server => redis://127.0.0.1:6379 => redis://127.0.0.1:6379
redis_lock.prefix => lock: => lock:
redis_lock.connect_timeout => 1 => 1
redis_lock.read_timeout => 1 => 1
redis_lock.release_on_shutdown => 1 => 1
redis_lock.tls_ca_file => no value => no value
redis_lock.reentrant => 1 => 1
redis_lock.auto_renew => 0 => 0
redis_lock.max_hold => 0 => 0
redis_lock.wait_replicas => 0 => 0
redis_lock.wait_timeout => 1 => 1
redis_lock.label => no value => no value
redis_lock.metrics_patterns => no value => no value
exit 0
redis_lock.server => redis://10.0.0.1:7000/2 => redis://10.0.0.1:7000/2
redis_lock.prefix => app: => app:
redis_lock.connect_timeout => 1 => 1
redis_lock.read_timeout => 0.25 => 0.25
redis_lock.release_on_shutdown => 1 => 1
redis_lock.tls_ca_file => no value => no value
redis_lock.reentrant => 1 => 1
redis_lock.auto_renew => 0 => 0
redis_lock.max_hold => 0 => 0
redis_lock.wait_replicas => 0 => 0
redis_lock.wait_timeout => 1 => 1
redis_lock.label => no value => no value
redis_lock.metrics_patterns => no value => no value
redis_lock.auto_renew: "0" (access 7)
redis_lock.connect_timeout: "1" (access 7)
redis_lock.label: "" (access 7)
redis_lock.max_hold: "0" (access 7)
redis_lock.metrics_patterns: "" (access 4)
redis_lock.prefix: "lock:" (access 7)
redis_lock.read_timeout: "1" (access 7)
redis_lock.reentrant: "1" (access 7)
redis_lock.release_on_shutdown: "1" (access 7)
redis_lock.server: "redis:\/\/127.0.0.1:6379" (access 7)
redis_lock.tls_ca_file: "" (access 7)
redis_lock.wait_replicas: "0" (access 7)
redis_lock.wait_timeout: "1" (access 7)
version: %d.%d.%d
bool(true)
bool(true)
classes: RedisLockException, RedisLockLostException, RedisMutexLock, RedLock, RedisReadWriteLock, RedisSemaphore, RedisLock
as Reflection lists them: true
