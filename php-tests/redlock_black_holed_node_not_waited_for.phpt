--TEST--
RedLock with 1 of 5 nodes black-holed (SYN never answered): lock() does not wait more than that node's timeout, later lock/unlock cycles do not wait for it again; the default node timeout (ttl/10) bounds the wait too
--FILE--
<?php
require __DIR__ . '/inc/fake_server.inc';
$s = rl_start_servers(4);
rl_warm_up($s);
$bh = RlBlackHole::tcp();
$all = [$s[0], $s[1], $bh, $s[2], $s[3]];
$mask = fn (mixed $r) => rl_mask_ports(rl_show($r), $all);

// [host, port, 0.05] for every node; the black hole is the 3rd.
$list = rl_redlock_list($s, 0.05);
array_splice($list, 2, 0, [['127.0.0.1', $bh->port, 0.05]]);
$rl = new RedLock($list, 50);
[$lock, $secs] = rl_timed(fn () => $rl->lock('r', 10000));
echo "lock: ", is_array($lock) ? 'array' : $mask($lock), "\n";
echo "validity > 9000: ", var_export(is_array($lock) && $lock['validity'] > 9000, true), "\n";
printf("first lock < 0.25 s: %s\n", $secs < 0.25 ? 'true' : sprintf('false (%.3f s)', $secs));
$token = is_array($lock) ? $lock['token'] : '?';
echo "live nodes: ", rl_eventually(fn () => rl_holders($s, 'r', [$token => 'ours']), 'ours ours ours ours'), "\n";
[$r, $secs] = rl_timed(fn () => is_array($lock) ? $rl->unlock($lock) : 'no lock');
echo "unlock: ", $mask($r), "\n";
echo "live nodes after unlock: ", rl_eventually(fn () => rl_holders($s, 'r'), '- - - -'), "\n";

// A host known to be down is not waited for again on every call.
$failed = [];
$slow = [];
$budget = rl_now() + 5; // keeps a failing run short
for ($i = 0; $i < 20 && rl_now() < $budget; $i++) {
    [$r, $secs] = rl_timed(function () use ($rl) {
        $l = $rl->lock('r', 10000);
        if (!is_array($l)) {
            return $l;
        }
        return $rl->unlock($l) ? 'ok' : 'unlock false';
    });
    if ($r !== 'ok') {
        $failed[] = $mask($r);
    }
    if ($secs >= 0.05) {
        $slow[] = round($secs, 3);
    }
}
// Waiting for the black-holed node would make every cycle take 0.05 s or more;
// two slow cycles are tolerated as scheduling noise on a busy machine.
echo "$i cycles: failures ", json_encode(array_slice($failed, 0, 2)), ", cycles of 0.05 s or more: ",
    count($slow) <= 2 ? 'at most 2' : json_encode($slow), "\n";
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] []'), "\n";

// No per-node timeout: the default (ttl / 10 = 0.1 s, at most read_timeout) bounds the wait.
// A fresh black hole: nothing about it is remembered yet.
$bh2 = RlBlackHole::tcp();
$list = rl_redlock_list($s);
array_splice($list, 1, 0, [['127.0.0.1', $bh2->port]]);
$rl2 = new RedLock($list, 50);
[$lock, $secs] = rl_timed(fn () => $rl2->lock('r2', 1000));
echo "default timeout: lock: ", is_array($lock) ? 'array' : $mask($lock), ", < 0.3 s: ",
    $secs < 0.3 ? 'true' : sprintf('false (%.3f s)', $secs), "\n";
echo "unlock: ", $mask(rl_timed(fn () => is_array($lock) ? $rl2->unlock($lock) : 'no lock')[0]), "\n";
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] []'), "\n";
?>
--EXPECT--
lock: array
validity > 9000: true
first lock < 0.25 s: true
live nodes: ours ours ours ours
unlock: true
live nodes after unlock: - - - -
20 cycles: failures [], cycles of 0.05 s or more: at most 2
keys: [] [] [] []
default timeout: lock: array, < 0.3 s: true
unlock: true
keys: [] [] [] []
