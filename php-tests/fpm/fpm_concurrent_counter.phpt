--TEST--
PHP-FPM: 300 concurrent requests (24 connections, 4 workers recycled every 20 requests) each add 1 to a shared counter under RedisMutexLock::lock($k, 5): the count is exact, never two inside at once, no key left; without the lock the same load loses updates
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$redis = RedisServer::start();
$pool = FpmPool::start(['children' => 4, 'max_requests' => 20, 'ini' => ['redis_lock.server' => $redis->dsn()]]);

// A read-modify-write with a 1 ms gap between GET and SET, through a client
// of its own: two requests inside at once would lose an update.
$pool->script('counter.php', sprintf(<<<'PHP'
$redis = new RespClient(%s);
$locking = ($_GET['lock'] ?? '1') === '1';
if ($locking && !RedisMutexLock::lock('counter', 5)) {
    echo "not locked\n";
    exit;
}
$inside = $redis->cmd('INCR', 'inside');
$v = (int) $redis->cmd('GET', 'counter');
rl_sleep(0.001);
$redis->cmd('SET', 'counter', $v + 1);
$redis->cmd('DECR', 'inside');
echo 'ok inside=', $inside, ' release=', var_export($locking ? RedisMutexLock::release('counter') : true, true), "\n";
PHP, var_export('unix://' . $redis->socket, true)));

$summary = function (array $responses): string {
    $seen = [];
    foreach ($responses as $r) {
        $line = $r->outcome === 'ok' ? trim($r->body()) : $r->describe();
        $seen[$line] = ($seen[$line] ?? 0) + 1;
    }
    ksort($seen);
    return implode(', ', array_map(fn ($k, $n) => "$n × $k", array_keys($seen), $seen));
};

[$responses, $took] = rl_timed(fn () => $pool->run(array_fill(0, 300, ['counter.php', ['lock' => '1']]), 24, 30));
echo "with the lock: ", $summary($responses), "\n";
echo "counter: ", $redis->cmd('GET', 'counter'), ", inside: ", $redis->cmd('GET', 'inside'), "\n";
echo "keys left: ", json_encode(rl_keys_except($redis, ['counter', 'inside'])), "\n";
echo "within 30 s: ", $took < 30 ? 'true' : sprintf('false (%.1f s)', $took), "\n";

// The same load without the lock: the test can tell a lock that does nothing.
$redis->cmd('DEL', 'counter', 'inside');
$responses = $pool->run(array_fill(0, 100, ['counter.php', ['lock' => '0']]), 24, 30);
$overlaps = count(array_filter($responses, fn ($r) => !str_starts_with($r->body(), 'ok inside=1 ')));
$count = (int) $redis->cmd('GET', 'counter');
echo "without the lock: updates lost: ", var_export($count < 100, true), ", requests that saw another inside: ",
    $overlaps > 0 ? 'some' : 'none', " ($count/100, $overlaps)\n";

echo "worker crashes: ", json_encode($pool->crashLines()), "\n";
echo "workers recycled: ", var_export(substr_count($pool->logText(), 'exited with code 0') >= 10, true), "\n";
?>
--EXPECTF--
with the lock: 300 × ok inside=1 release=true
counter: 300, inside: 0
keys left: []
within 30 s: true
without the lock: updates lost: true, requests that saw another inside: some (%d/100, %d)
worker crashes: []
workers recycled: true
