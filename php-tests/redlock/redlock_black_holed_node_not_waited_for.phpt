--TEST--
RedLock with 1 of 5 nodes black-holed (SYN never answered): lock() does not wait more than that node's timeout, later lock/unlock cycles do not wait for it again; the default node timeout (ttl/10) bounds the wait too
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$s = rl_start_servers(4);
rl_warm_up($s);
$bh = RlBlackHole::tcp();
$all = [$s[0], $s[1], $bh, $s[2], $s[3]];
$mask = fn (mixed $r) => rl_mask_ports(rl_show($r), $all);

// [host, port, 0.05] for every live node; the black hole is the 3rd, with a
// timeout of 0.5 s: waiting for it stands out from any stall of the host
// (and waiting longer, the connect timeout of 1 s, too).
$list = rl_redlock_list($s, 0.05);
array_splice($list, 2, 0, [['127.0.0.1', $bh->port, 0.5]]);
$rl = new RedLock($list, 50);
[$lock, $secs] = rl_timed(fn () => $rl->lock('r', 10000));
echo "lock: ", is_array($lock) ? 'array' : $mask($lock), "\n";
echo "validity > 8800: ", var_export(is_array($lock) && $lock['validity'] > 8800, true), "\n";
printf("first lock < 1 s: %s\n", $secs < 1.0 ? 'true' : sprintf('false (%.3f s)', $secs));
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
    if ($secs >= 0.25) {
        $slow[] = round($secs, 3);
    }
}
// Waiting for the black-holed node would make every cycle take 0.5 s or more
// (and end the loop at the budget, after 10 cycles); two slow cycles are
// tolerated as scheduling noise on a busy machine.
echo "$i cycles: failures ", json_encode(array_slice($failed, 0, 2)), ", cycles of 0.25 s or more: ",
    count($slow) <= 2 ? 'at most 2' : json_encode($slow), "\n";
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] []'), "\n";

// No per-node timeout: the default (ttl / 10 = 0.5 s, at most read_timeout) bounds the wait;
// without it the wait would be read_timeout or connect_timeout (1 s each).
// A fresh black hole: nothing about it is remembered yet.
$bh2 = RlBlackHole::tcp();
$list = rl_redlock_list($s);
array_splice($list, 1, 0, [['127.0.0.1', $bh2->port]]);
$rl2 = new RedLock($list, 50);
[$lock, $secs] = rl_timed(fn () => $rl2->lock('r2', 5000));
echo "default timeout: lock: ", is_array($lock) ? 'array' : $mask($lock), ", < 1 s: ",
    $secs < 1.0 ? 'true' : sprintf('false (%.3f s)', $secs), "\n";
echo "unlock: ", $mask(rl_timed(fn () => is_array($lock) ? $rl2->unlock($lock) : 'no lock')[0]), "\n";
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] []'), "\n";
?>
--EXPECT--
lock: array
validity > 8800: true
first lock < 1 s: true
live nodes: ours ours ours ours
unlock: true
live nodes after unlock: - - - -
20 cycles: failures [], cycles of 0.25 s or more: at most 2
keys: [] [] [] []
default timeout: lock: array, < 1 s: true
unlock: true
keys: [] [] [] []
