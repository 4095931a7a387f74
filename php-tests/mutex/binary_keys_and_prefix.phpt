--TEST--
RedisMutexLock: binary keys are stored verbatim under the prefix; redis_lock.prefix changes are honoured
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$keys = [
    'nul' => "a\0b\0",
    'crlf' => "line\r\nbreak\r\n",
    'resp' => "x\r\n*1\r\n\$8\r\nFLUSHALL\r\n",
    'braces' => '{user:1}:cart',
    'lua' => "'] end redis.call('FLUSHALL') --",
    'utf8' => "z\u{fc}rich-\u{1f512}",
    'bytes' => "\xff\xfe\x80\x00\x7f",
    '1MB' => str_repeat("k\0\r\n", 262144),
];
$redis->cmd('SET', 'canary', 'alive');
foreach ($keys as $name => $key) {
    $ok = RedisMutexLock::lock($key, 0, 30);
    $v = $redis->cmd('GET', 'lock:' . $key);
    printf("%-6s lock %s, stored verbatim with a token: %s\n", $name, var_export($ok, true), var_export(rl_is_token($v), true));
}
$stored = $redis->keys();
$want = array_merge(['canary'], array_map(fn ($k) => 'lock:' . $k, array_values($keys)));
sort($want, SORT_STRING);
echo "exactly these keys: ", var_export($stored === $want, true), "\n";
foreach ($keys as $name => $key) {
    printf("%-6s release %s, gone: %s\n", $name, var_export(RedisMutexLock::release($key), true),
        var_export($redis->cmd('EXISTS', 'lock:' . $key) === 0, true));
}
echo "left: ", json_encode($redis->keys()), "\n";

// The prefix is read at each call.
ini_set('redis_lock.prefix', 'app1:');
var_dump(RedisMutexLock::lock('k'));
ini_set('redis_lock.prefix', '');
var_dump(RedisMutexLock::lock('k'));
echo "keys: ", json_encode(array_map('bin2hex', $redis->keys())), "\n";
// release() looks at prefix . key with the prefix now in force.
ini_set('redis_lock.prefix', 'app2:');
var_dump(RedisMutexLock::release('k'));
ini_set('redis_lock.prefix', 'app1:');
var_dump(RedisMutexLock::release('k'));
ini_set('redis_lock.prefix', '');
var_dump(RedisMutexLock::release('k'));
echo "left: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
nul    lock true, stored verbatim with a token: true
crlf   lock true, stored verbatim with a token: true
resp   lock true, stored verbatim with a token: true
braces lock true, stored verbatim with a token: true
lua    lock true, stored verbatim with a token: true
utf8   lock true, stored verbatim with a token: true
bytes  lock true, stored verbatim with a token: true
1MB    lock true, stored verbatim with a token: true
exactly these keys: true
nul    release true, gone: true
crlf   release true, gone: true
resp   release true, gone: true
braces release true, gone: true
lua    release true, gone: true
utf8   release true, gone: true
bytes  release true, gone: true
1MB    release true, gone: true
left: ["canary"]
bool(true)
bool(true)
keys: ["617070313a6b","63616e617279","6b"]
bool(false)
bool(true)
bool(true)
left: ["canary"]
