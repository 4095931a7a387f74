--TEST--
RedLock with redis_lock.auto_renew: a 1.5 s lock is renewed on every node (also with one node hung by SIGSTOP, or taken by another on one node: renewed by majority) and unlock() is true; taken over on a majority, it is lost: unlock()/extend() throw RedisLockLostException once, and renewals stop
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$s = rl_start_servers(3);
rl_warm_up($s);
ini_set('redis_lock.auto_renew', '1');
$rl = new RedLock(rl_redlock_list($s));
$refused = 'another owner took it or it expired';
$pttlsOk = fn (string $key, array $nodes) => var_export(array_reduce($nodes, fn ($ok, $i) => $ok && ($p = $s[$i]->cmd('PTTL', $key)) > 0 && $p <= 1500, true), true);

echo "-- all nodes up\n";
$lock = $rl->lock('r', 1500);
$labels = [$lock['token'] => 'ours', 'foreign' => 'foreign'];
echo "lock: ", is_array($lock) ? 'array' : rl_show($lock), "\n";
rl_sleep(4.0);
echo "after 4 s: ", rl_holders($s, 'r', $labels), ", PTTL in (0, 1500]: ", $pttlsOk('r', [0, 1, 2]), "\n";
echo "unlock: ", rl_show($rl->unlock($lock)), ", nodes: ", rl_eventually(fn () => rl_holders($s, 'r'), '- - -'), "\n";

echo "-- one node hung\n";
$lock = $rl->lock('h', 1500);
$labels = [$lock['token'] => 'ours', 'foreign' => 'foreign'];
echo "lock: ", is_array($lock) ? 'array' : rl_show($lock), "\n";
rl_eventually(fn () => rl_holders($s, 'h', $labels), 'ours ours ours');
$s[2]->pause();
rl_sleep(4.0);
echo "after 4 s: ", rl_holders([$s[0], $s[1]], 'h', $labels), " (node 3 hung), PTTL in (0, 1500]: ", $pttlsOk('h', [0, 1]), "\n";
[$r, $secs] = rl_timed(fn () => $rl->unlock($lock));
echo "unlock: ", rl_show($r), ", under 1 s: ", var_export($secs < 1.0, true), "\n";
$s[2]->resume();
echo "nodes: ", rl_eventually(fn () => rl_holders($s, 'h'), '- - -', 3.0), "\n";

echo "-- taken by another on one node\n";
$lock = $rl->lock('m', 1500);
$labels = [$lock['token'] => 'ours', 'foreign' => 'foreign'];
$s[0]->cmd('SET', 'm', 'foreign', 'PX', 60000);
rl_sleep(3.0);
echo "after 3 s: ", rl_holders($s, 'm', $labels), "\n";
echo "unlock: ", rl_show($rl->unlock($lock)), ", nodes: ", rl_eventually(fn () => rl_holders($s, 'm', $labels), 'foreign - -'), "\n";

echo "-- taken over on a majority, then unlock()\n";
$lock = $rl->lock('c', 1500);
$labels = [$lock['token'] => 'ours', 'foreign' => 'foreign'];
foreach ([0, 1] as $i) {
    $s[$i]->cmd('SET', 'c', 'foreign', 'PX', 60000);
}
rl_sleep(1.5);
echo "unlock: ", rl_lost(rl_timed(fn () => $rl->unlock($lock))[0], 'RedLock::unlock()', 'c', $refused), "\n";
echo "renewals stopped, ours expires: ", rl_eventually(fn () => rl_holders($s, 'c', $labels), 'foreign foreign -', 3.0), "\n";
echo "again: ", rl_show(rl_timed(fn () => $rl->unlock($lock))[0]), "\n";

echo "-- taken over on a majority, then extend()\n";
$lock = $rl->lock('e', 1500);
$labels = [$lock['token'] => 'ours', 'foreign' => 'foreign'];
foreach ([1, 2] as $i) {
    $s[$i]->cmd('SET', 'e', 'foreign', 'PX', 60000);
}
rl_sleep(1.5);
echo "extend: ", rl_lost(rl_timed(fn () => $rl->extend($lock, 10000))[0], 'RedLock::extend()', 'e', $refused), "\n";
echo "nodes: ", rl_eventually(fn () => rl_holders($s, 'e', $labels), '- foreign foreign', 3.0), "\n";
echo "unlock: ", rl_show(rl_timed(fn () => $rl->unlock($lock))[0]), "\n";
echo "theirs untouched: ", rl_holders($s, 'c', $labels), " / ", rl_holders($s, 'e', $labels), "\n";
?>
--EXPECT--
-- all nodes up
lock: array
after 4 s: ours ours ours, PTTL in (0, 1500]: true
unlock: true, nodes: - - -
-- one node hung
lock: array
after 4 s: ours ours (node 3 hung), PTTL in (0, 1500]: true
unlock: true, under 1 s: true
nodes: - - -
-- taken by another on one node
after 3 s: foreign ours ours
unlock: true, nodes: foreign - -
-- taken over on a majority, then unlock()
unlock: RedisLockLostException: RedLock::unlock(): the lock on "c" was lost: …another owner took it or it expired…
renewals stopped, ours expires: foreign foreign -
again: false
-- taken over on a majority, then extend()
extend: RedisLockLostException: RedLock::extend(): the lock on "e" was lost: …another owner took it or it expired…
nodes: - foreign foreign
unlock: false
theirs untouched: foreign foreign - / - foreign foreign
