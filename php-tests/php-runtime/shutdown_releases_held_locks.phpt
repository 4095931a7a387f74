--TEST--
Request end releases held locks: normal end, exit(), uncaught exception, fatal errors, time limit
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$endings = [
    'normal end' => '',
    'exit(3)' => 'exit(3);',
    'uncaught exception' => 'throw new RuntimeException("boom");',
    'undefined function' => 'undefined_function();',
    'memory exhausted' => 'ini_set("memory_limit", "16M"); $a = str_repeat("x", 64 << 20);',
    'time limit' => 'set_time_limit(1); while (true) { }',
    'settings changed after lock' => 'ini_set("redis_lock.server", "nonsense"); ini_set("redis_lock.prefix", "other:"); ini_set("redis_lock.read_timeout", "x");',
];
foreach ($endings as $name => $ending) {
    $r = PhpChild::run("<?php\nif (!RedisMutexLock::lock('job', 0, 30)) { exit(9); }\necho 'locked ';\n$ending\n",
        ['redis_lock.server' => $redis->dsn()]);
    preg_match('/(Fatal error: .*?) in /', $r['out'], $m);
    printf("%s: exit %d, %s%s; key gone: %s; next lock: %s\n", $name, $r['status'], strtok($r['out'], ' '),
        isset($m[1]) ? " ($m[1])" : '', var_export($redis->cmd('EXISTS', 'lock:job') === 0, true),
        var_export(RedisMutexLock::lock('job'), true));
    RedisMutexLock::release('job');
}
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
normal end: exit 0, locked; key gone: true; next lock: true
exit(3): exit 3, locked; key gone: true; next lock: true
uncaught exception: exit 255, locked (Fatal error: Uncaught RuntimeException: boom); key gone: true; next lock: true
undefined function: exit 255, locked (Fatal error: Uncaught Error: Call to undefined function undefined_function()); key gone: true; next lock: true
memory exhausted: exit 255, locked (Fatal error: Allowed memory size of 16777216 bytes exhausted (tried to allocate %d bytes)); key gone: true; next lock: true
time limit: exit 255, locked (Fatal error: Maximum execution time of 1 second exceeded); key gone: true; next lock: true
settings changed after lock: exit 0, locked; key gone: true; next lock: true
keys: []
