--TEST--
Lock token "<32 hex>:<host>:<pid>:<since ms>": a host name with spaces, colons and slashes (set in a UTS namespace) is stored with those characters replaced by "_", so the token still parses (inspect() gives host and pid back)
--SKIPIF--
<?php
require __DIR__ . '/../inc/fake_server.inc';
if (!rl_have('unshare')) die('skip unshare not installed');
[$code, $out] = rl_run(['unshare', '-u', 'sh', '-c', 'printf x > /proc/sys/kernel/hostname']);
if ($code !== 0) die('skip cannot set a host name in a new UTS namespace (needs root): ' . trim($out));
?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
$dir = rl_tmpdir('rl-host');
file_put_contents("$dir/child.php", rl_lease_child_code(<<<'PHP'
ini_set('redis_lock.server', $argv[1]);
$ok = RedisMutexLock::lock('h', 0, 30);
$c = new RespClient($argv[2]);
$i = RedisMutexLock::inspect('h');
echo json_encode(['host' => gethostname(), 'pid' => getmypid(), 'lock' => $ok, 'token' => $c->cmd('GET', 'lock:h'),
    'holder' => $i['holder'], 'release' => RedisMutexLock::release('h')]), "\n";
PHP));
foreach (['bad host:name/x' => 'bad_host_name_x', str_repeat('a:', 32) => str_repeat('a_', 32), 'ok-host.example_1' => 'ok-host.example_1'] as $name => $want) {
    [$code, $out] = rl_run(['unshare', '-u', 'sh', '-c', 'printf "%s" "$1" > /proc/sys/kernel/hostname && shift && exec "$@"', 'sh', $name,
        PHP_BINARY, '-n', '-d', 'extension=' . rl_extension_path(), "$dir/child.php", $redis->dsn(), 'unix://' . $redis->socket]);
    $r = json_decode($out, true);
    if (!is_array($r)) {
        echo "child failed ($code): $out\n";
        continue;
    }
    $parts = rl_token_parts($r['token']);
    printf("%s: host name set: %s, locked: %s, token: %s, host in it: %s, pid: %s, inspect: %s, released: %s\n",
        json_encode($name), var_export($r['host'] === $name, true), var_export($r['lock'], true),
        var_export(rl_is_token($r['token']), true), $parts[1] ?? '-', var_export(($parts[2] ?? 0) === $r['pid'], true),
        var_export($r['holder']['host'] === $want && $r['holder']['pid'] === $r['pid'], true), var_export($r['release'], true));
}
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
"bad host:name\/x": host name set: true, locked: true, token: true, host in it: bad_host_name_x, pid: true, inspect: true, released: true
"a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:": host name set: true, locked: true, token: true, host in it: a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_a_, pid: true, inspect: true, released: true
"ok-host.example_1": host name set: true, locked: true, token: true, host in it: ok-host.example_1, pid: true, inspect: true, released: true
keys: []
