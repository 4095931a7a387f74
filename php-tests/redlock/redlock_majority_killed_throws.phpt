--TEST--
RedLock with 3 of 5 nodes killed (SIGKILL): lock() throws RedisLockException naming the 3 dead nodes, in bounded time, and leaves no key on the 2 live ones; unlock() and extend() of an older lock throw too (an outage is not "not yours")
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
rl_warm_up($s); // scripts cached (a cold cache is redlock/redlock_unlock_cold_script_cache_slow_node.phpt)
$rl = new RedLock(rl_redlock_list($s), 50);
$held = $rl->lock('held', 60000);
echo "held: ", rl_eventually(fn () => rl_holders($s, 'held', [$held['token'] => 'ours']), 'ours ours ours ours ours'), "\n";

$s[0]->kill();
$s[2]->kill();
$s[4]->kill();
foreach ($s as $r) {
    if ($r->running()) {
        $r->cmd('CONFIG', 'RESETSTAT');
    }
}
// The same RedLock, and one naming the dead nodes by DSNs with a user and password.
[$r, $secs] = rl_timed(fn () => $rl->lock('job', 10000));
echo rl_mask_ports(rl_show($r), $s), "\n";
$dsns = rl_redlock_list($s);
foreach ([0, 2, 4] as $i) {
    $dsns[$i] = "redis://app:hunter2@127.0.0.1:{$s[$i]->port}/1";
}
$r2 = rl_timed(fn () => (new RedLock($dsns, 0, 1))->lock('job', 10000))[0];
echo "with passwords: ", rl_show($r2) === rl_show($r) ? 'the same message' : rl_mask_ports(rl_show($r2), $s), "\n";
// Three attempts (every one is a SET on each live node), two pauses of 25..50 ms.
printf("0.05 s <= time < 2 s: %s\n", var_export($secs >= 0.05 && $secs < 2, true));
// (A round decided by the dead may end before the live nodes ran their SET.)
echo "attempts seen by the live nodes: ", rl_eventually(fn () => $s[1]->calls('set') . ' ' . $s[3]->calls('set'), '4 4'), " (3 + 1)\n";
echo "job on the nodes: ", rl_eventually(fn () => rl_holders($s, 'job'), 'down - down - down'), "\n";

// The older lock: only 2 of 5 can be asked, which decides nothing: an exception, not false.
echo "unlock: ", rl_mask_ports(rl_show(rl_timed(fn () => $rl->unlock($held))[0]), $s), "\n";
echo "held on the nodes: ", rl_eventually(fn () => rl_holders($s, 'held', [$held['token'] => 'ours']), 'down - down - down'), "\n";
echo "extend: ", rl_mask_ports(rl_show(rl_timed(fn () => $rl->extend($held, 10000))[0]), $s), "\n";
?>
--EXPECT--
held: ours ours ours ours ours
RedisLockException: RedLock::lock(): fewer than 3 of 5 Redis nodes could be reached: Redis at 127.0.0.1:P1: cannot connect: Connection refused (os error 111); Redis at 127.0.0.1:P3: cannot connect: Connection refused (os error 111); Redis at 127.0.0.1:P5: cannot connect: Connection refused (os error 111)
with passwords: the same message
0.05 s <= time < 2 s: true
attempts seen by the live nodes: 4 4 (3 + 1)
job on the nodes: down - down - down
unlock: RedisLockException: RedLock::unlock(): fewer than 3 of 5 Redis nodes could be reached: Redis at 127.0.0.1:P1: cannot connect: Connection refused (os error 111); Redis at 127.0.0.1:P3: cannot connect: Connection refused (os error 111); Redis at 127.0.0.1:P5: cannot connect: Connection refused (os error 111)
held on the nodes: down - down - down
extend: RedisLockException: RedLock::extend(): fewer than 3 of 5 Redis nodes could be reached: Redis at 127.0.0.1:P1: cannot connect: Connection refused (os error 111); Redis at 127.0.0.1:P3: cannot connect: Connection refused (os error 111); Redis at 127.0.0.1:P5: cannot connect: Connection refused (os error 111)
