--TEST--
redis_lock.release_on_shutdown=0 (in php.ini or by ini_set): locks held at request end stay until their TTL
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$cases = [
    ['-d release_on_shutdown=0, exit()', ['redis_lock.release_on_shutdown' => '0'], 'exit(0);'],
    ['-d release_on_shutdown=off, fatal error', ['redis_lock.release_on_shutdown' => 'off'], 'undefined_function();'],
    ['ini_set(..., "0"), uncaught exception', [], 'ini_set("redis_lock.release_on_shutdown", "0"); throw new Exception("x");'],
];
foreach ($cases as $i => [$name, $ini, $ending]) {
    $key = "kept$i";
    $r = PhpChild::run("<?php\nvar_dump(RedisMutexLock::lock('$key', 0, 30));\n$ending\n",
        $ini + ['redis_lock.server' => $redis->dsn(), 'display_errors' => '0']);
    $pttl = $redis->cmd('PTTL', "lock:$key");
    printf("%s: exit %d, %s", $name, $r['status'], $r['out']);
    printf("  key kept with a token: %s, ttl intact: %s, next lock: %s\n",
        var_export(rl_is_token($redis->cmd('GET', "lock:$key")), true),
        var_export($pttl > 28000 && $pttl <= 30000, true),
        var_export(RedisMutexLock::lock($key), true));
}

// The setting can also be turned back on at run time.
$r = PhpChild::run("<?php\nini_set('redis_lock.release_on_shutdown', '1');\nvar_dump(RedisMutexLock::lock('back-on', 0, 30));\n",
    ['redis_lock.server' => $redis->dsn(), 'redis_lock.release_on_shutdown' => '0']);
echo "turned back on: ", trim($r['out']), ", key gone: ", var_export($redis->cmd('EXISTS', 'lock:back-on') === 0, true), "\n";
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
-d release_on_shutdown=0, exit(): exit 0, bool(true)
  key kept with a token: true, ttl intact: true, next lock: false
-d release_on_shutdown=off, fatal error: exit 255, bool(true)
  key kept with a token: true, ttl intact: true, next lock: false
ini_set(..., "0"), uncaught exception: exit 255, bool(true)
  key kept with a token: true, ttl intact: true, next lock: false
turned back on: bool(true), key gone: true
keys: ["lock:kept0","lock:kept1","lock:kept2"]
