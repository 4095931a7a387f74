--TEST--
TLS settings are part of what a pooled connection is: after redis_lock.tls_ca_file changes, a new connection is verified with the new CA; a CA path that is a device or a FIFO fails at once instead of blocking or reading forever
--SKIPIF--
<?php
exec('openssl version 2>&1', $out, $rc);
if ($rc !== 0) die('skip the openssl CLI is needed');
if (!function_exists('posix_mkfifo')) die('skip posix_mkfifo() is needed');
?>
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
[$redis, $ca, $certs] = rl_tls_server();
$port = $redis->tlsPort;
$show = fn ($r) => str_replace([(string) $port, $certs], ['PORT', 'DIR'], rl_show($r));
ini_set('redis_lock.server', $redis->dsn());

ini_set('redis_lock.tls_ca_file', $ca);
echo "right CA: ", $show(RedisMutexLock::lock('a')), "\n";
echo "clients after the first lock: ", $redis->otherClients(), "\n";

// Another CA: the pooled connection (verified with the old CA) is not reused.
$other = rl_tmpdir('rl-tls-other');
ini_set('redis_lock.tls_ca_file', rl_make_ca($other, 'other'));
[$r] = rl_timed(fn () => RedisMutexLock::lock('b'));
echo "another CA: ", str_replace($other, 'OTHER', $show($r)), "\n";
echo "b taken: ", var_export($redis->cmd('EXISTS', 'lock:b') === 1, true), "\n";

// Back to the right CA: its pooled connection is still there and works.
ini_set('redis_lock.tls_ca_file', $ca);
echo "right CA again, release a: ", $show(RedisMutexLock::release('a')), "\n";

// A CA "file" that never ends or never answers.
posix_mkfifo("$certs/fifo.pem", 0600);
foreach (['/dev/zero', "$certs/fifo.pem", $certs] as $path) {
    ini_set('redis_lock.tls_ca_file', $path);
    [$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('c'));
    printf("%s: %s, < 1 s: %s\n", str_replace($certs, 'DIR', $path), $show($r), var_export($secs < 1, true));
}
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
right CA: true
clients after the first lock: 1
another CA: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: TLS handshake: %scertificate verify failed%s
b taken: false
right CA again, release a: true
/dev/zero: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: the CA file /dev/zero is not a regular file, < 1 s: true
DIR/fifo.pem: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: the CA file DIR/fifo.pem is not a regular file, < 1 s: true
DIR: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: the CA file DIR is not a regular file, < 1 s: true
keys: []
