--TEST--
PHP-FPM request_terminate_timeout: FPM kills a worker stuck while holding a lock with SIGTERM; no request shutdown runs in it (no shutdown function, no request-end release), so the lock stays until its TTL and a waiting request gets it only then; with redis_lock.auto_renew=1 and a short lockSecond the lock outlives its TTL while the worker lives, and frees within one lease after the kill
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$redis = RedisServer::start();
$pool = FpmPool::start(['children' => 2, 'terminate_timeout' => 3, 'ini' => ['redis_lock.server' => $redis->dsn()]]);
// The waiters run in a pool of their own without a terminate timeout: a wait
// longer than 3 s would get them killed too.
$calm = FpmPool::start(['children' => 2, 'ini' => ['redis_lock.server' => $redis->dsn()]]);
$sock = var_export('unix://' . $redis->socket, true);

$pool->script('hold.php', <<<PHP
if (\$_GET['renew'] === '1') {
    ini_set('redis_lock.auto_renew', '1');
}
\$key = \$_GET['key'];
register_shutdown_function(function () use (\$key): void {
    (new RespClient($sock))->cmd('SET', "shutdown-ran:\$key", '1');
});
if (!RedisMutexLock::lock(\$key, 0, (int) \$_GET['ttl'])) {
    echo "busy\\n";
    exit;
}
echo 'locked ', getmypid(), ' ', rl_now(), "\\n";
flush();
rl_sleep(30); // far past request_terminate_timeout
echo "not reached\\n";
PHP);

$calm->script('wait.php', <<<'PHP'
$t = rl_now();
$got = RedisMutexLock::lock($_GET['key'], 15);
$waited = rl_now() - $t;
echo var_export($got, true), ' ', $waited, ' ', var_export(RedisMutexLock::release($_GET['key']), true), ' ', $t, "\n";
PHP);

foreach ([
    'no renewals, lockSecond 8' => ['key' => 'plain', 'ttl' => 8, 'renew' => '0'],
    'auto_renew=1, lockSecond 2' => ['key' => 'renewed', 'ttl' => 2, 'renew' => '1'],
] as $name => $q) {
    $r = $pool->get('hold.php', $q, 20);
    $killedAt = rl_now();
    $value = $redis->cmd('GET', "lock:{$q['key']}");
    $pttl = $redis->cmd('PTTL', "lock:{$q['key']}");
    $pttlAt = rl_now();
    [, $pid, $lockedAt] = explode(' ', trim($r->body())) + [null, '0', '0'];
    $ttl = $q['ttl'];
    echo "$name:\n";
    printf("  response: %s (%s), body: %s\n", $r->outcome, $r->appStatus === null ? 'no FCGI_END_REQUEST' : 'ended', preg_replace('/\d+ [\d.]+$/', 'PID T', trim($r->body())));
    $held = $killedAt - (float) $lockedAt;
    printf("  killed after the 3 s terminate timeout (3 to 6 s after the lock): %s\n",
        $held >= 2.9 && $held < 6 ? 'true' : sprintf('false (%.1f s)', $held));
    printf("  worker gone: %s\n", var_export(rl_eventually(fn () => file_exists("/proc/$pid"), false, 3) === false, true));
    printf("  held for longer than lockSecond: %s\n", var_export($held > $ttl, true));
    printf("  right after the kill the key still holds the killed worker's token: %s, TTL left: %s\n",
        var_export(rl_is_token($value) && explode(':', $value)[2] === $pid, true),
        $pttl > 0 && $pttl <= $ttl * 1000 ? "> 0, <= {$ttl} s" : var_export($pttl, true));
    printf("  shutdown function ran: %s\n", var_export($redis->cmd('EXISTS', "shutdown-ran:{$q['key']}") === 1, true));
    // A request that waits for the lock gets it when the TTL left has run out, not before.
    $w = $calm->get('wait.php', ['key' => $q['key']], 20);
    if ($w->outcome !== "ok" || !preg_match("/^(true|false) /", $w->body())) { echo "  wait.php: ", $w->describe(), "\n"; }
    [$got, $waited, $released, $startedAt] = explode(' ', trim($w->body())) + [null, '0', null, '0'];
    // From the TTL's read, not from the request's start, which may come a while later.
    $waited = (float) $startedAt + (float) $waited - $pttlAt;
    $low = $pttl / 1000 - 0.25;
    $high = $pttl / 1000 + 1.5;
    printf("  a waiting request gets it: %s, after the TTL left (%s): %s, released: %s\n", $got,
        $ttl === 2 ? 'within one lease' : 'not before',
        var_export($waited >= $low && $waited <= $high, true) . ($waited >= $low && $waited <= $high ? '' : sprintf(' (%.2f s, TTL left %d ms)', $waited, $pttl)),
        $released);
    $log = $pool->logText();
    printf("  FPM log: %s; %s\n",
        preg_match("/child $pid, script '[^']*hold\\.php' \\(request: \"GET \\/hold\\.php\\?[^\"]*\"\\) execution timed out \\([\\d.]+ sec\\), terminating/", $log) ? 'execution timed out, terminating' : 'no timeout line',
        preg_match("/child $pid exited on signal 15 \\(SIGTERM\\)/", $log) ? 'exited on signal 15 (SIGTERM)' : 'no exit line');
    echo "  keys left: ", json_encode($redis->keys()), "\n";
}
echo "workers now: ", count($pool->workerPids()), ", crashes of the waiters' pool: ", json_encode($calm->crashLines()), "\n";
?>
--EXPECT--
no renewals, lockSecond 8:
  response: closed (no FCGI_END_REQUEST), body: locked PID T
  killed after the 3 s terminate timeout (3 to 6 s after the lock): true
  worker gone: true
  held for longer than lockSecond: false
  right after the kill the key still holds the killed worker's token: true, TTL left: > 0, <= 8 s
  shutdown function ran: false
  a waiting request gets it: true, after the TTL left (not before): true, released: true
  FPM log: execution timed out, terminating; exited on signal 15 (SIGTERM)
  keys left: []
auto_renew=1, lockSecond 2:
  response: closed (no FCGI_END_REQUEST), body: locked PID T
  killed after the 3 s terminate timeout (3 to 6 s after the lock): true
  worker gone: true
  held for longer than lockSecond: true
  right after the kill the key still holds the killed worker's token: true, TTL left: > 0, <= 2 s
  shutdown function ran: false
  a waiting request gets it: true, after the TTL left (within one lease): true, released: true
  FPM log: execution timed out, terminating; exited on signal 15 (SIGTERM)
  keys left: []
workers now: 2, crashes of the waiters' pool: []
