--TEST--
NUL bytes: in redis_lock.server, redis_lock.tls_ca_file, a RedLock DSN, host or unix socket path they are a ValueError showing \0; any exception message (RedisLockException included) shows a NUL byte as \0 instead of failing to be thrown
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
$p = $redis->port;
ini_set('redis_lock.server', $redis->dsn());
$show = fn (callable $call) => str_replace((string) $p, 'P', rl_show(rl_timed($call)[0]));

foreach (['redis_lock.server' => $redis->dsn() . "\0x", 'redis_lock.tls_ca_file' => "/tmp/ca\0.pem", 'redis_lock.read_timeout' => "1\0"] as $name => $value) {
    $old = ini_set($name, $value);
    echo "$name: ", $show(fn () => RedisMutexLock::lock('k')), "\n";
    echo "$name (RedLock): ", $show(function () use ($p) {
        $rl = new RedLock([['127.0.0.1', $p]]);
        $lock = $rl->lock('r', 1000);
        return is_array($lock) ? $rl->unlock($lock) : $lock;
    }), "\n";
    ini_set($name, $old);
}
foreach ([
    'DSN' => "redis://127.0.0.1:$p\0",
    'DSN password' => "redis://:pw\0@127.0.0.1:$p",
    'host' => ['127.0.0.1' . "\0" . 'evil', $p],
    'unix path' => "unix:///tmp/redis\0.sock",
    'unix path %00' => 'unix:///tmp/redis%00.sock',
] as $what => $entry) {
    echo "RedLock $what: ", $show(fn () => new RedLock([$entry])), "\n";
}
// The prefix stays binary-safe (mutex/prefix_with_nul_byte.phpt tests it in full).
ini_set('redis_lock.prefix', "a\0b:");
var_dump(RedisMutexLock::lock('k'), RedisMutexLock::release('k'));
ini_restore('redis_lock.prefix');

// A server whose error reply holds a NUL byte: the RedisLockException shows it as \0.
$fake = new PhpChild(<<<'PHP'
<?php
$s = stream_socket_server('tcp://127.0.0.1:0');
echo stream_socket_get_name($s, false), "\n";
while ($c = @stream_socket_accept($s, 20)) {
    while (($data = fread($c, 65536)) !== false && $data !== '') {
        fwrite($c, str_repeat("-ERR bad\0byte\r\n", substr_count($data, "*")));
    }
}
PHP, [], [], false);
$addr = trim($fake->readLine());
[$host, $port] = explode(':', $addr);
ini_set('redis_lock.server', "redis://$addr");
$r = rl_timed(fn () => RedisMutexLock::lock('k'))[0];
echo str_replace($port, 'F', rl_show($r)), "\n";
$r = rl_timed(fn () => (new RedLock([[$host, (int) $port]]))->lock('r', 1000))[0];
echo str_replace($port, 'F', rl_show($r)), "\n";
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
redis_lock.server: ValueError: RedisMutexLock::lock(): redis_lock.server must not contain any null bytes (\0)
redis_lock.server (RedLock): true
redis_lock.tls_ca_file: ValueError: RedisMutexLock::lock(): redis_lock.tls_ca_file must not contain any null bytes (\0)
redis_lock.tls_ca_file (RedLock): ValueError: RedLock::lock(): redis_lock.tls_ca_file must not contain any null bytes (\0)
redis_lock.read_timeout: ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "1\0" given
redis_lock.read_timeout (RedLock): ValueError: RedLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "1\0" given
RedLock DSN: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must not contain any null bytes (\0)
RedLock DSN password: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must not contain any null bytes (\0)
RedLock host: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must not contain any null bytes (\0)
RedLock unix path: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must not contain any null bytes (\0)
RedLock unix path %00: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must not contain any null bytes (\0)
bool(true)
bool(true)
RedisLockException: Redis at 127.0.0.1:F: error reply: ERR bad\0byte
RedisLockException: RedLock::lock(): fewer than 1 of 1 Redis nodes could be reached: Redis at 127.0.0.1:F: error reply: ERR bad\0byte
keys: []
