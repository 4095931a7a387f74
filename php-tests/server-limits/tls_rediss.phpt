--TEST--
rediss:// with redis_lock.tls_ca_file: locks over TLS; an unknown CA or no TLS fails with RedisLockException
--SKIPIF--
<?php
exec('openssl version 2>&1', $out, $rc);
if ($rc !== 0) die('skip the openssl CLI is needed');
?>
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
[$redis, $ca, $certs] = rl_tls_server();
$port = $redis->tlsPort;
$show = fn ($r) => str_replace([(string) $port, $certs], ['PORT', 'DIR'], rl_show($r));

ini_set('redis_lock.server', $redis->dsn());
echo "dsn: ", str_replace((string) $port, 'PORT', $redis->dsn()), "\n";
ini_set('redis_lock.tls_ca_file', $ca);
var_dump(RedisMutexLock::lock('tls', 0, 30));
echo "token over TLS: ", var_export(rl_is_token($redis->cmd('GET', 'lock:tls')), true), "\n";
var_dump(RedisMutexLock::release('tls'));
echo "gone: ", var_export($redis->cmd('EXISTS', 'lock:tls') === 0, true), "\n";

// By host name: the certificate names localhost too.
ini_set('redis_lock.server', "rediss://localhost:$port");
var_dump(RedisMutexLock::lock('by-name'));
var_dump(RedisMutexLock::release('by-name'));

// Settings that must fail, each in a fresh process (no pooled connection).
function fresh(array $ini): string
{
    $r = PhpChild::run(<<<'PHP'
    <?php
    try {
        var_dump(RedisMutexLock::lock('untrusted'));
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    PHP, $ini);
    return trim($r['out'] . $r['err']);
}
$other = rl_tmpdir('rl-tls-other');
file_put_contents("$certs/garbage.pem", "not a certificate\n");
foreach ([
    'no CA file (system store)' => ['redis_lock.server' => $redis->dsn()],
    'another CA' => ['redis_lock.server' => $redis->dsn(), 'redis_lock.tls_ca_file' => rl_make_ca($other, 'other')],
    'missing CA file' => ['redis_lock.server' => $redis->dsn(), 'redis_lock.tls_ca_file' => "$certs/missing.pem"],
    'CA file not PEM' => ['redis_lock.server' => $redis->dsn(), 'redis_lock.tls_ca_file' => "$certs/garbage.pem"],
] as $name => $ini) {
    echo "$name: ", str_replace([(string) $port, $certs], ['PORT', 'DIR'], fresh($ini)), "\n";
}
// A certificate from the right CA, but for another name.
[$elsewhere] = rl_tls_server($certs, 'DNS:elsewhere.example', 'elsewhere');
echo "certificate for another name: ", str_replace((string) $elsewhere->tlsPort, 'PORT2', fresh([
    'redis_lock.server' => $elsewhere->dsn(), 'redis_lock.tls_ca_file' => $ca,
])), "\n";

// Plain redis:// to the TLS port: an error, quickly, not a hang.
$r = PhpChild::run(<<<'PHP'
<?php
$t = hrtime(true);
try {
    var_dump(RedisMutexLock::lock('plain'));
} catch (RedisLockException $e) {
    echo "RedisLockException";
}
printf(", < 1.5 s: %s\n", var_export((hrtime(true) - $t) / 1e9 < 1.5, true));
PHP, ['redis_lock.server' => "redis://127.0.0.1:$port"]);
echo "plain to TLS port: ", $r['out'], $r['err'];
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
dsn: rediss://127.0.0.1:PORT
bool(true)
token over TLS: true
bool(true)
gone: true
bool(true)
bool(true)
no CA file (system store): RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: TLS handshake: %scertificate verify failed%s
another CA: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: TLS handshake: %scertificate verify failed%s
missing CA file: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: cannot read the CA file DIR/missing.pem: No such file or directory (os error 2)
CA file not PEM: RedisLockException: Redis at 127.0.0.1:PORT: cannot connect: the CA file DIR/garbage.pem is not PEM: %s
certificate for another name: RedisLockException: Redis at 127.0.0.1:PORT2: cannot connect: TLS handshake: %scertificate verify failed%s(IP address mismatch)
plain to TLS port: RedisLockException, < 1.5 s: true
keys: []
