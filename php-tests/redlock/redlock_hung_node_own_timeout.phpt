--TEST--
RedLock with one node hung (SIGSTOP) and its own timeout [host, port, 0.2]: lock() and unlock() do not wait for it; after SIGCONT its late SET is cleaned up and later answers are not confused
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
$list = rl_redlock_list($s);
$list[2][] = 0.2;
$rl = new RedLock($list, 50);
rl_warm_up($s); // a worker: connections open, scripts loaded

$s[2]->pause();
$ttl = 10000;
[$lock, $secs] = rl_timed(fn () => $rl->lock('report', $ttl));
echo "lock: ", is_array($lock) ? 'array' : rl_show($lock), ", under 0.5 s: ", var_export($secs < 0.5, true), "\n";
printf("validity in (ttl - drift - 500, ttl - drift]: %s\n",
    var_export($lock['validity'] > $ttl - 102 - 500 && $lock['validity'] <= $ttl - 102, true));
$live = [$s[0], $s[1], $s[3], $s[4]];
// lock() returns once a majority said yes: the 4th SET may still be in flight.
echo "live nodes: ", rl_eventually(fn () => rl_holders($live, 'report', [$lock['token'] => 'ours']), 'ours ours ours ours'), "\n";
$pttl = min(array_map(fn ($r) => $r->cmd('PTTL', 'report'), $live));
echo "PTTL > ttl - 500 on the live nodes: ", var_export($pttl > $ttl - 500, true), "\n";
[$r, $secs] = rl_timed(fn () => $rl->unlock($lock));
echo "unlock: ", rl_show($r), ", under 0.5 s: ", var_export($secs < 0.5, true), "\n";
echo "live nodes: ", rl_eventually(fn () => rl_holders($live, 'report'), '- - - -'), "\n";

// A second lock while still hung, kept: the hung node must end up with it or without anything.
$kept = $rl->lock('kept', $ttl);
echo "kept: ", rl_eventually(fn () => rl_holders($live, 'kept', [$kept['token'] => 'ours']), 'ours ours ours ours'), "\n";

$s[2]->resume();
rl_sleep(0.2); // the resumed server works through what it had received
echo "resumed node, report: ", rl_holders([$s[2]], 'report'), "\n";
// Its late SET of a lock that is held may stay or be taken back; nothing else.
echo "resumed node, kept: ours or nothing: ", var_export(in_array(rl_holders([$s[2]], 'kept', [$kept['token'] => 'ours']), ['ours', '-'], true), true), "\n";

// Later answers are the right ones: a fresh lock is on all 5, a held one is refused.
$lock = $rl->lock('report', $ttl);
echo "after resume: ", rl_eventually(fn () => rl_holders($s, 'report', [$lock['token'] => 'ours']), 'ours ours ours ours ours'), "\n";
var_dump($rl->lock('report', $ttl));
$s[2]->cmd('SET', 'foreign', 'x');
foreach ([0, 1, 3] as $i) {
    $s[$i]->cmd('SET', 'foreign', 'x');
}
var_dump($rl->lock('foreign', $ttl));
var_dump($rl->unlock($lock));
var_dump($rl->unlock($kept));
echo "nodes: ", rl_eventually(fn () => rl_all_keys($s), '["foreign"] ["foreign"] ["foreign"] ["foreign"] []'), "\n";
?>
--EXPECT--
lock: array, under 0.5 s: true
validity in (ttl - drift - 500, ttl - drift]: true
live nodes: ours ours ours ours
PTTL > ttl - 500 on the live nodes: true
unlock: true, under 0.5 s: true
live nodes: - - - -
kept: ours ours ours ours
resumed node, report: -
resumed node, kept: ours or nothing: true
after resume: ours ours ours ours ours
bool(false)
bool(false)
bool(true)
bool(true)
nodes: ["foreign"] ["foreign"] ["foreign"] ["foreign"] []
