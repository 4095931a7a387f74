--TEST--
RedLock with 2 of 5 nodes killed (SIGKILL): lock() and unlock() still succeed on the 3 live nodes; once the 2 come back, locks cover all 5 again
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
$rl = new RedLock(rl_redlock_list($s), 50);
rl_warm_up($s); // a worker that already has a connection to every node

$s[1]->kill();
$s[3]->kill();
[$lock, $secs] = rl_timed(fn () => $rl->lock('report', 10000));
echo "lock: ", is_array($lock) ? 'array' : rl_show($lock), ", under 0.5 s: ", var_export($secs < 0.5, true), "\n";
printf("validity > ttl - drift - 100: %s\n", var_export($lock['validity'] > 10000 - 102 - 100, true));
echo "nodes: ", rl_holders($s, 'report', [$lock['token'] => 'ours']), "\n";
// Taken: another client gets false (not an exception) with the same two nodes down.
$other = new RedLock(rl_redlock_list($s), 0, 1);
echo "other client: ", rl_mask_ports(rl_show(rl_timed(fn () => $other->lock('report', 10000))[0]), $s), "\n";
echo "nodes: ", rl_holders($s, 'report', [$lock['token'] => 'ours']), "\n";
[$r, $secs] = rl_timed(fn () => $rl->unlock($lock));
echo "unlock: ", rl_show($r), ", under 0.5 s: ", var_export($secs < 0.5, true), "\n";
echo "nodes: ", rl_eventually(fn () => rl_holders($s, 'report'), '- down - down -'), "\n";

// Back (empty): the next lock is on all five.
$s[1]->restart(save: false);
$s[3]->restart(save: false);
$lock = $rl->lock('report', 10000);
echo "after restart: ", rl_eventually(fn () => rl_holders($s, 'report', [$lock['token'] => 'ours']), 'ours ours ours ours ours'), "\n";
var_dump($rl->unlock($lock));
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] [] []'), "\n";
?>
--EXPECT--
lock: array, under 0.5 s: true
validity > ttl - drift - 100: true
nodes: ours down ours down ours
other client: false
nodes: ours down ours down ours
unlock: true, under 0.5 s: true
nodes: - down - down -
after restart: ours ours ours ours ours
bool(true)
keys: [] [] [] [] []
