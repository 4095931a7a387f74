--TEST--
Signals (SIGUSR1 every 100 ms, pcntl_async_signals handler) never extend a wait: a read from a stopped server ends at read_timeout, a lock wait ends at its timeout, and the handler runs
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$redis = RedisServer::start();

$child = rl_child(rl_child_code(<<<'PHP'
pcntl_async_signals(true);
$signals = 0;
pcntl_signal(SIGUSR1, function () use (&$signals) { $signals++; });
ini_set('redis_lock.server', $argv[1]);
ini_set('redis_lock.read_timeout', '0.5');
// A pooled connection, opened before the server stops.
var_dump(RedisMutexLock::lock('warm-up') && RedisMutexLock::release('warm-up'));
echo "ready\n";
fgets(STDIN); // the server is stopped now

$pump = new RlSignalPump(getmypid(), SIGUSR1, 0.1);
rl_sleep(0.15); // the pump runs
$before = $pump->sent();
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k'));
$during = $pump->sent() - $before;
// PHP drops the handler calls that are due while an exception is thrown: the
// handler is checked with the next signals, the signals during the call are
// counted by the pump.
rl_sleep(0.25);
$pump->stop();
$msg = $r instanceof Throwable ? $r->getMessage() : '';
echo 'stopped server: ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
    ', no reply within 0.5 s: ', preg_match('/: no reply within 0\.5 s$/', $msg) ? 'true' : "false ($msg)",
    ', 0.45 s <= time < 1 s: ', $secs >= 0.45 && $secs < 1.0 ? 'true' : sprintf('false (%.3f s)', $secs),
    ', 3 signals or more during the call: ', $during >= 3 ? 'true' : "false ($during)",
    ', handler ran: ', $signals >= 1 ? 'true' : 'false', "\n";
echo "next\n";
fgets(STDIN); // the server runs again and somebody else holds 'k2'

$pump = new RlSignalPump(getmypid(), SIGUSR1, 0.1);
rl_sleep(0.15);
$signals = 0;
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k2', 0.5));
$pump->stop();
echo 'held by another: ', rl_show($r),
    ', 0.45 s <= time < 1 s: ', $secs >= 0.45 && $secs < 1.0 ? 'true' : sprintf('false (%.3f s)', $secs),
    ', handler ran 3 times or more: ', $signals >= 3 ? 'true' : "false ($signals)", "\n";
PHP), [], [$redis->dsn()]);
echo $child->readLine(10), "\n";
echo $child->readLine(10), "\n";
$redis->pause();
$child->writeLine('go');
try {
    echo $child->readLine(10), "\n";
    echo $child->readLine(10), "\n";
} catch (RuntimeException $e) {
    echo "child: ", $e->getMessage(), "\n";
}
$redis->resume();
$redis->cmd('SET', 'lock:k2', 'another-owner', 'PX', 60000);
$child->writeLine('go');
$r = $child->wait(10);
echo $r['out'];
echo "child: exit ", $r['status'], $r['status'] === 0 ? '' : "\n" . $r['err'], "\n";
echo "k2: ", $redis->cmd('GET', 'lock:k2'), "\n";
?>
--EXPECT--
bool(true)
ready
stopped server: RedisLockException, no reply within 0.5 s: true, 0.45 s <= time < 1 s: true, 3 signals or more during the call: true, handler ran: true
next
held by another: false, 0.45 s <= time < 1 s: true, handler ran 3 times or more: true
child: exit 0
k2: another-owner
