--TEST--
DSN secrets: the user information runs to the last @ (unencoded / ? @ : in a password work), php --ri and phpinfo() mask all of it (and a sentinel DSN's sentinel_password), and parse errors quote no part of the DSN
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start(['--requirepass', 'boot'], ['password' => 'boot']);
$port = $redis->port;
$redis->cmd('ACL', 'SETUSER', 'u', 'on', '>pa/ss?x', '~*', '+@all');
$redis->cmd('ACL', 'SETUSER', 'v', 'on', '>a@b:c/d?e', '~*', '+@all');

// Each unencoded character that used to end the user information early.
foreach ([
    'slash and question mark' => ["redis://u:pa/ss?x@127.0.0.1:$port/2", 2],
    'at, colon, slash, question mark' => ["redis://v:a@b:c/d?e@127.0.0.1:$port?db=3", 3],
] as $name => [$dsn, $db]) {
    ini_set('redis_lock.server', $dsn);
    $locked = RedisMutexLock::lock('k');
    $redis->cmd('SELECT', $db);
    echo "$name: ", var_export($locked, true), ", key in db $db: ", var_export(rl_is_token($redis->cmd('GET', 'lock:k')), true), "\n";
    var_dump(RedisMutexLock::release('k'));
}
$rl = new RedLock(["redis://u:pa/ss?x@127.0.0.1:$port"]);
$lock = $rl->lock('r', 5000);
echo "RedLock with that DSN: ", var_export(is_array($lock) && $rl->unlock($lock), true), "\n";

// php --ri and phpinfo() show the redacted form, local and master values.
$secret = "redis://u:p/a?s@s:w=0rd@10.0.0.1:7000/2?password=q%40ry&db=2";
$r = PhpChild::run('', ['redis_lock.server' => '"' . $secret . '"'], [], true, ['--ri', 'redis_lock']);
echo implode("\n", preg_grep('/^redis_lock\.server/', explode("\n", $r['out']))), "\n";
$r = PhpChild::run('<?php ini_set("redis_lock.server", $argv[1]); phpinfo(INFO_MODULES);', [], [$secret]);
echo implode("\n", preg_grep('/^redis_lock\.server/', explode("\n", $r['out']))), "\n";
foreach (['s:w=0rd', 'q%40ry', 'p/a'] as $piece) {
    echo "$piece shown: ", var_export(str_contains($r['out'], $piece), true), "\n";
}
// A sentinel DSN: the sentinels' password too.
$r = PhpChild::run('<?php ini_set("redis_lock.server", $argv[1]); phpinfo(INFO_MODULES);', [], ["redis-sentinel://:m4ster@s1:26379,s2:26379/mymaster?sentinel_password=s3ntinel&db=1"]);
echo implode("\n", preg_grep('/^redis_lock\.server/', explode("\n", $r['out']))), "\n";
echo "passwords shown: ", var_export(str_contains($r['out'], 'm4ster') || str_contains($r['out'], 's3ntinel'), true), "\n";

// Parse errors never quote the DSN: each of these has the password in the failing part.
foreach ([
    "redis://u:hunter2:x@127.0.0.1:hunter2",
    "redis://u:x@127.0.0.1:$port/hunter2",
    "redis://u:x@127.0.0.1:$port?db=hunter2",
    "redis://u:x@127.0.0.1:$port?hunter2=1",
    "redis://u:hunter2%zz@127.0.0.1",
    // An @ in the query ends the user information too (write it %40 there).
    "redis://127.0.0.1?password=hunter2@x",
] as $dsn) {
    ini_set('redis_lock.server', $dsn);
    $shown = rl_show(rl_timed(fn () => RedisMutexLock::lock('k'))[0]);
    echo str_replace((string) $port, 'P', $shown), str_contains($shown, 'hunter2') ? ' (LEAKS)' : '', "\n";
}
echo "keys left: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
slash and question mark: true, key in db 2: true
bool(true)
at, colon, slash, question mark: true, key in db 3: true
bool(true)
RedLock with that DSN: true
redis_lock.server => redis://***@10.0.0.1:7000/2?password=***&db=2 => redis://***@10.0.0.1:7000/2?password=***&db=2
redis_lock.server => redis://***@10.0.0.1:7000/2?password=***&db=2 => redis://127.0.0.1:6379
s:w=0rd shown: false
q%40ry shown: false
p/a shown: false
redis_lock.server => redis-sentinel://***@s1:26379,s2:26379/mymaster?sentinel_password=***&db=1 => redis://127.0.0.1:6379
passwords shown: false
ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid port (expected 1 to 65535)
ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid database index (expected 0 to 4294967295)
ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid database index (expected 0 to 4294967295)
ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: unknown query parameter (known: db, user, password, wait_replicas)
ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: password: invalid %-escape
ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: the user information must be user:password or :password
keys left: []
