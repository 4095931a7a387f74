--TEST--
Server limits: the server restarts without persistence (SIGKILL, then started empty on the same port) three times while 3 processes contend on a mutex (hand-offs through its queue all the time: sections of no length), 2 on a read/write lock and 2 on a semaphore of 1: by an independent book, no section begun after a restart overlaps another (a hold taken before a restart counts until that restart only, since the restart wiped it); every failure is a RedisLockException naming the server or a RedisLockLostException, all within the outage plus the timeouts; each kind of lock is taken again within 3 s of every restart; every process exits 0 and every key left has a TTL
--SKIPIF--
<?php if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_limits.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.connect_timeout', '0.5');
ini_set('redis_lock.read_timeout', '0.5');

$procs = [];
foreach (['m0', 'm1', 'm2'] as $name) {
    $procs[$name] = new RlSharedProc($name, fn () => rl_limits_mutex_worker($book, $name, ['key' => 'mx', 'timeout' => 5.0, 'lease' => 10, 'sleep' => 100000]));
}
$shared = ['key' => 'rw', 'skey' => 'sem', 'limit' => 1, 'timeout' => 5, 'lease' => 10, 'hold' => 0.0];
$plan = ['rw0' => ['kinds' => ['w', 'r']], 'rw1' => ['kinds' => ['r', 'w']], 's0' => ['kinds' => ['s']], 's1' => ['kinds' => ['s']]];
foreach ($plan as $name => $o) {
    $procs[$name] = new RlSharedProc($name, fn () => rl_shared_worker($book, $name, $o + $shared));
}
echo "contention: ", var_export(rl_eventually(fn () => $book->cmd('LLEN', 'sections') >= 100, true, 10.0), true), "\n";
$outages = [];
for ($i = 0; $i < 3; $i++) {
    $killAt = rl_now();
    $redis->kill();
    $redis->restart(false);
    $outages[] = [$killAt, rl_now()];
    rl_sleep(1.5);
}
$book->cmd('SET', 'stop', '1');
foreach ($procs as $name => $p) {
    $code = $p->wait(15);
    if ($code !== 0) {
        echo "$name exit $code\n";
    }
}
echo "every process exits 0\n";

$sections = rl_shared_sections($book);
$errors = rl_shared_errors($book);
// Each hold counts at most until the first restart after it was taken.
$lostAt = [];
foreach ($sections as $s) {
    foreach ($outages as [$k, $up]) {
        if ($s['t1'] < $k) {
            $lostAt[$s['who']] = $k;
            break;
        }
    }
}
[$bad] = rl_shared_check($book, ['sem' => 1], $lostAt);
echo "overlapping holds: ", $bad === [] ? 'none' : json_encode(array_slice($bad, 0, 5)), "\n";
echo "sections: ", count($sections) > 200 ? 'many' : count($sections), "\n";
foreach ($outages as $i => [$k, $up]) {
    $again = [];
    foreach ($sections as $s) {
        if ($s['t0'] >= $up - 0.01 || $s['t1'] > $up) {
            $again[$s['kind']] = min($again[$s['kind']] ?? INF, $s['t1'] - $up);
        }
    }
    ksort($again);
    echo "restart $i: taken again within 3 s: ", json_encode(array_map(fn ($t) => $t < 3.0 ? true : round($t, 2), $again)), "\n";
}
$unclear = array_filter($errors, fn ($e) => !preg_match('/^(take|release) [mrws]: (RedisLockException: .*127\.0\.0\.1:' . $redis->port . '|RedisLockLostException: )/', $e[2]));
echo "failures other than a RedisLockException naming the server: ", $unclear === [] ? 'none' : json_encode(rl_shared_error_summary($unclear, [$redis])), "\n";
$outside = array_filter($errors, function ($e) use ($outages) {
    foreach ($outages as [$k, $up]) {
        if ($e[0] >= $k && $e[0] <= $up + 0.5 + 0.5 + 2.0) {
            return false;
        }
    }
    return true;
});
echo "failures outside the outages: ", $outside === [] ? 'none' : json_encode(array_slice(array_map(fn ($e) => $e[2], $outside), 0, 5)), "\n";
$badRel = array_filter($sections, fn ($s) => $s['rel'] !== true && $s['t1'] > $outages[2][1] + 0.5 + 0.5 + 2.0);
echo "releases not true long after the last restart: ", $badRel === [] ? 'none' : json_encode(array_slice(array_values($badRel), 0, 3)), "\n";
echo "every key left expires: ", var_export(rl_all_keys_expire($redis, $badKeys), true), $badKeys ? ' ' . json_encode($badKeys) : '', "\n";
rl_shared_debug(sprintf('%d sections, %d errors: %s', count($sections), count($errors), json_encode(rl_shared_error_summary($errors, [$redis]))));
?>
--EXPECT--
contention: true
every process exits 0
overlapping holds: none
sections: many
restart 0: taken again within 3 s: {"m":true,"r":true,"s":true,"w":true}
restart 1: taken again within 3 s: {"m":true,"r":true,"s":true,"w":true}
restart 2: taken again within 3 s: {"m":true,"r":true,"s":true,"w":true}
failures other than a RedisLockException naming the server: none
failures outside the outages: none
releases not true long after the last restart: none
every key left expires: true
