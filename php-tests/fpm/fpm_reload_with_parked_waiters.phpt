--TEST--
PHP-FPM graceful reload (kill -USR2 to the master) while requests hold a RedisMutexLock, a RedisReadWriteLock write lock and a RedisSemaphore permit and others are parked waiting for them (lock() with a timeout, lockWrite(), lockRead(), acquire()): FPM sends SIGQUIT, lets busy workers finish for process_control_timeout (3 s here), then SIGTERMs them and re-executes. Holders that end within that time release at their request end and every parked waiter gets its lock and completes; holders still busy then are killed with their waiters, their locks stay until their TTL and no more: a new request after the reload gets each lock within a bound of that TTL, not blocked by the killed waiters' queue places. No key is ever left without a TTL, no worker crashes, every request ends in one of the expected ways.
--CONFLICTS--
all # alone: it bounds how soon a parked waiter gets its lock after a reload (1 s); beside other tests a busy machine took 1.4 s
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
if (!function_exists('pcntl_fork')) die('skip needs pcntl (the parked requests are sent from a forked process)');
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$redis = RedisServer::start();
$pool = FpmPool::start(['children' => 10, 'process_control_timeout' => 3, 'log_level' => 'debug', 'ini' => ['redis_lock.server' => $redis->dsn()]]);
ini_set('redis_lock.server', $redis->dsn()); // this process looks at the locks with inspect()
$sock = var_export('unix://' . $redis->socket, true);
const HOLD_TTL = 6;

$pool->script('hold.php', <<<PHP
\$ok = match (\$_GET['kind']) {
    'mutex' => RedisMutexLock::lock('mutex', 0, (int) \$_GET['ttl']),
    'rw' => RedisReadWriteLock::lockWrite('rw', 0, (int) \$_GET['ttl']),
    'sem' => RedisSemaphore::acquire('sem', 1, 0, (int) \$_GET['ttl']),
};
echo \$ok ? 'held' : 'busy', ' ', rl_now(), "\\n";
flush();
// Held until the test says so, in short sleeps (FPM's SIGQUIT cuts a sleep short).
\$ctl = new RespClient($sock);
\$deadline = rl_now() + 20;
while (\$ctl->cmd('EXISTS', 'ctl:go') === 0 && rl_now() < \$deadline) {
    rl_sleep(0.02);
}
echo "done\\n";
// No release(): the request's end releases it.
PHP);

$pool->script('wait.php', <<<'PHP'
$t = rl_now();
try {
    $got = match ($_GET['kind']) {
        'mutex' => RedisMutexLock::lock('mutex', 10, 5),
        'rw-write' => RedisReadWriteLock::lockWrite('rw', 10, 5),
        'rw-read' => RedisReadWriteLock::lockRead('rw', 10, 5),
        'sem' => RedisSemaphore::acquire('sem', 1, 10, 5),
    };
} catch (Throwable $e) {
    echo 'error ', get_class($e), ': ', $e->getMessage(), "\n";
    exit;
}
$at = rl_now();
echo $got ? 'got' : 'timeout', ' ', $at - $t, ' ', $at, "\n";
flush();
rl_sleep(0.1);
// No release(): the request's end releases it.
PHP);

$holders = [['hold.php', ['kind' => 'mutex', 'ttl' => HOLD_TTL]], ['hold.php', ['kind' => 'rw', 'ttl' => HOLD_TTL]], ['hold.php', ['kind' => 'sem', 'ttl' => HOLD_TTL]]];
$waiters = [['wait.php', ['kind' => 'mutex']], ['wait.php', ['kind' => 'mutex']], ['wait.php', ['kind' => 'rw-write']], ['wait.php', ['kind' => 'rw-read']], ['wait.php', ['kind' => 'sem']]];
$tmp = rl_tmpdir('rl-reload');

/** Sends $requests from a forked process (they stay in flight while this one goes on); see results(). */
function send(FpmPool $pool, array $requests, string $file): int
{
    return rl_fork(function () use ($pool, $requests, $file): int {
        file_put_contents($file, serialize($pool->run($requests, 16, 25)));
        return 0;
    });
}

/** @return list<FcgiResponse> */
function results(int $pid, string $file): array
{
    rl_wait($pid);
    return unserialize((string) file_get_contents($file));
}

/** Sends the holders, then the waiters once the locks are held; says whether all are where they should be. */
function park(FpmPool $pool, RedisServer $redis, array $holders, array $waiters, string $tmp, string $phase): array
{
    $h = send($pool, $holders, "$tmp/$phase-holders");
    $held = rl_eventually(fn () => RedisMutexLock::inspect('mutex')['ttl'] !== null && RedisReadWriteLock::inspect('rw')['writer']
        && RedisSemaphore::inspect('sem')['used'] === 1, true, 5);
    $w = send($pool, $waiters, "$tmp/$phase-waiters");
    $parked = fn () => [RedisMutexLock::inspect('mutex')['waiters'], RedisReadWriteLock::inspect('rw')['waiters'], RedisSemaphore::inspect('sem')['waiters']];
    $all = rl_eventually($parked, [2, 2, 1], 5);
    echo "$phase: the three locks held: ", var_export($held, true), ", waiters parked (mutex, rw, sem): ", json_encode($all),
        ", keys without a TTL: ", json_encode(keys_without_ttl($redis)), "\n";
    return [$h, $w, $parked];
}

/** The body of a response without times, its outcome first. */
function outcome(FcgiResponse $r): string
{
    return $r->outcome . ($r->appStatus === null ? '' : ' ' . $r->appStatus) . ': '
        . trim(preg_replace('/ -?[\d.]+(E-?\d+)?/', '', $r->body()));
}

/** The keys (other than the test's ctl:go) that have no TTL. */
function keys_without_ttl(RedisServer $redis): array
{
    return array_values(array_filter(rl_keys_except($redis, ['ctl:go']), fn ($k) => $redis->cmd('PTTL', $k) < 0));
}

/** How the workers that ended in $log ended: "code 0" or "signal 15 (SIGTERM)" etc. => how many. */
function exits(string $log): array
{
    preg_match_all('/child \d+ exited (with code \d+|on signal \d+ \(\w+\))/', $log, $m);
    $n = array_count_values($m[1]);
    ksort($n);
    return $n;
}

$oldWorkers = $pool->workerPids();
$logBefore = strlen($pool->logText());

// ---- A: the holders end within process_control_timeout
[$h, $w, $parked] = park($pool, $redis, $holders, $waiters, $tmp, 'A');
$pool->reload();
$t0 = rl_now();
rl_sleep(1.0);
echo "A: 1 s after USR2 the requests are still parked (idle workers gone, busy ones alive): ",
    var_export($parked() === [2, 2, 1] && count(array_intersect($pool->workerPids(), $oldWorkers)) === 8, true), "\n";
$redis->cmd('SET', 'ctl:go', '1', 'PX', '60000');
$go = rl_now();
$hr = results($h, "$tmp/A-holders");
$wr = results($w, "$tmp/A-waiters");
echo "A: holders: ", json_encode(array_map('outcome', $hr)), "\n";
echo "A: waiters: ", json_encode(array_map('outcome', $wr)), "\n";
$late = [];
foreach ($wr as $i => $r) {
    $at = (float) (explode(' ', trim($r->body()))[2] ?? 0);
    if ($at < $go || $at > $go + 1.0) {
        $late[] = sprintf('%s: %.2f s after the holders were let go', $waiters[$i][1]['kind'], $at - $go);
    }
}
echo "A: every waiter got its lock after the holders' request end, within 1 s: ", json_encode($late), "\n";
$reloaded = rl_eventually(fn () => $pool->reloaded(), true, 5);
$newWorkers = $pool->workerPids();
echo "A: reloaded ", var_export($reloaded, true), ", within process_control_timeout: ", var_export(rl_now() - $t0 < 3.0, true),
    ", all workers new: ", var_export(count($newWorkers) === 10 && array_intersect($newWorkers, $oldWorkers) === [], true), "\n";
$fresh = $pool->run([['wait.php', ['kind' => 'mutex']], ['wait.php', ['kind' => 'rw-write']], ['wait.php', ['kind' => 'sem']]], 3, 15);
echo "A: new requests after the reload: ", json_encode(array_map('outcome', $fresh)), ", at once: ",
    var_export(max(array_map(fn ($r) => (float) (explode(' ', trim($r->body()))[1] ?? 99), $fresh)) < 0.5, true), "\n";
echo "A: keys left: ", json_encode(rl_eventually(fn () => rl_keys_except($redis, ['ctl:go']), [], 2)), "\n";
echo "A: how the old workers ended: ", json_encode(exits(substr($pool->logText(), $logBefore))), "\n";
$redis->cmd('DEL', 'ctl:go');

// ---- B: the holders outlast process_control_timeout
$oldWorkers = $pool->workerPids();
$logBefore = strlen($pool->logText());
[$h, $w] = park($pool, $redis, $holders, $waiters, $tmp, 'B');
$pool->reload();
$t0 = rl_now();
$hr = results($h, "$tmp/B-holders");
$wr = results($w, "$tmp/B-waiters");
$killed = rl_now();
echo "B: the parked requests end when FPM kills their workers, 3 s after USR2: ", var_export($killed - $t0 > 2.8 && $killed - $t0 < 5.0, true), "\n";
echo "B: holders: ", json_encode(array_map('outcome', $hr)), "\n";
echo "B: waiters: ", json_encode(array_map('outcome', $wr)), "\n";
echo "B: keys without a TTL after the kill: ", json_encode(keys_without_ttl($redis)), "\n";
echo "B: the killed holders still hold (mutex, rw, sem): ", json_encode([RedisMutexLock::inspect('mutex')['ttl'] !== null,
    RedisReadWriteLock::inspect('rw')['writer'], RedisSemaphore::inspect('sem')['used'] === 1]), "\n";
$heldAt = array_map(fn ($r) => (float) (explode(' ', trim($r->body()))[1] ?? 0), $hr);
// Each lock's own holder's TTL (mutex, rw for the writer and the reader, sem): the holders' FPM
// requests need not have locked within the 0.3 s allowed below.
$expiries = [$heldAt[0] + HOLD_TTL, $heldAt[1] + HOLD_TTL, $heldAt[1] + HOLD_TTL, $heldAt[2] + HOLD_TTL];
$reloaded = rl_eventually(fn () => $pool->reloaded(), true, 5);
$newWorkers = $pool->workerPids();
echo "B: reloaded ", var_export($reloaded, true), ", all workers new: ", var_export(count($newWorkers) === 10 && array_intersect($newWorkers, $oldWorkers) === [], true), "\n";
$fresh = $pool->run([['wait.php', ['kind' => 'mutex']], ['wait.php', ['kind' => 'rw-write']], ['wait.php', ['kind' => 'rw-read']], ['wait.php', ['kind' => 'sem']]], 4, 15);
echo "B: new requests after the reload: ", json_encode(array_map('outcome', $fresh)), "\n";
$off = [];
foreach ($fresh as $i => $r) {
    $at = (float) (explode(' ', trim($r->body()))[2] ?? 0);
    // Not before the killed holder's TTL ran out; then at once (the rw reader
    // or writer second in line waits for the first one's 0.1 s too).
    if ($at < $expiries[$i] - 0.3 || $at > $expiries[$i] + 1.5) {
        $off[] = sprintf('%s: %.2f s after the TTL', ['mutex', 'rw-write', 'rw-read', 'sem'][$i], $at - $expiries[$i]);
    }
}
echo "B: each got its lock when the killed holder's TTL ran out (within 1.5 s): ", json_encode($off), "\n";
echo "B: keys left: ", json_encode(rl_eventually(fn () => rl_keys_except($redis), [], 3)), "\n";
echo "B: how the old workers ended (2 idle, 8 busy at the deadline): ", json_encode(exits(substr($pool->logText(), $logBefore))), "\n";
echo "worker crashes (other than those SIGTERMs): ", json_encode(array_values(preg_grep('/exited on signal 15 \(SIGTERM\)/', $pool->crashLines(), PREG_GREP_INVERT))), "\n";
echo "warnings or errors in the FPM log: ", json_encode(array_values(preg_grep('/\] (WARNING|ERROR|ALERT):/', explode("\n", $pool->logText())))), "\n";
?>
--EXPECT--
A: the three locks held: true, waiters parked (mutex, rw, sem): [2,2,1], keys without a TTL: []
A: 1 s after USR2 the requests are still parked (idle workers gone, busy ones alive): true
A: holders: ["ok 0: held\ndone","ok 0: held\ndone","ok 0: held\ndone"]
A: waiters: ["ok 0: got","ok 0: got","ok 0: got","ok 0: got","ok 0: got"]
A: every waiter got its lock after the holders' request end, within 1 s: []
A: reloaded true, within process_control_timeout: true, all workers new: true
A: new requests after the reload: ["ok 0: got","ok 0: got","ok 0: got"], at once: true
A: keys left: []
A: how the old workers ended: {"with code 0":10}
B: the three locks held: true, waiters parked (mutex, rw, sem): [2,2,1], keys without a TTL: []
B: the parked requests end when FPM kills their workers, 3 s after USR2: true
B: holders: ["closed: held","closed: held","closed: held"]
B: waiters: ["closed: ","closed: ","closed: ","closed: ","closed: "]
B: keys without a TTL after the kill: []
B: the killed holders still hold (mutex, rw, sem): [true,true,true]
B: reloaded true, all workers new: true
B: new requests after the reload: ["ok 0: got","ok 0: got","ok 0: got","ok 0: got"]
B: each got its lock when the killed holder's TTL ran out (within 1.5 s): []
B: keys left: []
B: how the old workers ended (2 idle, 8 busy at the deadline): {"on signal 15 (SIGTERM)":8,"with code 0":2}
worker crashes (other than those SIGTERMs): []
warnings or errors in the FPM log: []
