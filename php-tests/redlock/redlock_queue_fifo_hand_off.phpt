--TEST--
RedLock's queue on 5 nodes: 4 processes that call lock() one after another while the resource is held get it in that order, each handed the lock by the previous unlock() (within 80 ms of it, where a waiter that looks again on its own would take 100 ms or more) with one push on each node's wake-up list per hand-off (the waiter taking a grant wakes nobody behind it); the queue's keys are on every node while they wait and gone afterwards
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
$dir = rl_tmpdir();
$rl = new RedLock(rl_redlock_list($s), 200, 50); // 10 s of patience
$held = $rl->lock('fifo', 30000);
echo "held: ", var_export(is_array($held), true), "\n";

$queued = fn () => implode(' ', array_map(fn ($r) => (int) $r->cmd('ZCARD', '{fifo}:rq'), $s));
$pids = [];
for ($i = 1; $i <= 4; $i++) {
    $pids[$i] = rl_fork(function () use ($s, $dir, $i) {
        $rl = new RedLock(rl_redlock_list($s), 200, 50);
        $lock = $rl->lock('fifo', 10000);
        if (!is_array($lock)) {
            return 1;
        }
        $got = rl_now();
        rl_sleep(0.05);
        file_put_contents("$dir/$i", json_encode([$got, rl_now()])); // the moment just before unlock()
        return $rl->unlock($lock) ? 0 : 2;
    });
    // Each one waits on every node before the next calls lock().
    $want = implode(' ', array_fill(0, 5, $i));
    if (rl_eventually($queued, $want, 5.0) !== $want) {
        echo "waiter $i not queued on every node: ", $queued(), "\n";
    }
}
echo "waiting on every node: ", $queued(), "\n";
$pushes = fn () => array_map(fn ($r) => $r->calls('rpush'), $s);
$before = $pushes();
$released = rl_now();
var_dump($rl->unlock($held));
$codes = array_map('rl_wait', $pids);
echo "children: ", implode(' ', $codes), "\n";
// Four grants ('h'): the first unlock's and those of the first three children.
echo "pushes per node: ", implode(' ', array_map(fn ($n, $b) => $n - $b, $pushes(), $before)), "\n";

$times = [];
for ($i = 1; $i <= 4; $i++) {
    $times[$i] = json_decode((string) @file_get_contents("$dir/$i"), true) ?: [INF, INF];
}
$order = array_keys($times);
usort($order, fn ($a, $b) => $times[$a][0] <=> $times[$b][0]);
echo "order: ", implode(' ', $order), "\n";
$gaps = [];
$previous = $released;
foreach ($order as $i) {
    $gaps[] = $times[$i][0] - $previous;
    $previous = $times[$i][1];
}
$late = array_filter($gaps, fn ($g) => $g < 0 || $g >= 0.08);
echo "each hand-off within 80 ms: ", $late ? 'false (' . implode(', ', array_map(fn ($g) => sprintf('%.0f ms', $g * 1000), $gaps)) . ')' : 'true', "\n";
// An unlock that ran late on one node may have granted the lock to a waiter that had
// won elsewhere: its wake-up list there lives 4 × the grant (800 ms) where the
// native delete (no script) released it.
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] [] []', 1.5), "\n";
?>
--EXPECT--
held: true
waiting on every node: 4 4 4 4 4
bool(true)
children: 0 0 0 0
pushes per node: 4 4 4 4 4
order: 1 2 3 4
each hand-off within 80 ms: true
keys: [] [] [] [] []
