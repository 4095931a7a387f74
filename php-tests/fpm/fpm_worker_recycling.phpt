--TEST--
PHP-FPM worker recycling (pm.max_requests = 5, 3 workers): 300 requests over 16 connections, each taking and releasing a RedisMutexLock (waiting; every other request with redis_lock.auto_renew=1, so that workers with a renewal thread exit too) and a RedLock lock (retrying) on 5 contended keys, are all served across 60+ short-lived workers; every exit is a clean one (no signal, no crash), no key is left and no connection of an exited worker stays open in Redis (at most two per live worker)
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$redis = RedisServer::start();
$pool = FpmPool::start(['children' => 3, 'max_requests' => 5, 'ini' => ['redis_lock.server' => $redis->dsn()]]);
$nodes = var_export([['127.0.0.1', $redis->port]], true);

$pool->script('cycle.php', <<<PHP
\$k = 'k' . (\$_GET['n'] % 5);
if (\$_GET['n'] % 2) {
    ini_set('redis_lock.auto_renew', '1'); // a renewal thread in this worker from now on
}
\$mutex = RedisMutexLock::lock(\$k, 10, 3);
\$held = RedisMutexLock::inspect(\$k)['held'];
\$released = RedisMutexLock::release(\$k);
\$rl = new RedLock($nodes, 10, 1);
\$deadline = rl_now() + 10;
while ((\$lock = \$rl->lock("rl:\$k", 5000)) === false && rl_now() < \$deadline) {
    rl_sleep(mt_rand(1, 10) / 1000);
}
\$unlocked = is_array(\$lock) && \$rl->unlock(\$lock);
echo 'mutex ', var_export(\$mutex && \$held && \$released, true), ' redlock ', var_export(\$unlocked, true), ' pid ', getmypid(), "\\n";
PHP);

$requests = [];
for ($n = 0; $n < 300; $n++) {
    $requests[] = ['cycle.php', ['n' => $n]];
}
[$responses, $took] = rl_timed(fn () => $pool->run($requests, 16, 30));
$lines = [];
$pids = [];
foreach ($responses as $r) {
    if ($r->outcome === 'ok' && preg_match('/^(.*) pid (\d+)$/', trim($r->body()), $m)) {
        $lines[$m[1]] = ($lines[$m[1]] ?? 0) + 1;
        $pids[$m[2]] = ($pids[$m[2]] ?? 0) + 1;
    } else {
        $lines[$r->describe()] = ($lines[$r->describe()] ?? 0) + 1;
    }
}
echo "responses: ", json_encode($lines), "\n";
echo "distinct worker pids: at least 300 / 5 = 60: ", var_export(count($pids) >= 60, true), " (", count($pids) >= 60 ? 'ok' : count($pids), ")\n";
echo "requests per worker: at most 5: ", var_export(max($pids) <= 5, true), "\n";
echo "within 40 s: ", $took < 40 ? 'true' : sprintf('false (%.1f s)', $took), "\n";
echo "keys left: ", json_encode($redis->keys()), "\n";
$log = $pool->logText();
echo "clean exits: at least 57: ", var_export(substr_count($log, 'exited with code 0') >= 57, true), "\n";
echo "worker crashes: ", json_encode($pool->crashLines()), "\n";
echo "warnings or errors in the FPM log: ", json_encode(array_values(preg_grep('/WARNING|ERROR|ALERT/', explode("\n", $log)))), "\n";
// Every exited worker's connections closed with it: what is left belongs to the 3
// live ones (RedLock uses the same pooled connection as RedisMutexLock; a renewal
// thread has one of its own).
$clients = rl_eventually(fn () => $redis->otherClients() <= 6, true, 3);
echo "Redis connections left: at most 2 per live worker: ", var_export($clients, true), $clients ? '' : ' (' . $redis->otherClients() . ')', "\n";
?>
--EXPECT--
responses: {"mutex true redlock true":300}
distinct worker pids: at least 300 / 5 = 60: true (ok)
requests per worker: at most 5: true
within 40 s: true
keys left: []
clean exits: at least 57: true
worker crashes: []
warnings or errors in the FPM log: []
Redis connections left: at most 2 per live worker: true
