--TEST--
An outage is an exception, not "not yours": with every node stopped (SIGSTOP) or killed, RedLock::unlock()/extend() and RedisMutexLock::release() throw RedisLockException, and the process keeps the locks registered: once the servers are back, request end releases them
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$s = rl_start_servers(3);
rl_warm_up($s);

$code = rl_child_code(<<<'PHP'
$list = json_decode($argv[1], true);
ini_set('redis_lock.server', $argv[2]);
ini_set('redis_lock.read_timeout', '0.3');
$report = function (string $name, mixed $r, float $secs, string $re): void {
    $msg = $r instanceof Throwable ? $r->getMessage() : '';
    echo $name, ': ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
        ', message as expected: ', preg_match($re, $msg) ? 'true' : "false ($msg)",
        ', < 2 s: ', $secs < 2 ? 'true' : sprintf('false (%.2f s)', $secs), "\n";
};
$rl = new RedLock($list, 0, 1);
$lock = $rl->lock('job', 60000);
echo 'lock: ', is_array($lock) ? 'array' : rl_show($lock), ', mutex: ', rl_show(RedisMutexLock::lock('m', 0, 60)), "\n";
fgets(STDIN); // every server is stopped or killed now
[$r, $secs] = rl_timed(fn () => $rl->unlock($lock));
$report('unlock', $r, $secs, '/^RedLock::unlock\(\): fewer than 2 of 3 Redis nodes could be reached: /');
[$r, $secs] = rl_timed(fn () => $rl->extend($lock, 60000));
$report('extend', $r, $secs, '/^RedLock::extend\(\): fewer than 2 of 3 Redis nodes could be reached: /');
[$r, $secs] = rl_timed(fn () => RedisMutexLock::release('m'));
$report('release', $r, $secs, '/^Redis at 127\.0\.0\.1:\d+: /');
echo "done\n";
fgets(STDIN); // the servers are back: the request ends without unlock()/release()
PHP);
$args = [json_encode(rl_redlock_list($s, 0.3)), $s[0]->dsn()];

// SIGSTOP: the releases wait in the servers' sockets and run on SIGCONT, so
// only the exceptions are checked here.
$child = rl_child($code, [], $args);
echo "stopped: ", $child->readLine(10), "\n";
foreach ($s as $x) {
    $x->pause();
}
$child->writeLine('go');
try {
    for ($i = 0; $i < 4; $i++) {
        echo "stopped: ", $child->readLine(10), "\n";
    }
} catch (RuntimeException $e) {
    echo "stopped: ", $e->getMessage(), "\n";
}
foreach ($s as $x) {
    $x->resume();
}
$r = $child->wait(10);
echo "stopped: exit ", $r['status'], $r['err'] === '' ? '' : "\n" . $r['err'], "\n";
echo "stopped: keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []'), "\n";

// Killed (after SAVE), then restarted with their data: nothing was released
// by the failed calls, and request end releases everything.
$child = rl_child($code, [], $args);
echo "killed: ", $child->readLine(10), "\n";
foreach ($s as $x) {
    $x->cmd('SAVE');
    $x->kill();
}
$child->writeLine('go');
try {
    for ($i = 0; $i < 4; $i++) {
        echo "killed: ", $child->readLine(10), "\n";
    }
} catch (RuntimeException $e) {
    echo "killed: ", $e->getMessage(), "\n";
}
foreach ($s as $x) {
    $x->restart(true);
}
$tokens = fn (array $servers, string $key) => implode(' ', array_map(fn ($x) => rl_is_token($x->cmd('GET', $key)) ? 'token' : '-', $servers));
echo "killed, restarted: job: ", $tokens($s, 'job'), ", m: ", $tokens([$s[0]], 'lock:m'), "\n";
rl_sleep(1.0); // a node remembered as down is not remembered for long
$r = $child->wait(10);
echo "killed: exit ", $r['status'], $r['err'] === '' ? '' : "\n" . $r['err'], "\n";
echo "killed: keys after the request ended: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []'), "\n";
?>
--EXPECT--
stopped: lock: array, mutex: true
stopped: unlock: RedisLockException, message as expected: true, < 2 s: true
stopped: extend: RedisLockException, message as expected: true, < 2 s: true
stopped: release: RedisLockException, message as expected: true, < 2 s: true
stopped: done
stopped: exit 0
stopped: keys: [] [] []
killed: lock: array, mutex: true
killed: unlock: RedisLockException, message as expected: true, < 2 s: true
killed: extend: RedisLockException, message as expected: true, < 2 s: true
killed: release: RedisLockException, message as expected: true, < 2 s: true
killed: done
killed, restarted: job: token token token, m: token
killed: exit 0
killed: keys after the request ended: [] [] []
