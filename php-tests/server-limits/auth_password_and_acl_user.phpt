--TEST--
Authentication: requirepass and ACL users work; wrong or missing credentials throw RedisLockException without the password
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start(['--requirepass', 's3cret'], ['password' => 's3cret']);
$redis->cmd('ACL', 'SETUSER', 'alice', 'on', '>pw', '~*', '+@all');
$redis->cmd('ACL', 'SETUSER', 'carol', 'on', '>p@ss:w/rd', '~*', '+@all');
$redis->cmd('ACL', 'SETUSER', 'bob', 'on', '>pw', '~other:*', '+@all');
$port = $redis->port;

function attempt(string $dsn, string $key = 'k'): string
{
    ini_set('redis_lock.server', $dsn);
    try {
        $r = RedisMutexLock::lock($key);
        return 'lock ' . var_export($r, true);
    } catch (RedisLockException $e) {
        return 'RedisLockException: ' . $e->getMessage();
    }
}

foreach ([
    'requirepass' => "redis://:s3cret@127.0.0.1:$port",
    'acl user' => "redis://alice:pw@127.0.0.1:$port",
    'escaped password' => "redis://carol:p%40ss%3Aw%2Frd@127.0.0.1:$port",
    'query password' => "redis://127.0.0.1:$port?password=s3cret",
] as $name => $dsn) {
    $key = str_replace(' ', '-', $name);
    echo "$name: ", attempt($dsn, $key), ", key: ", var_export(rl_is_token($redis->cmd('GET', "lock:$key")), true);
    echo ", release: ", var_export(RedisMutexLock::release($key), true), ", gone: ", var_export($redis->cmd('EXISTS', "lock:$key") === 0, true), "\n";
}

$secrets = ['wrong-pass', 'hunter2'];
foreach ([
    "redis://:wrong-pass@127.0.0.1:$port",
    "redis://alice:hunter2@127.0.0.1:$port",
    "redis://nobody:hunter2@127.0.0.1:$port",
    "redis://127.0.0.1:$port",
    "redis://bob:pw@127.0.0.1:$port",
] as $dsn) {
    $msg = attempt($dsn);
    $leak = array_filter($secrets, fn ($s) => str_contains($msg, $s));
    echo str_replace((string) $port, 'PORT', $msg), $leak ? ' (LEAKS THE PASSWORD)' : '', "\n";
}
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
requirepass: lock true, key: true, release: true, gone: true
acl user: lock true, key: true, release: true, gone: true
escaped password: lock true, key: true, release: true, gone: true
query password: lock true, key: true, release: true, gone: true
RedisLockException: Redis at 127.0.0.1:PORT: authentication failed: WRONGPASS invalid username-password pair or user is disabled.
RedisLockException: Redis at 127.0.0.1:PORT: authentication failed: WRONGPASS invalid username-password pair or user is disabled.
RedisLockException: Redis at 127.0.0.1:PORT: authentication failed: WRONGPASS invalid username-password pair or user is disabled.
RedisLockException: Redis at 127.0.0.1:PORT: authentication failed: NOAUTH Authentication required.
RedisLockException: Redis at 127.0.0.1:PORT: error reply: NOPERM %s
keys: []
