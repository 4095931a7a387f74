--TEST--
Redis Cluster over TLS (3 real masters with TLS ports, TLS between the nodes): a rediss-cluster:// DSN learns the TLS ports from CLUSTER SLOTS and locks on every master; a lock whose slot moved is released on its new master through MOVED (a TLS port again); a certificate from another CA fails naming the node
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
require __DIR__ . '/../inc/tls.inc';
$dir = rl_tmpdir('rl-tls');
$ca = rl_make_ca($dir);
[$cert, $key] = rl_make_server_cert($dir, usage: 'serverAuth,clientAuth');
$c = RlCluster::start(3, 0, ['--tls-cert-file', $cert, '--tls-key-file', $key, '--tls-ca-cert-file', $ca, '--tls-auth-clients', 'no']);
[$m1, $m2, $m3] = $c->masters();
$dsn = $c->dsn([$m1]);
echo "DSN: ", preg_replace('/\d+/', 'N', $dsn), ", a TLS port: ", var_export(!str_contains($dsn, ":{$m1->port}"), true), "\n";
ini_set('redis_lock.tls_ca_file', $ca);
ini_set('redis_lock.server', $dsn);

foreach ([$m1, $m2, $m3] as $i => $m) {
    $key = substr($c->keyOn($m, 'lock:tls'), 5);
    $ok = RedisMutexLock::lock($key, 0, 30);
    echo "M", $i + 1, ": lock ", var_export($ok, true), ", token there: ", var_export(rl_is_token($m->cmd('GET', "lock:$key")), true),
        ", release: ", var_export(RedisMutexLock::release($key), true), "\n";
}

$key = substr($c->keyOn($m1, 'lock:moved'), 5);
var_dump(RedisMutexLock::lock($key, 0, 30));
$c->migrateSlot($c->slot("lock:$key"), $m3);
echo "after the migration: on M3 ", $m3->cmd('EXISTS', "lock:$key"), ", release (MOVED): ", var_export(RedisMutexLock::release($key), true),
    ", left: ", $m3->cmd('EXISTS', "lock:$key"), "\n";

// A CA that did not sign the nodes' certificates.
$other = rl_tmpdir('rl-tls-other');
ini_set('redis_lock.tls_ca_file', rl_make_ca($other));
ini_set('redis_lock.server', $dsn . '?wait_replicas=0');
$r = rl_timed(fn () => RedisMutexLock::lock('x'))[0];
echo preg_replace('/127\.0\.0\.1:\d+/', '127.0.0.1:P', rl_show($r)), "\n";
?>
--EXPECTF--
DSN: rediss-cluster://N.N.N.N:N, a TLS port: true
M1: lock true, token there: true, release: true
M2: lock true, token there: true, release: true
M3: lock true, token there: true, release: true
bool(true)
after the migration: on M3 1, release (MOVED): true, left: 0
RedisLockException: Redis at cluster 127.0.0.1:P: the slot map could not be learned: Redis at 127.0.0.1:P: cannot connect: %scertificate verify failed%s
