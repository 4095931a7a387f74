--TEST--
redis_lock.auto_renew: a holder frozen (SIGSTOP) past its lease loses the lock (it expires, another process takes it); resumed, it is told: inspect() says lost, release() throws RedisLockLostException once and never touches the new owner's lock
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

$child = rl_child(rl_lease_child_code(<<<'PHP'
$ok = RedisMutexLock::lock('k', 0, 2);
echo ($ok ? 'locked ' : 'refused '), getmypid(), "\n";
fgets(STDIN);
$i = RedisMutexLock::inspect('k');
echo "child: inspect held ", var_export($i['held'], true), ", lost ", var_export($i['lost'], true), "\n";
echo "child: release: ", rl_lost(rl_timed(fn () => RedisMutexLock::release('k'))[0], 'RedisMutexLock::release()', 'k', null), "\n";
echo "child: again: ", rl_show(rl_timed(fn () => RedisMutexLock::release('k'))[0]), "\n";
$i = RedisMutexLock::inspect('k');
echo "child: inspect held ", var_export($i['held'], true), ", lost ", var_export($i['lost'], true), ", count ", $i['count'], "\n";
PHP), ['redis_lock.server' => $redis->dsn(), 'redis_lock.auto_renew' => '1']);
$line = $child->readLine(10);
[$what, $pid] = explode(' ', $line) + [1 => '0'];
echo "child: $what\n";
$theirs = $redis->cmd('GET', 'lock:k');
rl_sleep(2.5);
echo "renewed past its lease: ", var_export($redis->cmd('GET', 'lock:k') === $theirs, true), "\n";

rl_signal((int) $pid, SIGSTOP);
$stopped = rl_now();
$left = rl_eventually(fn () => $redis->cmd('EXISTS', 'lock:k'), 0, 6.0);
$secs = rl_now() - $stopped;
echo "expired while it is frozen: ", var_export($left === 0, true), ", within 3.5 s: ", $secs < 3.5 ? 'true' : sprintf('false (%.2f s)', $secs), "\n";
echo "we take it: ", rl_show(RedisMutexLock::lock('k', 0, 30)), "\n";
$ours = $redis->cmd('GET', 'lock:k');
rl_signal((int) $pid, SIGCONT);
rl_sleep(1.5);                       // its overdue renewal runs and is refused
$child->writeLine('go');
$res = $child->wait(10);
echo trim($res['out']), $res['err'] === '' ? '' : "\nstderr: " . $res['err'], "\n";
$pttl = $redis->cmd('PTTL', 'lock:k');
echo "ours untouched: ", var_export($redis->cmd('GET', 'lock:k') === $ours && $pttl > 20000, true), "\n";
var_dump(RedisMutexLock::release('k'));
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
child: locked
renewed past its lease: true
expired while it is frozen: true, within 3.5 s: true
we take it: true
child: inspect held false, lost true
child: release: RedisLockLostException: RedisMutexLock::release(): the lock on "k" was lost: …
child: again: false
child: inspect held false, lost false, count 0
ours untouched: true
bool(true)
keys: []
