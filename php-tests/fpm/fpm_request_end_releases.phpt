--TEST--
PHP-FPM: a request that ends with exit(), an uncaught exception, a fatal error, exhausted memory or max_execution_time (busy loop) while holding a RedisMutexLock and a RedLock lock releases both at its end: the next request (on the same worker or another) takes them at once, no key is left, the worker lives on; a nested hold released once is released at request end and the next request of that worker starts with no hold
--CONFLICTS--
all # alone: a pool of its own under load; in the next cell's parallel run (PHP 8.5, 6 tests at once) one request's line never came
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$redis = RedisServer::start();
// Two workers, so that a probe lands on the worker that just failed half the time
// and on the other one the other half.
$pool = FpmPool::start(['children' => 2, 'max_requests' => 0, 'ini' => ['redis_lock.server' => $redis->dsn()]]);
$redlock = var_export([['127.0.0.1', $redis->port]], true);

$pool->script('end.php', <<<PHP
\$how = \$_GET['how'];
\$rl = new RedLock($redlock, 0, 1);
if (!RedisMutexLock::lock("end:\$how", 0, 30) || !is_array(\$rl->lock("redlock:end:\$how", 30000))) {
    echo "busy\\n";
    exit;
}
if (\$how === 'nested hold, one release') {
    RedisMutexLock::lock("end:\$how", 0, 30);
    RedisMutexLock::release("end:\$how");
}
echo 'locked ', getmypid(), "\\n";
switch (\$how) {
    case 'exit(3)': exit(3);
    case 'uncaught exception': throw new RuntimeException('boom');
    case 'undefined function': undefined_function();
    case 'memory exhausted': ini_set('memory_limit', '16M'); \$a = str_repeat('x', 64 << 20);
    case 'time limit': set_time_limit(1); while (true) { }
}
PHP);

$pool->script('probe.php', <<<PHP
\$how = \$_GET['how'];
\$i = RedisMutexLock::inspect("end:\$how");
\$rl = new RedLock($redlock, 0, 1);
\$mine = RedisMutexLock::lock("end:\$how", 0, 30);
\$lock = \$rl->lock("redlock:end:\$how", 30000);
echo getmypid(), ' count before ', \$i['count'], ', locks: ', var_export(\$mine, true), ' ', var_export(is_array(\$lock), true),
    ', released: ', var_export(RedisMutexLock::release("end:\$how"), true), ' ', var_export(is_array(\$lock) && \$rl->unlock(\$lock), true), "\\n";
PHP);

foreach (['normal end', 'exit(3)', 'uncaught exception', 'undefined function', 'memory exhausted', 'time limit', 'nested hold, one release'] as $how) {
    $r = $pool->get('end.php', ['how' => $how]);
    $body = $r->body();
    preg_match('/^locked (\d+)/', $body, $m);
    $pid = (int) ($m[1] ?? 0);
    preg_match('/(Fatal error: .*?) in /', $body, $f);
    $keys = json_encode($redis->keys());
    $probes = [];
    // Probes until one lands on the worker that ran the request (and at least one on the other).
    $sameSeen = false;
    for ($i = 0; $i < 20 && (!$sameSeen || count($probes) < 2); $i++) {
        $p = $pool->get('probe.php', ['how' => $how]);
        $line = trim($p->body());
        $same = str_starts_with($line, "$pid ");
        $sameSeen = $sameSeen || $same;
        $probes[($same ? 'same worker' : 'other worker') . ': ' . preg_replace('/^\d+ /', '', $line)] = true;
    }
    ksort($probes);
    printf("%s: %s, HTTP %d, %s%s; keys right after: %s\n  %s\n", $how, $r->outcome, $r->status(), strtok($body, ' '),
        isset($f[1]) ? " ($f[1])" : '', $keys, implode("\n  ", array_keys($probes)));
}

// The client above against Debian's cgi-fcgi, for one request.
$mine = $pool->get('probe.php', ['how' => 'cross-check']);
$theirs = rl_cgi_fcgi($pool, 'probe.php', ['how' => 'cross-check']);
echo "cgi-fcgi agrees: ", var_export(preg_replace('/\d+ count/', 'PID count', $theirs) === preg_replace('/\d+ count/', 'PID count', $mine->stdout), true), "\n";
echo "keys left: ", json_encode($redis->keys()), "\n";
echo "worker crashes: ", json_encode($pool->crashLines()), ", worker exits: ", substr_count($pool->logText(), '] child '), "\n";
?>
--EXPECTF--
normal end: ok, HTTP 200, locked; keys right after: []
  other worker: count before 0, locks: true true, released: true true
  same worker: count before 0, locks: true true, released: true true
exit(3): ok, HTTP 200, locked; keys right after: []
  other worker: count before 0, locks: true true, released: true true
  same worker: count before 0, locks: true true, released: true true
uncaught exception: ok, HTTP 200, locked (Fatal error: Uncaught RuntimeException: boom); keys right after: []
  other worker: count before 0, locks: true true, released: true true
  same worker: count before 0, locks: true true, released: true true
undefined function: ok, HTTP 200, locked (Fatal error: Uncaught Error: Call to undefined function undefined_function()); keys right after: []
  other worker: count before 0, locks: true true, released: true true
  same worker: count before 0, locks: true true, released: true true
memory exhausted: ok, HTTP 200, locked (Fatal error: Allowed memory size of 16777216 bytes exhausted (tried to allocate %d bytes)); keys right after: []
  other worker: count before 0, locks: true true, released: true true
  same worker: count before 0, locks: true true, released: true true
time limit: ok, HTTP 200, locked (Fatal error: Maximum execution time of 1 second exceeded); keys right after: []
  other worker: count before 0, locks: true true, released: true true
  same worker: count before 0, locks: true true, released: true true
nested hold, one release: ok, HTTP 200, locked; keys right after: []
  other worker: count before 0, locks: true true, released: true true
  same worker: count before 0, locks: true true, released: true true
cgi-fcgi agrees: true
keys left: []
worker crashes: [], worker exits: 0
