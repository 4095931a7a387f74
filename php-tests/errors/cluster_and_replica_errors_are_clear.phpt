--TEST--
Pointed with a plain redis:// DSN at a read-only replica, at a Cluster node that does not own the key, or at a Sentinel (real servers), RedisMutexLock and RedLock throw a RedisLockException that says so in plain words and names the DSN that fits (no raw reply, no token); a key the Cluster node owns works
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';

$report = function (string $name, mixed $r, string $re, ?float $secs = null, float $limit = 0.5): void {
    $msg = $r instanceof Throwable ? $r->getMessage() : '';
    echo $name, ': ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
        ', message as expected: ', preg_match($re, $msg) ? 'true' : "false ($msg)",
        $secs === null ? '' : ", < $limit s: " . ($secs < $limit ? 'true' : sprintf('false (%.3f s)', $secs)), "\n";
};

// (a) A read-only replica of a master.
$master = RedisServer::start();
$replica = RedisServer::start(['--replicaof', '127.0.0.1', (string) $master->port]);
$up = rl_eventually(fn () => (bool) preg_match('/^master_link_status:up\r?$/m', $replica->cmd('INFO', 'replication')), true, 15);
echo "replica: link up: ", var_export($up, true), "\n";
$ro = '/^Redis at 127\.0\.0\.1:' . $replica->port . ': the server is a read-only replica \(READONLY .*\); name the master, or its sentinels with a redis-sentinel:\/\/ DSN$/';
ini_set('redis_lock.server', $replica->dsn());
$report('replica: RedisMutexLock::lock()', rl_timed(fn () => RedisMutexLock::lock('k'))[0], $ro);
// An error reply is an outage, not "somebody else holds it": no waiting until $timeout.
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k', 3, 20, 10000));
$report('replica: RedisMutexLock::lock(), timeout 3', $r, $ro, $secs, 1.0);
echo "replica: release(): ", rl_show(RedisMutexLock::release('k')), "\n";
$rl = new RedLock([['127.0.0.1', $replica->port]], 50, 2);
$report('replica: RedLock::lock()', rl_timed(fn () => $rl->lock('r', 10000))[0],
    '/^RedLock::lock\(\): fewer than 1 of 1 Redis nodes could be reached: ' . substr($ro, 2));
echo "replica: keys on the master: ", json_encode($master->keys()), "\n";

// (b) A Cluster of two masters: A owns slots 0-8191, B 8192-16383.
$nodes = [];
foreach (['A', 'B'] as $n) {
    $bus = rl_free_port();
    $nodes[$n] = [RedisServer::start(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-port', (string) $bus]), $bus];
}
[[$a], [$b, $busB]] = [$nodes['A'], $nodes['B']];
echo "cluster: ", $a->cmd('CLUSTER', 'ADDSLOTSRANGE', '0', '8191'), ' ', $b->cmd('CLUSTER', 'ADDSLOTSRANGE', '8192', '16383'),
    ' ', $a->cmd('CLUSTER', 'MEET', '127.0.0.1', (string) $b->port, (string) $busB), "\n";
$ok = fn (RedisServer $s) => str_contains((string) $s->cmd('CLUSTER', 'INFO'), 'cluster_state:ok');
echo "cluster: state ok on both: ", var_export(rl_eventually(fn () => $ok($a) && $ok($b), true, 20), true), "\n";
$onA = $onB = null;
for ($i = 0; $i < 1000 && ($onA === null || $onB === null); $i++) {
    $slot = $a->cmd('CLUSTER', 'KEYSLOT', "lock:k$i");
    if ($slot < 8192) {
        $onA ??= "k$i";
    } else {
        $onB ??= "k$i";
    }
}
echo "cluster: keys on A and on B found: ", var_export($onA !== null && $onB !== null, true), "\n";
$moved = '/^Redis at 127\.0\.0\.1:' . $a->port . ': the key belongs to another node of a Redis Cluster \(MOVED \d+ 127\.0\.0\.1:' . $b->port
    . '\); name the cluster with a redis-cluster:\/\/ DSN$/';
ini_set('redis_lock.server', $a->dsn());
$report("cluster: RedisMutexLock::lock() of a key on B, through A", rl_timed(fn () => RedisMutexLock::lock($onB))[0], $moved);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock($onB, 3, 20, 10000));
$report("cluster: the same, timeout 3", $r, $moved, $secs, 1.0);
echo "cluster: release() of the key on B: ", rl_show(RedisMutexLock::release($onB)), "\n";
echo "cluster: RedisMutexLock::lock() of a key on A: ", rl_show(RedisMutexLock::lock($onA)), "\n";
echo "cluster: A holds a token: ", var_export(rl_is_token($a->cmd('GET', "lock:$onA")), true), "\n";
echo "cluster: release(): ", rl_show(RedisMutexLock::release($onA)), "\n";
$rl = new RedLock([['127.0.0.1', $a->port]], 50, 2);
$report('cluster: RedLock::lock() of a key on B, through A', rl_timed(fn () => $rl->lock("lock:$onB", 10000))[0],
    '/^RedLock::lock\(\): fewer than 1 of 1 Redis nodes could be reached: ' . substr($moved, 2));
$lock = $rl->lock("lock:$onA", 10000);
echo "cluster: RedLock::lock() of a key on A: ", is_array($lock) ? 'array' : rl_show($lock),
    ", unlock: ", rl_show(is_array($lock) ? $rl->unlock($lock) : 'no lock'), "\n";
echo "cluster: keys on A, on B: ", json_encode($a->keys()), ' ', json_encode($b->keys()), "\n";

// (c) A Sentinel (of the master of (a)): it answers SET, EVALSHA... with an error reply that
// echoes the arguments, the token among them.
$dir = rl_tmpdir('rl-sentinel');
$port = rl_free_port();
file_put_contents("$dir/sentinel.conf", "port $port\nbind 127.0.0.1\ndir $dir\nsentinel monitor m 127.0.0.1 {$master->port} 1\n");
// redis-sentinel is redis-server in Sentinel mode.
$cmd = rl_have('redis-sentinel') ? ['redis-sentinel', "$dir/sentinel.conf"] : ['redis-server', "$dir/sentinel.conf", '--sentinel'];
$sentinel = new RlProcess($cmd);
$ready = rl_eventually(function () use ($port) {
    try {
        $c = new RespClient("tcp://127.0.0.1:$port", 1);
        return $c->cmd('PING') === 'PONG' && str_contains((string) $c->cmd('INFO', 'server'), 'redis_mode:sentinel');
    } catch (RuntimeException) {
        return false;
    }
}, true, 10);
if (!$ready) {
    echo "sentinel: skipped: no Sentinel could be started (", implode(' ', $cmd), "): ", str_replace("\n", " | ", trim($sentinel->output())), "\n";
} else {
    // One line (EXPECTF matches line by line): either both checks, or the note that (c) was skipped.
    $check = function (string $name, mixed $r, string $re): string {
        $msg = $r instanceof Throwable ? $r->getMessage() : '';
        $ok = $r instanceof RedisLockException && preg_match($re, $msg) && !preg_match('/[0-9a-f]{32}/i', $msg);
        return "$name: " . ($ok ? 'RedisLockException naming the error reply, token masked' : 'unexpected: ' . rl_show($r));
    };
    $err = "Redis at 127\\.0\\.0\\.1:$port: error reply: ERR unknown command '[a-zA-Z]+', with args beginning with: .*<token>";
    ini_set('redis_lock.server', "redis://127.0.0.1:$port");
    $line = $check('RedisMutexLock::lock()', rl_timed(fn () => RedisMutexLock::lock('k'))[0], "/^$err/");
    $rl = new RedLock([['127.0.0.1', $port]], 50, 2);
    $line .= '; ' . $check('RedLock::lock()', rl_timed(fn () => $rl->lock('r', 10000))[0], "/^RedLock::lock\\(\\): fewer than 1 of 1 Redis nodes could be reached: $err/");
    echo "sentinel: $line\n";
}
?>
--EXPECTF--
replica: link up: true
replica: RedisMutexLock::lock(): RedisLockException, message as expected: true
replica: RedisMutexLock::lock(), timeout 3: RedisLockException, message as expected: true, < 1 s: true
replica: release(): false
replica: RedLock::lock(): RedisLockException, message as expected: true
replica: keys on the master: []
cluster: OK OK OK
cluster: state ok on both: true
cluster: keys on A and on B found: true
cluster: RedisMutexLock::lock() of a key on B, through A: RedisLockException, message as expected: true
cluster: the same, timeout 3: RedisLockException, message as expected: true, < 1 s: true
cluster: release() of the key on B: false
cluster: RedisMutexLock::lock() of a key on A: true
cluster: A holds a token: true
cluster: release(): true
cluster: RedLock::lock() of a key on B, through A: RedisLockException, message as expected: true
cluster: RedLock::lock() of a key on A: array, unlock: true
cluster: keys on A, on B: [] []
sentinel: %r(RedisMutexLock::lock\(\): RedisLockException naming the error reply, token masked; RedLock::lock\(\): RedisLockException naming the error reply, token masked|skipped: .*)%r
