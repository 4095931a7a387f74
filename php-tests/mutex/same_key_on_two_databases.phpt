--TEST--
The same key locked on two databases (or servers) in one request: both are released, none is leaked
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();

function dbs(RedisServer $redis, string $key = 'lock:k'): string
{
    $found = [];
    foreach ([0, 3] as $db) {
        $redis->cmd('SELECT', $db);
        if ($redis->cmd('EXISTS', $key) === 1) {
            $found[] = $db;
        }
    }
    $redis->cmd('SELECT', 0);
    return json_encode($found);
}

// In this process: lock k in db 3, then k in db 0, then release both.
ini_set('redis_lock.server', $redis->dsn('/3'));
$a = RedisMutexLock::lock('k', 0, 30);
ini_set('redis_lock.server', $redis->dsn('/0'));
$b = RedisMutexLock::lock('k', 0, 30);
echo "db 3: ", var_export($a, true), ", db 0: ", var_export($b, true), ", held in dbs ", dbs($redis), "\n";
$r0 = RedisMutexLock::release('k');
ini_set('redis_lock.server', $redis->dsn('/3'));
$r3 = RedisMutexLock::release('k');
// Whatever the second lock() returned, every lock it reported as taken is released.
echo "released: db 0 ", var_export($r0, true), ", db 3 ", var_export($r3, true), "\n";
echo "left in dbs ", dbs($redis), "\n";

// In another process: both locks left to the request's end.
$r = PhpChild::run(<<<'PHP'
<?php
ini_set('redis_lock.server', $argv[1] . '/3');
var_dump(RedisMutexLock::lock('k2', 0, 30));
ini_set('redis_lock.server', $argv[1] . '/0');
var_dump(RedisMutexLock::lock('k2', 0, 30));
PHP, [], [$redis->dsn()]);
echo "child: ", str_replace("\n", ' ', trim($r['out'])), $r['err'], "\n";
echo "left after the child's end in dbs ", dbs($redis, 'lock:k2'), "\n";
?>
--EXPECT--
db 3: true, db 0: true, held in dbs [0,3]
released: db 0 true, db 3 true
left in dbs []
child: bool(true) bool(true)
left after the child's end in dbs []
