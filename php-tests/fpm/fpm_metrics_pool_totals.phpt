--TEST--
PHP-FPM: 3 workers serve 30 requests, each taking and releasing a lock on jobs:<n> (one in three on a shared key, so some wait and are handed it); then any one request's redis_lock_metrics() shows the sum over every worker: exactly 30 acquisitions and 30 holds, more than one worker pid served them, and the answering worker's own counts are only its share
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$redis = RedisServer::start();
$pool = FpmPool::start(['children' => 3, 'ini' => ['redis_lock.server' => $redis->dsn(), 'redis_lock.metrics_patterns' => 'jobs:*']]);

// Each request holds its lock for 20 ms: concurrent requests are served by different workers.
$pool->script('work.php', <<<'PHP'
$key = 'jobs:' . ($_GET['n'] % 3 === 0 ? 'shared' : $_GET['n']);
$ok = RedisMutexLock::lock($key, 10) ? 'locked' : 'not locked';
usleep(20000);
echo $ok, ' ', var_export(RedisMutexLock::release($key), true), ' pid=', getmypid(), "\n";
PHP);
$pool->script('metrics.php', <<<'PHP'
$m = redis_lock_metrics_array();
echo json_encode(['pid' => getmypid(), 'shared' => $m['shared'], 'pool' => $m['pool'], 'process' => $m['process'], 'text' => redis_lock_metrics()]);
PHP);

$responses = $pool->run(array_map(fn ($n) => ['work.php', ['n' => $n]], range(1, 30)), 6, 30);
$pids = [];
$outcomes = [];
foreach ($responses as $r) {
    $body = $r->outcome === 'ok' ? trim($r->body()) : $r->describe();
    if (preg_match('/^(.*) pid=(\d+)$/', $body, $m)) {
        $pids[$m[2]] = ($pids[$m[2]] ?? 0) + 1;
        $body = $m[1];
    }
    $outcomes[$body] = ($outcomes[$body] ?? 0) + 1;
}
echo "requests: ", json_encode($outcomes), "\n";
echo "workers that served them: more than one: ", var_export(count($pids) > 1, true), "\n";

$r = $pool->get('metrics.php');
$m = json_decode($r->body(), true);
echo "answered by one of them: ", var_export(isset($pids[$m['pid']]) || in_array($m['pid'], $pool->workerPids(), true), true), "\n";
echo "shared: ", var_export($m['shared'], true), "\n";
foreach ($m['pool'] as $s) {
    printf("pool %s %s: acquisitions=%d holds=%d waits=%d timeouts=%d, hand-offs <= contended <= 10 (the shared key's): %s\n", $s["kind"], $s["pattern"],
        $s['acquisitions'], $s['hold']['count'], $s['wait']['count'], $s['timeouts'], var_export($s['handoffs'] <= $s['contended'] && $s['contended'] <= 10, true));
}
$mine = array_sum(array_column($m['process'], 'acquisitions'));
$servedByIt = $pids[$m['pid']] ?? 0;
echo "the answering worker's own acquisitions are its share: ", var_export($mine === $servedByIt && $mine < 30, true), " ($mine of 30)\n";
echo "text: ", preg_match('/^redis_lock_acquisitions_total\{kind="mutex",pattern="jobs:\*"\} 30$/m', $m['text']) ? 'acquisitions 30' : $m['text'], ", ",
    preg_match('/^redis_lock_hold_seconds_count\{kind="mutex",pattern="jobs:\*"\} 30$/m', $m['text']) ? 'holds 30' : '?', ", ",
    preg_match('/^redis_lock_metrics_shared 1$/m', $m['text']) ? 'shared 1' : '?', "\n";
echo "worker crashes: ", json_encode($pool->crashLines()), "\n";
?>
--EXPECTF--
requests: {"locked true":30}
workers that served them: more than one: true
answered by one of them: true
shared: true
pool mutex jobs:*: acquisitions=30 holds=30 waits=30 timeouts=0, hand-offs <= contended <= 10 (the shared key's): true
the answering worker's own acquisitions are its share: true (%d of 30)
text: acquisitions 30, holds 30, shared 1
worker crashes: []
