--TEST--
PHP-FPM: RedLock over 3 Redis servers, 300 concurrent requests (24 connections, 4 workers recycled every 25 requests) each add 1 to a shared counter under the lock (retrying until acquired): the count is exact, never two inside at once, every unlock() true, no key left on any node
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$servers = rl_start_servers(3);
$data = RedisServer::start(); // the counter lives elsewhere
$pool = FpmPool::start(['children' => 4, 'max_requests' => 25]);

$pool->script('counter.php', sprintf(<<<'PHP'
$redis = new RespClient(%s);
$rl = new RedLock(%s, 0, 1);
$deadline = rl_now() + 20;
$attempts = 0;
do {
    $attempts++;
    $lock = $rl->lock('counter-lock', 5000);
} while ($lock === false && rl_now() < $deadline && (rl_sleep(mt_rand(1, 20) / 1000) || true));
if ($lock === false) {
    echo "not locked after $attempts attempts\n";
    exit;
}
$inside = $redis->cmd('INCR', 'inside');
$v = (int) $redis->cmd('GET', 'counter');
rl_sleep(0.001);
$redis->cmd('SET', 'counter', $v + 1);
$redis->cmd('DECR', 'inside');
echo 'ok inside=', $inside, ' unlock=', var_export($rl->unlock($lock), true), ' validity>0=', var_export($lock['validity'] > 0, true), "\n";
PHP, var_export('unix://' . $data->socket, true), var_export(rl_redlock_list($servers), true)));

[$responses, $took] = rl_timed(fn () => $pool->run(array_fill(0, 300, ['counter.php']), 24, 40));
$seen = [];
foreach ($responses as $r) {
    $line = $r->outcome === 'ok' ? trim($r->body()) : $r->describe();
    $seen[$line] = ($seen[$line] ?? 0) + 1;
}
echo "responses: ", json_encode($seen), "\n";
echo "counter: ", $data->cmd('GET', 'counter'), ", inside: ", $data->cmd('GET', 'inside'), "\n";
echo "keys left on the nodes: ", rl_eventually(fn () => rl_all_keys($servers), '[] [] []', 1), "\n";
echo "within 40 s: ", $took < 40 ? 'true' : sprintf('false (%.1f s)', $took), "\n";
echo "worker crashes: ", json_encode($pool->crashLines()), "\n";
?>
--EXPECT--
responses: {"ok inside=1 unlock=true validity>0=true":300}
counter: 300, inside: 0
keys left on the nodes: [] [] []
within 40 s: true
worker crashes: []
