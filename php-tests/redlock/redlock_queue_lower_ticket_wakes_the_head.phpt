--TEST--
RedLock's queue over 3 masters: a waiter whose look reaches a master after a later caller's (here: W1 stopped by SIGSTOP until its place ran out, so that W2, who called later, became first in line and sleeps on A for a grant) comes ahead of it again by its earlier ticket, and wakes it on every master ('l' on its wake-up list): a waiter that sleeps for a grant that is no longer coming to it may hold, unknown to it, grants elsewhere that a look of its would hand on; then both get the lock in the order they called; nothing is left behind
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(3);
$holder = new RedLock(rl_redlock_list($s), 100, 1);
$held = $holder->lock('hd', 30000);
echo "held: ", var_export(is_array($held), true), "\n";
$dir = rl_tmpdir();
$waiter = fn (string $name) => new PhpChild(<<<'PHP'
<?php
echo getmypid(), "\n";
$rl = new RedLock(json_decode($argv[1]), 100, 200); // 20 s of patience
$r = $rl->lock('hd', 10000);
echo json_encode(is_array($r) ? 'locked' : $r), "\n";
file_put_contents($argv[2] . '/order', $argv[3] . ' ', FILE_APPEND);
usleep(50000);
echo json_encode(is_array($r) && $rl->unlock($r)), "\n";
PHP, [], [json_encode(rl_redlock_list($s)), $dir, $name]);
$queued = fn () => implode(' ', array_map(fn ($r) => $r->cmd('ZCARD', '{hd}:rq'), $s));

$w1 = $waiter('W1');
$pid1 = (int) $w1->readLine(5);
echo "W1 queued on every master: ", rl_eventually($queued, '1 1 1', 5.0), "\n";
$t1 = $s[1]->cmd('ZRANGE', '{hd}:rq', 0, 0)[0];
posix_kill($pid1, SIGSTOP);
rl_sleep(1.5); // W1's place runs out (about 0.5 s)
$w2 = $waiter('W2');
$w2->readLine(5);
$first = fn () => implode(' ', array_map(fn ($r) => $r->cmd('ZRANGE', '{hd}:rq', 0, 0)[0] ?? '-', $s));
for ($until = rl_now() + 5.0; (($t2 = $s[1]->cmd('ZRANGE', '{hd}:rq', 0, 0)[0] ?? $t1) === $t1) && rl_now() < $until; rl_sleep(0.01));
echo "W2, later, first in line on every master once W1's place ran out: ", var_export($t2 !== $t1 && rl_eventually($first, "$t2 $t2 $t2", 5.0) === "$t2 $t2 $t2", true), "\n";
$woken = fn () => implode(' ', array_map(fn ($r) => json_encode($r->cmd('LRANGE', "{hd}:rw:$t2", 0, -1)), $s));
echo "W2's wake-up lists: ", $woken(), "\n";
$pushes = fn () => array_map(fn ($r) => $r->calls('rpush'), $s);
$before = $pushes();
posix_kill($pid1, SIGCONT);
echo "W1 first in line again: ", var_export(rl_eventually($first, "$t1 $t1 $t1", 5.0) === "$t1 $t1 $t1", true), "\n";
// One push on every master (nothing else pushes meanwhile: the holder still holds). W2
// takes the one where it sleeps at once, and looks again; its look may reach another
// master before W1's, and it sleeps there and takes that one too. The rest stay.
echo "pushes since: ", rl_eventually(fn () => implode(' ', array_map(fn ($n, $b) => $n - $b, $pushes(), $before)), '1 1 1', 0.5), "\n";
$left = explode(' ', $woken());
echo "W2's wake-up lists hold 'l' or nothing: ", var_export(array_diff($left, ['[]', '["l"]']) === [], true), "\n";

echo "unlock: ", var_export($holder->unlock($held), true), "\n";
foreach ([$w1, $w2] as $w) {
    echo trim($w->readLine(5)), ' ';
    $end = $w->wait(10);
    echo trim($end['out']), ", exit ", $end['status'], "\n";
}
echo "order: ", trim((string) file_get_contents("$dir/order")), "\n";
echo "keys left: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []', 2.0), "\n";
?>
--EXPECT--
held: true
W1 queued on every master: 1 1 1
W2, later, first in line on every master once W1's place ran out: true
W2's wake-up lists: [] [] []
W1 first in line again: true
pushes since: 1 1 1
W2's wake-up lists hold 'l' or nothing: true
unlock: true
"locked" true, exit 0
"locked" true, exit 0
order: W1 W2
keys left: [] [] []
