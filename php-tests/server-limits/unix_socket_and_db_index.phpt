--TEST--
unix:// servers and database indexes (redis://host:port/N, unix://path?db=N): keys land in the chosen db only
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();

function in_dbs(RedisServer $redis, string $key): string
{
    $found = [];
    foreach ([0, 2, 3] as $db) {
        $redis->cmd('SELECT', $db);
        if (rl_is_token($redis->cmd('GET', $key))) {
            $found[] = $db;
        }
    }
    $redis->cmd('SELECT', 0);
    return json_encode($found);
}

ini_set('redis_lock.server', $redis->unixDsn());
var_dump(RedisMutexLock::lock('sock'));
echo "unix: in dbs ", in_dbs($redis, 'lock:sock'), "\n";
var_dump(RedisMutexLock::release('sock'));
echo "unix: after release in dbs ", in_dbs($redis, 'lock:sock'), "\n";

ini_set('redis_lock.server', $redis->dsn('/3'));
var_dump(RedisMutexLock::lock('db'));
echo "redis://…/3: in dbs ", in_dbs($redis, 'lock:db'), "\n";
var_dump(RedisMutexLock::release('db'));
echo "after release in dbs ", in_dbs($redis, 'lock:db'), "\n";

ini_set('redis_lock.server', $redis->unixDsn('?db=2'));
var_dump(RedisMutexLock::lock('db'));
echo "unix://…?db=2: in dbs ", in_dbs($redis, 'lock:db'), "\n";
var_dump(RedisMutexLock::release('db'));
echo "after release in dbs ", in_dbs($redis, 'lock:db'), "\n";

// TCP and the unix socket reach the same keys of the same db.
ini_set('redis_lock.server', $redis->dsn());
var_dump(RedisMutexLock::lock('same'));
ini_set('redis_lock.server', $redis->unixDsn());
var_dump(RedisMutexLock::lock('same'));
ini_set('redis_lock.server', $redis->dsn());
var_dump(RedisMutexLock::release('same'));
ini_set('redis_lock.server', $redis->unixDsn());
var_dump(RedisMutexLock::lock('same'));
var_dump(RedisMutexLock::release('same'));
echo "same: in dbs ", in_dbs($redis, 'lock:same'), "\n";

// A missing socket file.
ini_set('redis_lock.server', 'unix://' . $redis->dir . '/missing.sock');
try {
    RedisMutexLock::lock('x');
} catch (RedisLockException $e) {
    echo str_replace($redis->dir, 'DIR', $e->getMessage()), "\n";
}
// A db index the server does not have.
ini_set('redis_lock.server', $redis->dsn('/99'));
try {
    RedisMutexLock::lock('x');
} catch (RedisLockException $e) {
    echo str_replace((string) $redis->port, 'PORT', $e->getMessage()), "\n";
}
?>
--EXPECT--
bool(true)
unix: in dbs [0]
bool(true)
unix: after release in dbs []
bool(true)
redis://…/3: in dbs [3]
bool(true)
after release in dbs []
bool(true)
unix://…?db=2: in dbs [2]
bool(true)
after release in dbs []
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
same: in dbs []
Redis at DIR/missing.sock: cannot connect: No such file or directory (os error 2)
Redis at 127.0.0.1:PORT: error reply: SELECT 99: ERR DB index is out of range
