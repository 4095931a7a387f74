--TEST--
Audit, other clients: RedLock's key on its nodes deleted, retyped (WRONGTYPE), PERSISTed or expired while held: a retyped minority is a failed vote (lock and unlock still decided by the majority), a retyped majority is "held by others" for lock(), extend() and unlock() (false: another client's lock, on every server, the native commands' type error included); a deleted or expired majority makes extend()/unlock() false; PERSIST changes nothing for unlock(); nothing of ours left without a TTL
--CONFLICTS--
all # alone: one attempt with a master that fails: the other two must both answer in time, and a busy machine made one of them a straggler (docs/usage.md)
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$nodes = rl_start_servers(3);
$rl = new RedLock(rl_redlock_list($nodes), 20, 1);
$show = fn ($r) => is_array($r) ? 'array' : rl_audit_msg($r, $nodes);
$call = fn (callable $fn) => $show(rl_timed($fn)[0]);
$hash = fn (RedisServer $s, string $k) => [$s->cmd('DEL', $k), $s->cmd('HSET', $k, 'f', 'attacker')];

// A retyped minority: one failed vote.
$hash($nodes[0], 'r1');
$lock = rl_timed(fn () => $rl->lock('r1', 10000))[0];
echo 'r1, one node a hash: lock ', $show($lock), ', extend ', $call(fn () => $rl->extend($lock, 10000)), ', unlock ', $call(fn () => $rl->unlock($lock)), "\n";
echo '  nodes: ', rl_eventually(fn () => implode(' ', array_map(fn ($s) => $s->cmd('TYPE', 'r1'), $nodes)), 'hash none none'), "\n";

// A retyped majority before lock(): held by others.
$hash($nodes[0], 'r2');
$hash($nodes[1], 'r2');
echo 'r2, two nodes hashes: lock ', $call(fn () => $rl->lock('r2', 10000)), "\n";

// Retyped after lock(): on one node, then on two.
$lock = $rl->lock('r3', 10000);
$hash($nodes[2], 'r3');
echo 'r3, one node retyped while held: extend ', $call(fn () => $lock = $rl->extend($lock, 10000) ?: $lock), ', unlock ', $call(fn () => $rl->unlock($lock)), "\n";
$lock = $rl->lock('r4', 10000);
$hash($nodes[0], 'r4');
$hash($nodes[1], 'r4');
echo 'r4, two nodes retyped while held: extend ', $call(fn () => $rl->extend($lock, 10000)), ', unlock ', $call(fn () => $rl->unlock($lock)), "\n";
foreach ($nodes as $s) {
    $s->cmd('DEL', 'r1', 'r2', 'r3', 'r4');
}
echo '  unlock again once the hashes are gone: ', $call(fn () => $rl->unlock($lock)), "\n";

// Deleted / expired on a majority while held.
$lock = $rl->lock('r5', 10000);
$nodes[0]->cmd('DEL', 'r5');
$nodes[1]->cmd('PEXPIRE', 'r5', 1);
rl_sleep(0.01);
echo 'r5, deleted and expired on two nodes: extend ', $call(fn () => $rl->extend($lock, 10000)), ', another lock ', $call(fn () => $rl->lock('r5', 10000)), ', unlock ', $call(fn () => $rl->unlock($lock)), "\n";
foreach ($nodes as $s) {
    $s->cmd('DEL', 'r5');
}

// PERSIST on every node while held.
$lock = $rl->lock('r6', 10000);
foreach ($nodes as $s) {
    $s->cmd('PERSIST', 'r6');
}
echo 'r6, PERSISTed everywhere: unlock ', $call(fn () => $rl->unlock($lock)), "\n";
echo 'nodes: ', rl_eventually(fn () => rl_all_keys($nodes), '[] [] []'), "\n";
?>
--EXPECTF--
r1, one node a hash: lock array, extend array, unlock true
  nodes: hash none none
r2, two nodes hashes: lock false
r3, one node retyped while held: extend array, unlock true
r4, two nodes retyped while held: extend false, unlock false
  unlock again once the hashes are gone: false
r5, deleted and expired on two nodes: extend false, another lock array, unlock false
r6, PERSISTed everywhere: unlock true
nodes: [] [] []
