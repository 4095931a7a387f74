--TEST--
redis-lock with the extension's DSNs: a Redis Cluster named by one seed (every master listed, each lock with the master that holds it; show and release --force follow the key to its master), a master named by its sentinels (redis-sentinel://), and a TLS server (rediss:// with --tls-ca-file; without it the certificate is refused: exit 3 naming the server)
--SKIPIF--
<?php if (!function_exists('posix_kill') || !is_executable(__DIR__ . '/../../target/release/redis-lock')) die('skip posix or redis-lock missing'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
require __DIR__ . '/../inc/cluster.inc';
require __DIR__ . '/../inc/sentinel.inc';
require __DIR__ . '/../inc/tls.inc';

$c = RlCluster::start();
$masters = $c->masters();
ini_set('redis_lock.server', $c->dsn([$masters[0]]));
$want = [];
foreach ($masters as $m) {
    $key = substr($c->keyOn($m, 'lock:job'), strlen('lock:'));
    RedisMutexLock::lock($key, 0, 30);
    $want[$key] = "127.0.0.1:{$m->port}";
}
ksort($want);
$seed = ['--server', $c->dsn([$masters[0]])];
$got = array_column(rl_cli_json([...$seed, 'list', '--json']), 'node', 'key');
ksort($got);
echo "cluster: every lock on its master: ", json_encode($got === $want), " (", count($got), " locks on ", count(array_unique($got)), " masters)\n";
$last = array_key_last($want);
echo "show follows the key: ", json_encode(rl_cli_json([...$seed, 'show', $last, '--json'])[0]['node'] === $want[$last]), "\n";
$r = rl_cli([...$seed, 'release', $last, '--force']);
echo "release --force: exit {$r['status']}, gone from its master: ", json_encode($c->masterOfKey("lock:$last")->cmd('EXISTS', "lock:$last") === 0), "\n";
$c = null;

$s = RlSentinels::start();
ini_set('redis_lock.server', $s->dsn());
RedisMutexLock::lock('via-sentinels', 0, 30);
$l = rl_cli_json(['--server', $s->dsn(), 'list', '--json']);
echo "sentinel: ", implode(',', array_column($l, 'key')), " on the master: ", json_encode(($l[0]['node'] ?? '') === "127.0.0.1:{$s->master()->port}"), "\n";
$s = null;

[$tls, $ca] = rl_tls_server();
ini_set('redis_lock.server', $tls->dsn());
ini_set('redis_lock.tls_ca_file', $ca);
RedisMutexLock::lock('secret', 0, 30);
echo "tls: ", implode(',', array_column(rl_cli_json(['--server', $tls->dsn(), '--tls-ca-file', $ca, 'list', '--json']), 'key')), "\n";
$r = rl_cli(['--server', $tls->dsn(), 'list']);
echo "tls without the CA: exit {$r['status']}, names the server: ", json_encode(str_contains($r['err'], "127.0.0.1:{$tls->tlsPort}")), "\n";
?>
--EXPECT--
cluster: every lock on its master: true (3 locks on 3 masters)
show follows the key: true
release --force: exit 0, gone from its master: true
sentinel: via-sentinels on the master: true
tls: secret
tls without the CA: exit 3, names the server: true
