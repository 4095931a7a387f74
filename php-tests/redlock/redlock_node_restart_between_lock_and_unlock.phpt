--TEST--
RedLock: nodes restarted between lock() and unlock() (one keeping its data, one losing it): unlock() still returns true and no key of ours is left on any node
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
rl_warm_up($s); // pooled connections that the restarts will break
$rl = new RedLock(rl_redlock_list($s));

// Node 1 keeps the key (SAVE, restart), node 2 loses it (restart without data).
$lock = $rl->lock('report', 60000);
rl_eventually(fn () => rl_holders($s, 'report', [$lock['token'] => 'ours']), 'ours ours ours ours ours');
$s[0]->restart(save: true);
$s[1]->restart(save: false);
echo "before unlock: ", rl_holders($s, 'report', [$lock['token'] => 'ours']), "\n";
var_dump($rl->unlock($lock));
echo "after unlock: ", rl_eventually(fn () => rl_holders($s, 'report', [$lock['token'] => 'ours']), '- - - - -'), "\n";

// Three of five restarted with their data: a majority must be reached on new connections.
$lock = $rl->lock('report', 60000);
rl_eventually(fn () => rl_holders($s, 'report', [$lock['token'] => 'ours']), 'ours ours ours ours ours');
foreach ([0, 2, 4] as $i) {
    $s[$i]->restart(save: true);
}
echo "before unlock: ", rl_holders($s, 'report', [$lock['token'] => 'ours']), "\n";
var_dump($rl->unlock($lock));
echo "after unlock: ", rl_eventually(fn () => rl_holders($s, 'report', [$lock['token'] => 'ours']), '- - - - -'), "\n";

// The same, many times (whether the release reaches the restarted node before
// the majority has answered is a race): the restarted node never keeps our key.
$kept = 0;
for ($round = 0; $round < 6; $round++) {
    $lock = $rl->lock('again', 60000);
    $s[$round % 5]->restart(save: true);
    $ok = $rl->unlock($lock);
    $left = rl_eventually(fn () => rl_holders($s, 'again'), '- - - - -');
    $kept += $left === '- - - - -' ? 0 : 1;
    if (!$ok) {
        echo "round $round: unlock false\n";
    }
    $s[$round % 5]->cmd('DEL', 'again');
}
echo "rounds where a restarted node kept our key: $kept of 6\n";

// Restarted right after lock(): extend() and a second lock() see the truth.
$lock = $rl->lock('report', 60000);
// (lock() returns once a majority said yes: the last SETs may still be on their way.)
rl_eventually(fn () => rl_holders($s, 'report', [$lock['token'] => 'ours']), 'ours ours ours ours ours');
$s[3]->restart(save: true);
$s[4]->restart(save: false);
$ext = $rl->extend($lock, 30000);
echo "extend: ", is_array($ext) ? 'array' : rl_show($ext), ", same token: ", var_export(($ext['token'] ?? null) === $lock['token'], true), "\n";
$pttls = array_map(fn ($r) => $r->cmd('PTTL', 'report'), $s);
echo "PTTL where the key is (-2: missing): ", implode(' ', array_map(fn ($p) => $p === -2 ? '-2' : ($p > 29000 && $p <= 30000 ? '~30000' : $p), $pttls)), "\n";
var_dump($rl->lock('report', 60000));
var_dump($rl->unlock($lock));
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] [] []'), "\n";
?>
--EXPECT--
before unlock: ours - ours ours ours
bool(true)
after unlock: - - - - -
before unlock: ours ours ours ours ours
bool(true)
after unlock: - - - - -
rounds where a restarted node kept our key: 0 of 6
extend: array, same token: true
PTTL where the key is (-2: missing): ~30000 ~30000 ~30000 ~30000 -2
bool(false)
bool(true)
keys: [] [] [] [] []
