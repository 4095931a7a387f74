--TEST--
RedLock quorum for N = 1..5: with every subset of nodes held by another owner, lock() succeeds exactly when floor(N/2)+1 nodes are free, and a failed attempt leaves no token of ours
--CONFLICTS--
all # alone: one attempt leaves out a master that answers later than the others by more than their answers took (docs/usage.md), and a busy machine delays one now and then
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$all = rl_start_servers(5);
for ($n = 1; $n <= 5; $n++) {
    $s = array_slice($all, 0, $n);
    $quorum = intdiv($n, 2) + 1;
    $rl = new RedLock(rl_redlock_list($s), 0, 1);
    $locked = 0;
    $problems = [];
    for ($mask = 0; $mask < (1 << $n); $mask++) {
        $res = "res-$n-$mask";
        $foreign = [];
        foreach ($s as $i => $r) {
            if ($mask & (1 << $i)) {
                $foreign[$i] = "foreign-$i";
                $r->cmd('SET', $res, $foreign[$i], 'PX', 60000);
            }
        }
        $free = $n - count($foreign);
        $want = $free >= $quorum;
        try {
            $lock = $rl->lock($res, 10000);
        } catch (Throwable $e) {
            $problems[] = "mask $mask ($free free): " . rl_mask_ports(rl_show($e), $s);
            $lock = null;
        }
        if ($lock !== null && is_array($lock) !== $want) {
            $problems[] = "mask $mask ($free free): got " . var_export($lock, true);
        }
        $labels = is_array($lock) ? [$lock['token'] => 'ours'] : [];
        $expected = [];
        foreach ($s as $i => $r) {
            $labels["foreign-$i"] = "foreign-$i";
            $expected[] = isset($foreign[$i]) ? "foreign-$i" : ($want ? 'ours' : '-');
        }
        // A refused attempt may still be releasing on the minority: allow it a moment.
        $holders = rl_eventually(fn () => rl_holders($s, $res, $labels), implode(' ', $expected));
        if ($holders !== implode(' ', $expected)) {
            $problems[] = "mask $mask: nodes hold [$holders], expected [" . implode(' ', $expected) . "]";
        }
        foreach ($foreign as $i => $_) {
            $pttl = $s[$i]->cmd('PTTL', $res);
            if ($pttl <= 59000) {
                $problems[] = "mask $mask: foreign key on node $i has PTTL $pttl";
            }
        }
        if (is_array($lock)) {
            $locked++;
            if (!$rl->unlock($lock)) {
                $problems[] = "mask $mask: unlock false";
            }
            $expected = implode(' ', array_map(fn ($i) => $foreign[$i] ?? '-', array_keys($s)));
            $holders = rl_eventually(fn () => rl_holders($s, $res, $labels), $expected);
            if ($holders !== $expected) {
                $problems[] = "mask $mask: after unlock nodes hold [$holders], expected [$expected]";
            }
        }
    }
    printf("N=%d quorum %d: %d of %d subsets locked; %s\n", $n, $quorum, $locked, 1 << $n,
        $problems === [] ? 'all as expected' : "\n  " . implode("\n  ", $problems));
}
// Only the foreign keys are left (one per foreign node of every subset).
$foreignKeys = 0;
$ours = [];
foreach ($all as $i => $r) {
    foreach ($r->keys() as $k) {
        if (str_starts_with((string) $r->cmd('GET', $k), 'foreign-')) {
            $foreignKeys++;
        } else {
            $ours[] = 'node ' . ($i + 1) . ": $k";
        }
    }
}
echo "foreign keys: $foreignKeys, other keys: ", json_encode($ours), "\n";
?>
--EXPECT--
N=1 quorum 1: 1 of 2 subsets locked; all as expected
N=2 quorum 2: 1 of 4 subsets locked; all as expected
N=3 quorum 2: 4 of 8 subsets locked; all as expected
N=4 quorum 3: 5 of 16 subsets locked; all as expected
N=5 quorum 3: 16 of 32 subsets locked; all as expected
foreign keys: 129, other keys: []
